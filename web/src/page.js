// The lesson's page: header, language switch, one section per calculator and figure (prose from
// web/i18n/prose.json around each <roofline-calculator>), the two diagrams, the benchmark
// overlay, common mistakes and the glossary cards.
import { h, clear, focusReturn } from './dom.js';
import { t, detectLang, proseText, glossaryIds, glossaryCard, hasText, hasLang } from './i18n.js';
import { PROSE } from './data.js';
import { LANGS } from './format.js';
import { loadModule, ensureLang } from './element.js';
import { readerState } from './reader.js';
import { MORE, loadMore, haveMoreIn } from './more.js';
import { readerScreen } from './prerendered.js';
import { KINDS } from './kinds.js';

// The lesson's sections in order: each calculator kind's own (web/src/kinds.js, in its order),
// the two diagrams before decode, and the lesson's other parts after the calculators.
const SECTIONS = (() => {
  const kinds = KINDS.filter((k) => k.section).map((k) => ({ id: k.section, kind: k.kind }));
  const at = kinds.findIndex((s) => s.kind === 'decode');
  return [
    ...kinds.slice(0, at),
    { id: 'flow', diagram: 'flow' },
    { id: 'limits', diagram: 'limits' },
    ...kinds.slice(at),
    { id: 'reallife', reallife: true },
    { id: 'exercises', practice: 'exercise' },
    { id: 'check', practice: 'question' },
    { id: 'bench', bench: true },
    { id: 'mistakes', mistakes: true },
    { id: 'glossary', glossary: true },
  ];
})();

// How many sections render before the first paint (the page's first screen); the rest follow.
const EAGER_SECTIONS = 1;

function paragraphs(text, cls) {
  if (!text) return [];
  return String(text).split(/\n\s*\n/).map((p) => h('p', { class: cls }, p.trim()));
}

export class Page {
  constructor(root, rl) {
    this.root = root;
    this.rl = rl;
    this.lang = detectLang();
    this.calcs = {};
    this.diagrams = {};
    document.addEventListener('roofline-change', (e) => {
      const { kind, values } = e.detail || {};
      if (kind in readerState) readerState[kind] = values;
    });
    this.bench = null; // the benchmark overlay, made with the page's later parts
  }

  p(id) {
    try {
      return proseText(this.rl, id, this.lang);
    } catch (e) {
      console.error(e);
      return null;
    }
  }

  async setLang(lang) {
    if (!LANGS.includes(lang) || lang === this.lang) return;
    // the last language asked for wins, whichever one's files arrive first
    this.wantLang = lang;
    // every section is drawn again in the new language: the later parts come first
    try {
      await Promise.all([ensureLang(lang), loadMore(lang)]);
    } catch (e) {
      console.error(e);
      if (this.wantLang === lang) this.moreFailed(this.lang); // the page stays as it was, in its language
      return;
    }
    if (this.wantLang !== lang || lang === this.lang) return;
    this.lang = lang;
    const u = new URL(location.href);
    u.searchParams.set('lang', lang);
    try {
      history.replaceState(history.state, '', u.href);
    } catch (e) {
      /* file:// may refuse; the page still switches */
    }
    this.render();
  }

