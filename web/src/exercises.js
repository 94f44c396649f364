// The lesson's exercises and check questions, answered on the page and judged by the core: each
// exercise comes from rl.exercise({id, seed}) (seed 0: the lesson's numbers; "new numbers" draws
// another seed), rl.checkExercise judges every answer and names a known mistake, and the texts
// (web/i18n/ui-exercises.json) fill their figures from the core's inputs and solution values.
// Progress (state, seed and what was typed) is kept in localStorage when the browser allows it.
import { h, clear, nextId } from './dom.js';
import { t, hasText, catalogName } from './i18n.js';
import { format } from './format.js';
import { parseNumber } from './parse.js';
import { toBase } from './units.js';

const STORE_KEY = 'roofline-lab.progress.v1';
export const RESET_EVENT = 'roofline-practice-reset';
export const CHANGE_EVENT = 'roofline-practice-change';

/** The units an answer of each kind may be typed in: [label or UI text id, unit name]. */
const UNIT_CHOICES = {
  macs: [['MACs', 'one'], ['GMACs', 'giga']],
  flops: [['FLOPs', 'one'], ['MFLOPs', 'mega'], ['GFLOPs', 'giga'], ['TFLOPs', 'tera']],
  seconds: [['s', 'one'], ['ms', 'milli'], ['µs', 'micro'], ['ns', 'nano']],
  bytes: [['B', 'one'], ['MB', 'mega'], ['GB', 'giga']],
  flopsPerByte: [['FLOPs/B', 'one']],
  flopsPerSecond: [['TFLOPS', 'tera'], ['GFLOPS', 'giga']],
  opsPerSecond: [['TOPS', 'tera'], ['GOPS', 'giga']],
  tokensPerSecond: [['ex.unit.tokensPerSecond', 'one']],
  itemsPerSecond: [['ex.unit.perSecond', 'one']],
  tokens: [['ex.unit.tokens', 'one']],
  ratio: [['×', 'one']],
  fraction: [['%', 'percent']],
};
/** Choice ids with a label shared by every exercise. */
const SHARED_CHOICES = ['yes', 'no', 'compute', 'memory'];

// ---- progress ------------------------------------------------------------------------------

export function loadProgress() {
  try {
    const p = JSON.parse(globalThis.localStorage.getItem(STORE_KEY) || '{}');
    return p && typeof p === 'object' ? p : {};
  } catch (e) {
    return {};  // no storage (some file:// setups, private modes): progress lasts the visit
  }
}

function saveProgress(key, entry) {
  try {
    const p = loadProgress();
    p[key] = entry;
    globalThis.localStorage.setItem(STORE_KEY, JSON.stringify(p));
  } catch (e) {
    /* storage unavailable or full: nothing to do */
  }
}

export function clearProgress() {
  try {
    globalThis.localStorage.removeItem(STORE_KEY);
  } catch (e) {
    /* storage unavailable */
  }
  document.dispatchEvent(new CustomEvent(RESET_EVENT));
}

/** How many of `type` ('exercise' | 'question') are solved, from the saved progress. */
export function solvedCount(type) {
  return Object.entries(loadProgress()).filter(([k, v]) => k.startsWith(`${type}.`) && v && v.state === 'correct').length;
}

// ---- texts -----------------------------------------------------------------------------------

/** Fills {name.kind} placeholders from the core's values: numbers formatted, ids named. */
export function fillFigures(text, values, lang) {
  return String(text).replace(/\{([A-Za-z0-9_]+)\.([A-Za-z]+)\}/g, (m, name, kind) => {
    if (!(name in values)) throw new Error(`no value ${name} for ${m}`);
    const v = values[name];
    switch (kind) {
      case 'gpu': return catalogName('gpu', v, lang);
      case 'model': return catalogName('model', v, lang);
      case 'format': return catalogName('format', v, lang);
      case 'stage': return catalogName('stage', `resnet50.${v}`, lang);
      case 'link': return catalogName('link', v, lang);
      case 'verdict': return t(`verdict.${v}`, lang);
      case 'yesno': return t(`ex.choice.${v}`, lang);
      default: return format(v, kind, lang);
    }
  });
}

function blocks(text) {
  const out = [];
  for (const para of String(text).split(/\n\s*\n/)) {
    const lines = para.split('\n').map((l) => l.trim()).filter(Boolean);
    const items = lines.filter((l) => l.startsWith('- '));
    if (items.length && items.length === lines.length) {
      out.push(h('ul', {}, items.map((l) => h('li', {}, l.slice(2)))));
    } else {
      const ps = [];
      let list = null;
      for (const l of lines) {
        if (l.startsWith('- ')) {
          if (!list) {
            list = h('ul');
            ps.push(list);
          }
          list.append(h('li', {}, l.slice(2)));
        } else {
          list = null;
          ps.push(h('p', {}, l));
        }
      }
      out.push(...ps);
    }
  }
  return out;
}

// ---- one exercise or question ------------------------------------------------------------------

export class Practice {
  /**
   * @param rl the module
   * @param {{type: 'exercise'|'question', id: number, lang: string, host?: HTMLElement}} opts
   */
  constructor(rl, { type, id, lang, host }) {
    this.rl = rl;
    this.type = type;
    this.id = id;
    this.lang = lang;
    this.host = host;
    this.key = `${type}.${id}`;
    const saved = loadProgress()[this.key] || {};
    this.seed = Number.isSafeInteger(saved.seed) && saved.seed >= 0 ? saved.seed : 0;
    this.typed = saved.answers && typeof saved.answers === 'object' ? saved.answers : {};
    this.state = typeof saved.state === 'string' ? saved.state : null;
    this.attempted = Boolean(this.state);
    this.result = null;
    this.solutionOpen = false;
    this.onReset = () => this.useSeed(0);
    document.addEventListener(RESET_EVENT, this.onReset);
  }

  disconnect() {
    document.removeEventListener(RESET_EVENT, this.onReset);
  }

  /** Listens again after disconnect() (the element was inserted again). */
  connect() {
    document.addEventListener(RESET_EVENT, this.onReset);
  }

  tr(id, vars) {
    return t(id, this.lang, vars);
  }

  get prefix() {
    return this.type === 'exercise' ? `ex.${this.id}` : `q.${this.id}`;
  }

  instance() {
    return this.type === 'exercise' ? this.rl.exercise({ id: this.id, seed: this.seed }) : this.rl.question({ id: this.id });
  }

  values() {
    return { ...this.inst.inputs, ...this.inst.solution };
  }

  setLang(lang) {
    if (lang === this.lang) return;
    this.readTyped();
    this.lang = lang;
    if (this.root) this.render(this.root);
  }

  render(root) {
    this.root = root;
    clear(root);
    this.inst = this.instance();
    const lang = this.lang;
    const titleId = nextId(`${this.type}-title`);
    const article = h('article', {
      class: ['practice', `practice-${this.type}`], 'aria-labelledby': titleId,
      [`data-${this.type}`]: String(this.id),
    });
    if (this.state) article.dataset.state = this.state;
    this.article = article;
    const title = this.type === 'exercise'
      ? [this.tr('ex.title', { n: this.id }), ' ', h('span', { class: ['level', `level-${this.inst.level}`] }, this.tr(`ex.level.${this.inst.level}`))]
      : [this.tr('q.title', { n: this.id })];
    article.append(h('h3', { id: titleId, class: 'practice-title' }, ...title));
    const statementId = this.type === 'exercise' ? `${this.prefix}.statement` : `${this.prefix}.text`;
    article.append(...blocks(fillFigures(this.tr(statementId), this.values(), lang)).map((el) => {
      el.classList.add('statement');
      return el;
    }));

    const form = h('form', { class: 'answers', novalidate: true, onsubmit: (e) => { e.preventDefault(); this.check(); } });
    this.partEls = {};
    for (const p of this.inst.parts) form.append(this.renderPart(p));
    const tol = this.toleranceText();
    if (tol) form.append(h('p', { class: 'tolerance' }, tol));
    const actions = h('div', { class: 'actions' },
      h('button', { type: 'submit', 'data-check': '' }, this.tr('ex.action.check')));
    if (this.type === 'exercise') {
      actions.append(h('button', { type: 'button', class: 'secondary', 'data-new': '', onclick: () => this.newNumbers() }, this.tr('ex.action.new')));
      this.solutionBtn = h('button', {
        type: 'button', class: 'secondary', 'data-solution': '', 'aria-expanded': 'false',
        disabled: !this.attempted, onclick: () => this.toggleSolution(),
      }, this.tr('ex.action.solution'));
      actions.append(this.solutionBtn);
    }
    form.append(actions);
    article.append(form);
    this.summaryEl = h('p', { class: 'practice-summary', role: 'status' });
    article.append(this.summaryEl);
    this.solutionEl = h('div', { class: 'solution', id: nextId(`${this.type}-solution`), hidden: true });
    if (this.solutionBtn) this.solutionBtn.setAttribute('aria-controls', this.solutionEl.id);
    article.append(this.solutionEl);
    root.append(article);
    if (this.attempted && this.hasAnswers()) this.check({ quiet: true });
    if (this.solutionOpen) this.showSolution(true);
  }