  render() {
    const lang = this.lang;
    document.documentElement.lang = lang;
    document.title = this.p('page.title') || t('page.title', lang);
    const root = this.root;
    this.adoptPrerender();
    const refocus = keepFocus(root);
    // keep calculator elements (their state) across language switches
    for (const el of Object.values(this.calcs)) el.remove();
    for (const el of Object.values(this.practiceElements || {})) el.remove();
    clear(root);
    const langNav = h('nav', { class: 'lang-switch', 'aria-label': t('page.langNav', lang) },
      LANGS.map((l) => h('button', {
        type: 'button', lang: l, 'data-lang': l, 'aria-pressed': String(l === lang),
        onclick: () => this.setLang(l),
      }, t(`lang.${l}`, l))));
    const header = h('header', { class: 'masthead' },
      h('div', { class: 'masthead-top' }, h('p', { class: 'brand' }, t('page.brand', lang)), langNav),
      h('h1', {}, this.p('page.title') || t('page.title', lang)),
      ...paragraphs(this.p('page.lede'), 'lede'),
      this.p('page.question') ? h('p', { class: 'question' }, h('strong', {}, t('page.questionLabel', lang)), ' ', this.p('page.question')) : null,
      // the lesson's answer in two sentences, its numbers from the core, and where to try it
      this.p('page.answer') ? h('p', { class: 'answer' }, h('strong', {}, t('page.answerLabel', lang)), ' ', this.p('page.answer'), ' ',
        h('a', { href: '#decode' }, t('page.answerLink', lang))) : null);
    const toc = h('nav', { class: 'toc', 'aria-label': t('page.toc', lang) },
      h('ol', {}, SECTIONS.map((sec) => h('li', {}, h('a', { href: `#${sec.id}` }, t(`section.${sec.id}`, lang))))));
    const main = h('main', { id: 'main' });
    const footer = h('footer', { class: 'page-foot' }, h('p', {}, t('page.footer', lang)));
    root.append(h('a', { class: 'skip', href: '#main' }, t('page.skip', lang)), header, toc, main, footer);
    this.renderSections(main);
    if (refocus) refocus();
  }

  /**
   * The served page's HTML holds its first screen, prerendered at build time in each language with
   * the default inputs (web/prerender.mjs), which the first render replaces. The reader's (its
   * language; and no inputs in the link: the boot script marks <html data-prerender="stale">
   * otherwise, which hides it) has its calculators kept, with what the reader may already have
   * typed into them (element.js carries that over), and their plain ids (the copies in other
   * languages carry theirs with a suffix); the others are dropped (prerendered.js).
   */
  adoptPrerender() {
    const root = this.root;
    if (!root.hasAttribute('data-prerendered')) return;
    const html = document.documentElement;
    const screen = readerScreen(this.lang);
    if (screen && html.getAttribute('data-prerender') !== 'stale') {
      for (const el of screen.querySelectorAll('roofline-calculator[kind]')) {
        const kind = el.getAttribute('kind');
        const id = `calc-${kind}`;
        if (!this.calcs[kind] && el.id.startsWith(id)) {
          el.id = id;
          this.calcs[kind] = el;
        }
      }
    }
    root.removeAttribute('data-prerendered');
    html.removeAttribute('data-prerender');
    html.removeAttribute('data-screen');
  }

  /**
   * The sections, in order: the first ones (the top of the page) at once, the rest one slice of
   * idle time after another, so the first calculator does not wait for the glossary. A link to a
   * later part of the page (#anchor), printing or find-in-page after the first idle moments all
   * see the whole page: an anchor or printing renders the rest at once. #lab gets
   * data-rendered="all" when every section is in the document.
   */
  renderSections(main) {
    const gen = (this.generation = (this.generation || 0) + 1);
    let next = 0;
    // the calculators of the first sections render at once too, not when an observer next reports
    // (a section counts as drawn once it is: one that throws is not skipped by the next call)
    const one = () => {
      main.append(this.section(SECTIONS[next], next < EAGER_SECTIONS));
      next += 1;
    };
    const finish = () => {
      if (gen !== this.generation || this.root.dataset.rendered === 'all') return;
      while (next < SECTIONS.length) one();
      this.root.dataset.rendered = 'all';
    };
    this.root.dataset.rendered = 'top';
    // the rest of the page, once its later parts (more.js) and their texts are here; before they
    // are (the first moments of the served page), printing shows the first sections only
    this.finishSections = () => {
      if (haveMoreIn(this.lang)) finish();
    };
    while (next < EAGER_SECTIONS) one();
    // a link to a part of the page, or a language switch (the reader may be anywhere on the page
    // and stays there): the rest at once, as soon as it can be drawn
    if (location.hash.length > 1 || gen > 1) {
      this.whenMore(finish);
      return;
    }
    const idle = globalThis.requestIdleCallback || ((fn) => setTimeout(() => fn({ timeRemaining: () => 8 }), 16));
    const step = (deadline) => {
      if (gen !== this.generation || next >= SECTIONS.length) return;
      do one(); while (next < SECTIONS.length && deadline.timeRemaining() > 4);
      if (next < SECTIONS.length) idle(step, { timeout: 200 });
      else finish();
    };
    // the later parts are asked for once the first screen is painted, so as not to compete with it
    requestAnimationFrame(() => setTimeout(() => this.whenMore(() => idle(step, { timeout: 200 }))));
  }