  hasAnswers() {
    return Object.values(this.typed).some((a) => a && a.text);
  }

  partLabel(p) {
    return this.tr(`${this.prefix}.part.${p.id}`);
  }

  choiceLabel(p, c) {
    const own = `${this.prefix}.choice.${p.id}.${c}`;
    if (hasText(own)) return this.tr(own);
    if (SHARED_CHOICES.includes(c)) return this.tr(`ex.choice.${c}`);
    throw new Error(`no text for choice ${own}`);
  }

  renderPart(p) {
    const saved = this.typed[p.id] || {};
    const feedback = h('p', { class: 'part-feedback', 'data-hint': p.id, 'aria-live': 'polite', id: nextId(`${this.prefix}-${p.id}-fb`) });
    if (p.kind === 'choice') {
      const name = nextId(`${this.prefix}-${p.id}`);
      const legendId = nextId(`${this.prefix}-${p.id}-legend`);
      const set = h('fieldset', { class: 'answer answer-choice', 'data-part': p.id, 'aria-describedby': feedback.id },
        h('legend', { id: legendId }, this.partLabel(p)));
      const radios = [];
      for (const c of p.choices) {
        const r = h('input', { type: 'radio', name, value: c, 'data-answer': p.id });
        if (saved.text === c) r.checked = true;
        radios.push(r);
        set.append(h('label', { class: 'choice' }, r, ' ', this.choiceLabel(p, c)));
      }
      set.append(feedback);
      this.partEls[p.id] = { radios, feedback, box: set };
      return set;
    }
    const id = nextId(`${this.prefix}-${p.id}`);
    const input = h('input', {
      id, type: 'text', inputmode: p.kind === 'matrix' ? 'text' : 'decimal', autocomplete: 'off', spellcheck: 'false',
      'data-answer': p.id, 'aria-describedby': feedback.id,
    });
    input.value = saved.text || '';
    const row = h('div', { class: 'input-row' }, input);
    let unitSel = null;
    const units = UNIT_CHOICES[p.kind] || [];
    if (units.length > 1) {
      unitSel = h('select', { 'aria-label': this.tr('ex.unit'), 'data-unit': p.id },
        units.map(([label, u]) => h('option', { value: u }, label.startsWith('ex.') ? this.tr(label) : label)));
      unitSel.value = units.some(([, u]) => u === saved.unit) ? saved.unit : this.defaultUnit(p, units);
      row.append(unitSel);
    } else if (units.length === 1) {
      const [label] = units[0];
      row.append(h('span', { class: 'unit' }, label.startsWith('ex.') ? this.tr(label) : label));
    }
    const box = h('div', { class: 'answer', 'data-part': p.id },
      h('label', { for: id }, this.partLabel(p)), row);
    if (p.kind === 'matrix') box.append(h('p', { class: 'hint' }, this.tr('ex.matrix.hint')));
    box.append(feedback);
    this.partEls[p.id] = { input, unitSel, feedback, box };
    return box;
  }