  /** Runs fn once the page's later parts and their texts are here (at once where they are). */
  whenMore(fn) {
    const lang = this.lang;
    if (haveMoreIn(lang)) {
      fn();
      return;
    }
    loadMore(lang).then(fn).catch((e) => {
      console.error(e);
      this.moreFailed(lang);
    });
  }

  /** Says, once, under what the page shows, that the rest could not be loaded. */
  moreFailed(lang) {
    const main = this.root.querySelector('main');
    if (main && !main.querySelector('[data-more-failed]')) main.append(h('p', { class: 'form-error', role: 'alert', 'data-more-failed': '' }, t('page.moreFailed', lang)));
  }

  /** "Measure this device": the device calculator (kind-device.js), under the roofline's tables. */
  devicePanel(lang) {
    let calc = this.calcs.device;
    if (!calc) {
      calc = h('roofline-calculator', { kind: 'device', lang, 'url-state': true, 'link-terms': true, id: 'calc-device' });
      this.calcs.device = calc;
    } else {
      calc.setAttribute('lang', lang);
    }
    return h('div', { class: 'device-panel', id: 'measure-device' }, h('h3', {}, t('device.panel', lang)), calc);
  }

  section(sec, eager = false) {
    const lang = this.lang;
    const el = h('section', { id: sec.id, class: ['lesson-section', `section-${sec.id}`], 'aria-labelledby': `${sec.id}-h` });
    el.append(h('h2', { id: `${sec.id}-h` }, t(`section.${sec.id}`, lang)));
    const card = (id) => MORE.workedCard(this.rl, id, lang, MORE.kinds) || document.createTextNode('');
    if (sec.kind) {
      el.append(...paragraphs(this.p(`calc.${sec.kind}.intro`), 'intro'));
      // the lesson's tables and its sanity check come before the utilization calculator
      if (sec.kind === 'utilization') {
        el.append(MORE.lessonGpuTable(this.rl, lang), ...paragraphs(this.p('flops.growth')), MORE.prefixTable(this.rl, lang), card('sanity'));
      }
      let calc = this.calcs[sec.kind];
      if (!calc) {
        calc = h('roofline-calculator', { kind: sec.kind, lang, 'url-state': true, 'link-terms': true, id: `calc-${sec.kind}`, eager: eager ? '' : null });
        this.calcs[sec.kind] = calc;
      } else {
        calc.setAttribute('lang', lang);
      }
      el.append(calc);
      const tryText = this.p(`calc.${sec.kind}.try`);
      if (tryText) el.append(h('div', { class: 'try', role: 'note' }, h('h3', {}, t('page.try', lang)), ...paragraphs(tryText)));
      if (sec.kind === 'decode' || sec.kind === 'utilization') {
        const cav = this.p(`calc.${sec.kind}.caveat`);
        if (cav) el.append(h('p', { class: 'caveat' }, cav));
      }
      if (sec.kind === 'decode') el.append(this.stepLink(lang, true), ...paragraphs(this.p('calc.decode.english')), card('english'));
      if (sec.kind === 'byhand') {
        const { a, b } = MORE.purchases();
        // the lesson's program runs the purchases, then three shapes whose MACs are n × m × k
        el.append(...paragraphs(this.p('calc.byhand.tensor')), MORE.matmulListing(this.rl, lang, a, b, [[4, 8, 5], [1, 64, 10], [16, 16, 16]]));
      }
      if (sec.kind === 'roofline') {
        el.append(...paragraphs(this.p('calc.roofline.balance')), MORE.gpuTable(this.rl, lang), MORE.listingTable(this.rl, lang),
          MORE.rooflineListing(this.rl, lang), this.devicePanel(lang));
      }
      if (sec.kind === 'tile') el.append(card('conv'));
      if (sec.kind === 'quant') {
        el.append(...paragraphs(this.p('quant.fp32')), card('fp32'), card('int8Cap'), ...paragraphs(this.p('quant.sparsity')));
      }
      if (sec.kind === 'batching') el.append(MORE.usesPerWeightTable(this.rl, lang), card('c01Batch'));
      const take = this.p(`takeaway.${sec.kind}`);
      if (take) el.append(h('div', { class: 'takeaway', role: 'note' }, h('h3', {}, t('page.takeaway', lang)), ...paragraphs(take)));
    } else if (sec.diagram) {
      let d = this.diagrams[sec.diagram];
      if (!d) {
        d = MORE.createDiagram(sec.diagram, this.rl, lang);
        this.diagrams[sec.diagram] = d;
      } else {
        d.setLang(lang);
      }
      el.append(d.el);
      if (sec.diagram === 'limits') el.append(this.stepLink(lang, false));
    } else if (sec.practice) {
      el.append(...this.practice(sec.practice));
    } else if (sec.bench) {
      el.append(h('p', { class: 'intro' }, t('bench.intro', lang)));
      if (!this.bench) this.bench = new MORE.BenchOverlay(this.rl, lang);
      this.bench.setLang(lang);
      el.append(this.bench.el);
    } else if (sec.mistakes) {
      const ids = Object.keys(PROSE || {}).filter((k) => /^mistakes\.[^.]+\.title$/.test(k)).map((k) => k.split('.')[1]);
      if (!ids.length) el.append(h('p', { class: 'hint' }, t('page.pending', lang)));
      for (const id of ids) {
        el.append(h('details', { class: 'mistake' }, h('summary', {}, this.p(`mistakes.${id}.title`)), ...paragraphs(this.p(`mistakes.${id}.text`))));
      }
    } else if (sec.reallife) {
      el.append(...paragraphs(this.p('reallife.intro'), 'intro'));
      for (const [text, id] of [['c01', 'c01Day'], ['training', 'training'], ['c10', 'c10'], ['phone', 'phone'], ['games', 'games']]) {
        el.append(h('div', { class: 'case', 'data-case': text }, ...paragraphs(this.p(`reallife.${text}`)), card(id)));
      }
    } else if (sec.glossary) {
      el.append(this.glossary());
    }
    if (sec.diagram === 'flow') el.append(MORE.intensityTable(this.rl, lang));
    return el;
  }