  /** The unit a field starts in: plain counts for work and bytes (as worked by hand), ms for
   * times, TFLOPS for rates; never chosen from the answer, which would give its size away. */
  defaultUnit(p, units) {
    const preferred = { seconds: 'milli', flopsPerSecond: 'tera', opsPerSecond: 'tera' }[p.kind] || 'one';
    return units.some(([, u]) => u === preferred) ? preferred : units[0][1];
  }

  toleranceText() {
    const parts = this.inst.parts;
    const out = [];
    const rounded = parts.filter((p) => p.kind !== 'fraction' && p.relativeTolerance > 0);
    if (rounded.length) out.push(this.tr('ex.tolerance.rounded', { pct: format(rounded[0].relativeTolerance, 'percent', this.lang) }));
    const pct = parts.find((p) => p.kind === 'fraction');
    if (pct) out.push(this.tr('ex.tolerance.percent', { pct: format(pct.relativeTolerance, 'percent', this.lang) }));
    if (parts.some((p) => typeof p.expected === 'number' && p.relativeTolerance === 0 && p.absoluteTolerance === 0)) out.push(this.tr('ex.tolerance.exact'));
    return out.join(' ');
  }

  /** What the reader typed, kept in this.typed (so a language switch or reload loses nothing). */
  readTyped() {
    if (!this.partEls) return;
    for (const p of this.inst.parts) {
      const els = this.partEls[p.id];
      if (els.radios) {
        const r = els.radios.find((x) => x.checked);
        this.typed[p.id] = { text: r ? r.value : '' };
      } else {
        this.typed[p.id] = { text: els.input.value, unit: els.unitSel ? els.unitSel.value : undefined };
      }
    }
  }

  /** The answers for the core, in base units; typing errors per part. */
  answers() {
    const answers = {};
    const invalid = {};
    for (const p of this.inst.parts) {
      const a = this.typed[p.id] || {};
      const text = String(a.text || '').trim();
      if (!text) continue;
      if (p.kind === 'choice') {
        answers[p.id] = text;
      } else if (p.kind === 'matrix') {
        const rows = text.split(';').map((r) => r.trim()).filter(Boolean).map((r) => r.split(/\s+/).map((x) => parseNumber(x, this.lang)));
        if (!rows.length || rows.some((r) => r.some((x) => typeof x !== 'number' || !Number.isFinite(x)))) invalid[p.id] = 'ex.answer.matrixInvalid';
        else answers[p.id] = rows;
      } else {
        const v = parseNumber(text, this.lang);
        const units = UNIT_CHOICES[p.kind] || [];
        const unit = a.unit && units.some(([, u]) => u === a.unit) ? a.unit : (units[0] ? units[0][1] : 'one');
        const base = typeof v === 'number' ? toBase(v, unit) : NaN;
        if (!Number.isFinite(base)) invalid[p.id] = 'ex.answer.invalid';
        else answers[p.id] = base;
      }
    }
    return { answers, invalid };
  }