  /**
   * "Open this step": a link to the step calculator's section. Under the decode calculator it
   * carries that calculator's model, format, device, batch and context (its KV cache's tokens),
   * as the step calculator reads them from the address (?step.model=…#step).
   */
  stepLink(lang, fromDecode) {
    const a = h('a', { href: '#step', 'data-open-step': fromDecode ? 'decode' : 'limits' }, t('step.open', lang));
    if (fromDecode) {
      const follow = (e) => {
        const { kind, values, selects: sel } = e.detail || {};
        if (kind !== 'decode' || !sel || !values) return;
        const u = new URL(location.href);
        for (const k of [...u.searchParams.keys()]) if (k.startsWith('step.')) u.searchParams.delete(k);
        if (sel.model && sel.model !== 'custom' && sel.model !== 'config') u.searchParams.set('step.model', sel.model);
        if (sel.format && sel.format !== 'custom') u.searchParams.set('step.format', sel.format);
        if (sel.gpu && sel.gpu !== 'custom') u.searchParams.set('step.gpu', sel.gpu);
        if (Number.isSafeInteger(values.batch) && values.batch >= 1) u.searchParams.set('step.batch', String(values.batch));
        if (Number.isSafeInteger(values.tokens) && values.tokens >= 1) u.searchParams.set('step.context', String(values.tokens));
        u.hash = 'step';
        a.href = u.href;
      };
      document.addEventListener('roofline-change', follow);
    }
    return h('p', { class: 'step-link' }, a);
  }

  /** The exercises or the check questions: an intro, the progress, and one element each. */
  practice(type) {
    const lang = this.lang;
    const { practiceIds, clearProgress, solvedCount, CHANGE_EVENT, RESET_EVENT } = MORE;
    const pre = type === 'exercise' ? 'ex' : 'q';
    const out = [...paragraphs(t(`${pre}.intro`, lang), 'intro')];
    const progress = h('p', { class: 'progress', role: 'status' });
    this.practiceElements = this.practiceElements || {};
    const ids = practiceIds(this.rl, type);
    const update = () => {
      progress.textContent = t(`${pre}.progress`, this.lang, { done: solvedCount(type), total: ids.length });
    };
    update();
    if (!this.progressListeners) this.progressListeners = {};
    if (this.progressListeners[type]) {
      document.removeEventListener(CHANGE_EVENT, this.progressListeners[type]);
      document.removeEventListener(RESET_EVENT, this.progressListeners[type]);
    }
    this.progressListeners[type] = update;
    document.addEventListener(CHANGE_EVENT, update);
    document.addEventListener(RESET_EVENT, update);
    const bar = h('div', { class: 'practice-bar' }, progress);
    if (type === 'exercise') {
      // "start over" asks first, in place, saying what it would erase; "keep" has the focus
      const status = h('span', { class: 'reset-status', role: 'status' });
      const start = h('button', { type: 'button', class: 'secondary', 'data-reset': '' }, t('ex.action.reset', lang));
      const ask = h('span', { class: 'reset-confirm', role: 'group', hidden: true });
      const close = (focus) => {
        ask.hidden = true;
        start.hidden = false;
        if (focus) start.focus();
      };
      start.addEventListener('click', () => {
        const solved = solvedCount(type);
        if (!(solved > 0)) {
          clearProgress();
          status.textContent = t('ex.action.resetDone', this.lang);
          return;
        }
        const keep = h('button', { type: 'button', class: 'secondary', 'data-reset-keep': '', onclick: () => close(true) }, t('ex.action.resetKeep', this.lang));
        const erase = h('button', {
          type: 'button', class: 'danger', 'data-reset-confirm': '',
          onclick: () => {
            clearProgress();
            close(true);
            status.textContent = t('ex.action.resetDone', this.lang);
          },
        }, t('ex.action.resetConfirm', this.lang));
        ask.replaceChildren(h('span', {}, t('ex.action.resetAsk', this.lang, { solved })), ' ', erase, ' ', keep);
        ask.hidden = false;
        start.hidden = true;
        status.textContent = '';
        keep.focus();
      });
      bar.append(start, ask, status);
    }
    out.push(bar);
    const list = h('div', { class: 'practice-list' });
    for (const id of ids) {
      const key = `${type}.${id}`;
      let el = this.practiceElements[key];
      if (!el) {
        el = h('roofline-calculator', { kind: type, [type]: String(id), lang, id: `${type}-${id}` });
        this.practiceElements[key] = el;
      } else {
        el.setAttribute('lang', lang);
      }
      list.append(el);
    }
    out.push(list);
    return out;
  }