  check({ quiet = false } = {}) {
    this.readTyped();
    const { answers, invalid } = this.answers();
    let result;
    try {
      result = this.type === 'exercise'
        ? this.rl.checkExercise({ id: this.id, seed: this.seed, answers })
        : this.rl.checkQuestion({ id: this.id, answers });
    } catch (e) {
      console.error(e);
      this.summaryEl.textContent = this.tr('error.internal_error');
      return;
    }
    this.result = result;
    for (const pc of result.parts) {
      const p = this.inst.parts.find((x) => x.id === pc.id);
      const els = this.partEls[pc.id];
      let text;
      let cls;
      if (invalid[pc.id]) {
        text = this.tr(invalid[pc.id], { field: this.partLabel(p) });
        cls = 'wrong';
      } else if (!pc.answered) {
        text = this.tr('ex.part.unanswered');
        cls = 'empty';
      } else if (pc.correct) {
        text = this.tr('ex.part.correct');
        cls = 'right';
      } else {
        text = this.tr(pc.mistake ? `ex.hint.${pc.mistake}` : `ex.nudge.${p.kind}`);
        cls = pc.mistake ? 'mistake' : 'wrong';
      }
      els.feedback.textContent = text;
      els.feedback.className = `part-feedback ${cls}`;
      els.box.classList.toggle('is-right', cls === 'right');
      els.box.classList.toggle('is-wrong', cls === 'wrong' || cls === 'mistake');
      const target = els.input || null;
      if (target) {
        if (cls === 'wrong' || cls === 'mistake') target.setAttribute('aria-invalid', 'true');
        else target.removeAttribute('aria-invalid');
      }
    }
    const state = result.state === 'unanswered' ? 'incorrect' : result.state;
    this.state = state;
    this.article.dataset.state = state;
    this.summaryEl.textContent = this.tr(`ex.state.${result.state}`, { correct: result.correct, total: result.parts.length });
    this.attempted = true;
    if (this.solutionBtn) this.solutionBtn.disabled = false;
    if (this.type === 'question') this.showExplanation();
    if (!quiet) this.save();
  }

  save() {
    saveProgress(this.key, { state: this.state, seed: this.seed, answers: this.typed });
    document.dispatchEvent(new CustomEvent(CHANGE_EVENT, { detail: { key: this.key, state: this.state } }));
  }

  newNumbers() {
    // a seed from the browser's generator; the core draws the exercise from it. Some exercises
    // have few sizes to draw from, so a seed may give the numbers already shown: draw again.
    const shown = JSON.stringify(this.inst.inputs);
    const buf = new Uint32Array(1);
    let seed = this.seed;
    for (let tries = 0; tries < 50; tries += 1) {
      if (globalThis.crypto && crypto.getRandomValues) crypto.getRandomValues(buf);
      else buf[0] = Math.floor(Math.random() * 2 ** 32);
      seed = buf[0] || 1;
      if (JSON.stringify(this.rl.exercise({ id: this.id, seed }).inputs) !== shown) break;
    }
    this.useSeed(seed);
    this.save();
    const first = this.root.querySelector('[data-answer]');
    if (first) first.focus();
  }

  /** Starts over on the exercise drawn from `seed` (0: the lesson's numbers), answers cleared. */
  useSeed(seed) {
    this.seed = seed;
    this.typed = {};
    this.state = null;
    this.attempted = false;
    this.result = null;
    this.solutionOpen = false;
    if (this.root) this.render(this.root);
  }

  toggleSolution() {
    this.showSolution(!this.solutionOpen);
  }

  showSolution(open) {
    if (!this.attempted && open) return;
    this.solutionOpen = open;
    clear(this.solutionEl);
    if (open) {
      this.solutionEl.append(h('h4', {}, this.tr('ex.solution.title')),
        ...blocks(fillFigures(this.tr(`${this.prefix}.solution`), this.values(), this.lang)));
    }
    this.solutionEl.hidden = !open;
    if (this.solutionBtn) {
      this.solutionBtn.setAttribute('aria-expanded', String(open));
      this.solutionBtn.textContent = this.tr(open ? 'ex.action.solutionHide' : 'ex.action.solution');
    }
  }

  showExplanation() {
    clear(this.solutionEl);
    this.solutionEl.append(...blocks(fillFigures(this.tr(`${this.prefix}.explain`), this.values(), this.lang)));
    this.solutionEl.hidden = false;
  }
}

/** The ids of every exercise ('exercise') or check question ('question'), as the core numbers them. */
export function practiceIds(rl, type) {
  const ids = [];
  for (let id = 1; ; id += 1) {
    try {
      if (type === 'exercise') rl.exercise({ id });
      else rl.question({ id });
    } catch (e) {
      if (e && e.code === 'out_of_range') return ids;
      throw e;
    }
    ids.push(id);
  }
}