  glossary() {
    const lang = this.lang;
    const ids = glossaryIds();
    const list = h('div', { class: 'cards' });
    if (!ids.length) list.append(h('p', { class: 'hint' }, t('page.pending', lang)));
    for (const id of ids) {
      let c;
      try {
        c = glossaryCard(this.rl, id, lang);
      } catch (e) {
        console.error(e);
        continue;
      }
      if (!c) continue;
      const card = h('article', { class: 'card', id: `glossary-${id}`, 'aria-labelledby': `glossary-${id}-h`, tabindex: '-1' },
        h('h3', { id: `glossary-${id}-h` }, c.term, c.original && c.original !== c.term ? h('span', { class: 'original', lang: 'en' }, ` · ${c.original}`) : null),
        h('p', { class: 'definition' }, h('span', { class: 'def-flag' }, t('glossary.definition', lang)), ' ', c.short));
      const more = h('details', { class: 'more' }, h('summary', {}, t('glossary.more', lang)), ...paragraphs(c.more));
      if (c.analogy) more.append(h('p', { class: 'analogy' }, h('strong', {}, t('glossary.analogy', lang)), ' ', c.analogy));
      card.append(more);
      if (c.example) card.append(h('p', { class: 'example' }, h('strong', {}, t('glossary.example', lang)), ' ', c.example));
      list.append(card);
    }
    return list;
  }
}

/**
 * Where the focus is inside the page before a render takes the page apart: a function that puts it
 * back (a kept calculator's control, with the caret, or the language button or link drawn in its
 * place), or null.
 */
function keepFocus(root) {
  const a = document.activeElement;
  if (!a || a === document.body || !root.contains(a)) return null;
  if (a.localName === 'roofline-calculator') {
    const inner = a.shadowRoot && a.shadowRoot.activeElement;
    const range = inner && typeof inner.selectionStart === 'number' ? [inner.selectionStart, inner.selectionEnd] : null;
    return () => {
      if (!a.isConnected) return;
      const target = inner && inner.isConnected ? inner : a;
      target.focus();
      if (range && target === inner) inner.setSelectionRange(...range);
    };
  }
  // a language button, or a link: the one drawn in its place
  const back = focusReturn(a);
  return back && (() => back(root));
}

/** Whether the page has built every section and every calculator (nothing above a target will grow). */
function pageBuilt() {
  const lab = document.getElementById('lab');
  if (lab && lab.dataset.rendered !== 'all') return false;
  for (const el of document.querySelectorAll('roofline-calculator')) {
    if (el.hasAttribute('data-pending') || el.hasAttribute('data-loading')) return false;
  }
  return true;
}

/**
 * Scrolls to the element #anchor names, and keeps it there while the page above it settles
 * (sections skipped by content-visibility get their real height, calculators are built), until
 * the page is built and the target has not moved for a few frames, or the reader scrolls
 * themselves. However slow the machine, the target ends at the top: what ends the pin is the page
 * being built, not a number of frames (a cap of a minute keeps a page that never settles free).
 */
function scrollToAnchor() {
  const target = document.getElementById(decodeURIComponent(location.hash.slice(1)));
  if (target) pinInView(target);
}

/** Scrolls `target` into view ('start': its top at the viewport's; 'center') and keeps it there while the page settles. */
function pinInView(target, block = 'start') {
  target.scrollIntoView({ block });
  let stable = 0;
  let done = false;
  const until = Date.now() + 60000;
  let top = target.getBoundingClientRect().top;
  const events = ['wheel', 'touchstart', 'keydown', 'mousedown'];
  const stop = () => {
    done = true;
    for (const e of events) removeEventListener(e, stop);
  };
  for (const e of events) addEventListener(e, stop, { once: true, passive: true });
  const check = () => {
    if (done) return;
    if (Date.now() > until) {
      stop();
      return;
    }
    const now = target.getBoundingClientRect().top;
    if (Math.abs(now - top) > 1) {
      target.scrollIntoView({ block });
      top = target.getBoundingClientRect().top;
      stable = 0;
    } else if ((stable += 1) >= 10 && pageBuilt()) {
      stop();
      return;
    }
    requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
}

/** The term `back` names (a calculator's id, its tip's index there, a term id), opened, in the middle of the screen and focused. */
function returnToTerm(back) {
  const host = document.getElementById(back.calc);
  // the same tip, or (the calculator drawn again in between) the first of its term
  const tips = host && host.shadowRoot ? [...host.shadowRoot.querySelectorAll('details.term-tip')] : [];
  const tip = tips[back.index] && tips[back.index].dataset.term === back.term ? tips[back.index] : tips.find((x) => x.dataset.term === back.term);
  for (const el of document.querySelectorAll('.glossary-back')) el.remove();
  if (!tip) {
    scrollToAnchor();
    return;
  }
  tip.open = true;
  const summary = tip.querySelector('summary');
  pinInView(summary, 'center');
  summary.focus({ preventScroll: true });
}

/** On glossary card `cardId`, a button back to the calculator's term the reader came from. */
function offerReturn(cardId, back, lang) {
  for (const el of document.querySelectorAll('.glossary-back')) el.remove();
  const card = document.getElementById(cardId);
  if (!card) return;
  card.querySelector('h3').after(h('p', { class: 'glossary-back' },
    h('button', { type: 'button', onclick: () => history.back() }, t('glossary.back', lang, { term: back.name }))));
}

export async function startPage() {
  const root = document.getElementById('lab');
  if (!root) return;
  try {
    const [rl] = await Promise.all([loadModule(), ensureLang(detectLang())]);
    const page = new Page(root, rl);
    page.render();
    // an anchor followed: render whatever sections are missing at once, then keep the target at
    // the top while the sections above it, skipped until now (content-visibility), get their real
    // height (a Spanish section is taller than the height a skipped one is held at: a contents
    // link landed thousands of pixels early before)
    globalThis.addEventListener('hashchange', () => {
      // Back from a glossary card opened from a calculator's term: to that term, not the hash
      const land = history.state && history.state.termReturn ? () => returnToTerm(history.state.termReturn) : scrollToAnchor;
      if (root.dataset.rendered === 'all') {
        land();
        return;
      }
      page.whenMore(() => {
        page.finishSections();
        land();
      });
    });
    // a calculator's term opens its glossary card: the entry left remembers the term, and the
    // card offers the way back
    root.addEventListener('click', (e) => {
      const a = e.composedPath()[0];
      const link = a instanceof Element ? a.closest('a.term[href^="#glossary-"]') : null;
      const tip = link && link.closest('details.term-tip');
      const host = tip && tip.getRootNode().host;
      if (!host || !host.id || e.defaultPrevented) return;
      const index = [...host.shadowRoot.querySelectorAll('details.term-tip')].indexOf(tip);
      const back = { calc: host.id, index, term: tip.dataset.term, name: tip.dataset.termName };
      history.replaceState({ ...(history.state || {}), termReturn: back }, '');
      offerReturn(decodeURIComponent(link.hash.slice(1)), back, page.lang);
    });
    // a link to the anchor the address already has fires no hashchange: the same, by its click
    root.addEventListener('click', (e) => {
      const a = e.target instanceof Element ? e.target.closest('a[href^="#"]') : null;
      if (!a || e.defaultPrevented || a.hash !== location.hash || !a.hash) return;
      requestAnimationFrame(() => scrollToAnchor());
    });
    // (capture: before the calculators' own listener, which then renders the ones just added)
    globalThis.addEventListener('beforeprint', () => page.finishSections(), { capture: true });
    if (location.hash) page.whenMore(scrollToAnchor); // (after the sections: renderSections asked first)
  } catch (e) {
    console.error(e);
    const lang = detectLang();
    root.append(h('p', { class: 'form-error', role: 'alert' }, hasLang(lang) ? t('calc.loadFailed', lang) : 'Roofline Lab could not load.'));
  }
}

export { hasText };
