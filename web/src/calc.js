// The frame every calculator shares: labeled fields (text + optional slider), preset selects,
// the worked-arithmetic table ("the arithmetic, with your numbers"), inline errors translated by
// the module's error code and field, an aria-live summary, URL state and a copy-link button.
// A calculator kind (kinds/*.js) only declares its fields and calls the module in compute().
import { h, nextId, clear, setText, buildVirtual } from './dom.js';
import { t, hasText, fillValues } from './i18n.js';
import { GLOSSARY } from './data.js';
import { format, fmtInput, fmtNumber, fmtShown, DASH } from './format.js';
import { parseNumber, ambiguousReading } from './parse.js';
import { toBase, fromBase } from './units.js';
import { catalog } from './catalog.js';

const MAX_URL_TEXT = 64;

/**
 * The element's presets: attributes that name a select's choice (the catalog's list each is
 * checked against), and `values`, the fields as `name=value` pairs separated by spaces.
 */
export const PRESET_SELECTS = { model: 'models', gpu: 'gpus', format: 'formats', dtype: 'dtypes' };
export const PRESET_ATTRIBUTES = [...Object.keys(PRESET_SELECTS), 'values'];
/** An author's text as a message quotes it: one line, not too long. */
const quoted = (x) => {
  const one = String(x).replace(/\s+/g, ' ');
  return one.length > 40 ? `${one.slice(0, 39)}…` : one;
};

/** Two numbers alike to the six significant digits a field used to show (an older link's 5.73469). */
function sameNumber(x, y) {
  const num = (v) => typeof v === 'number' && Number.isFinite(v);
  return num(x) && num(y) && Number(x.toPrecision(6)) === Number(y.toPrecision(6));
}

/** A container narrow enough for the compact charts (a display choice). */
function isNarrow(width) {
  return width > 0 && width < 560;
}

export class Calc {
  constructor(def, rl, opts) {
    this.def = def;
    this.kind = def.kind;
    this.rl = rl;
    this.lang = opts.lang;
    this.host = opts.host;
    this.urlState = Boolean(opts.urlState);
    this.linkTerms = Boolean(opts.linkTerms);
    // the element's preset attributes ({model, gpu, format, dtype, values}: text, or null where absent)
    this.presets = opts.presets || null;
    this.memos = new Map(); // ctx.memo's values, by name
    // What a kind keeps of its own between computations (its chart boxes, the last value a
    // button offers, keys of what it drew): made by its render hooks, read and written by its
    // compute through ctx.parts, never as properties of the calculator.
    this.parts = {};
    // Defaults come from applying the kind's lesson case (the core's catalog), in base units.
    const preset = def.defaults ? def.defaults(rl) : { fields: {}, selects: {} };
    this.defaultBase = {};
    this.defaultSelects = {};
    for (const f of def.fields) {
      const base = f.id in preset.fields ? preset.fields[f.id] : f.def;
      if (typeof base !== 'number') throw new Error(`${def.kind}: no default for ${f.id}`);
      this.defaultBase[f.id] = base;
    }
    for (const sel of def.selects || []) {
      const v = sel.id in preset.selects ? preset.selects[sel.id] : sel.def;
      if (typeof v !== 'string') throw new Error(`${def.kind}: no default for ${sel.id}`);
      this.defaultSelects[sel.id] = v;
    }
    this.initState(new Set());
  }

  /**
   * The state the calculator opens with: its defaults, then the element's presets (where a
   * field of `values` is in `skip`, its value was refused: the field keeps what the rest gives),
   * then the page URL, which wins over the presets.
   */
  initState(skip) {
    const def = this.def;
    this.state = { fields: {}, selects: {}, extra: def.initExtra ? def.initExtra() : {} };
    // a field filled from a number: the text it shows, and the number computed with (fieldNumber)
    this.exact = {};
    for (const f of def.fields) this.fill(f.id, fromBase(this.defaultBase[f.id], f.unit || 'one'), this.defaultBase[f.id]);
    Object.assign(this.state.selects, this.defaultSelects);
    // links carry only what differs from these defaults (the kind's, not the presets: a link
    // copied from a calculator with presets names them, and means the same wherever opened)
    if (!this.defaultParams) this.defaultParams = new Map(this.urlParams());
    this.presetProblems = [];
    this.presetFields = new Map();
    const preset = Boolean(this.presets && PRESET_ATTRIBUTES.some((name) => this.presets[name] != null));
    if (preset) this.applyPresets(skip);
    // an author's presets hold unless the element keeps its state in the URL (url-state): two
    // preset calculators of one kind on a page keep their own cases whatever the page's address
    const params = preset && !this.urlState ? new URLSearchParams() : this.readUrl();
    // what the URL sets is its own, checked as it always is: no longer the preset's
    for (const id of [...this.presetFields.keys()]) if (params.has(this.key(id))) this.presetFields.delete(id);
  }

  tr(id, vars) {
    return t(id, this.lang, vars);
  }

  // ---- URL state -------------------------------------------------------------------------
  key(id) {
    return `${this.kind}.${id}`;
  }

  /** Reads the page URL's state (`?decode.batch=4`); returns its parameters. */
  readUrl() {
    const params = new URLSearchParams(globalThis.location ? location.search : '');
    this.readParams(params);
    if (this.def.readUrl) this.def.readUrl(this, params);
    return params;
  }

  /**
   * Takes the fields and selects that `params` names (keyed as in the URL: `decode.batch`), as a
   * link means them (presetsFromLink). A field's text is read as an English numeral (a link is
   * the same in every language) and shown in the reader's language; what is no number is kept as
   * it is, for the module to judge as it judges typed text. A select value it does not offer is
   * left out, and passed to `refused(sel, value)` where given.
   */
  readParams(params, refused) {
    const given = {}; // the fields the link carries: a number, or the text as it came
    for (const f of this.def.fields) {
      if (!params.has(this.key(f.id))) continue;
      const raw = params.get(this.key(f.id)).slice(0, MAX_URL_TEXT);
      const v = parseNumber(raw, 'en');
      given[f.id] = typeof v === 'number' && Number.isFinite(v) ? v : raw;
    }
    const chosen = {}; // the selects it names, with a value they offer
    for (const sel of this.def.selects || []) {
      if (!params.has(this.key(sel.id))) continue;
      const v = params.get(this.key(sel.id));
      // (checked in the form's order: a precision against the GPU the link names)
      if (this.offers(sel, v)) this.state.selects[sel.id] = chosen[sel.id] = v;
      else if (refused) refused(sel, v);
    }
    this.presetsFromLink(given, chosen);
    for (const [id, v] of Object.entries(given)) {
      if (typeof v === 'number') this.fill(id, v);
      else {
        this.state.fields[id] = v;
        delete this.exact[id];
      }
    }
    return given;
  }

  // ---- presets (the element's model, gpu, format, dtype and values attributes) -----------
  /**
   * Applies the element's presets as a link naming the same would (readParams): `model="…"` as
   * `?decode.model=…`, `values="batch=32"` as `?decode.batch=32`. The selects are those of that
   * id where the kind has one (a kind without a GPU select takes no `gpu`). What cannot be used
   * (an id the catalog lacks or the select does not offer, a field the kind lacks, a pair that
   * is no field=value) is left out and said in presetProblems; the rest applies. A field's value
   * is checked as typed text is, once the calculator has computed (checkPresetValues).
   */
  applyPresets(skip) {
    const p = this.presets;
    const params = new URLSearchParams();
    const problem = (attr, id, vars) => this.presetProblems.push({ attr, id, vars });
    const sels = this.def.selects || [];
    for (const [attr, list] of Object.entries(PRESET_SELECTS)) {
      const value = p[attr] == null ? '' : String(p[attr]).trim();
      if (!value || !sels.some((sel) => sel.id === attr)) continue;
      // a catalog id, or "custom" (the reader's own numbers): not another choice a select may
      // have beside the catalog's (decode's "your config.json")
      if (value !== 'custom' && !catalog(this.rl)[list].some((x) => x.id === value)) problem(attr, `calc.preset.${attr}.unknown`, { id: quoted(value) });
      else params.set(this.key(attr), value);
    }
    const text = p.values == null ? '' : String(p.values).trim();
    for (const pair of text ? text.split(/\s+/) : []) {
      const eq = pair.indexOf('=');
      const name = eq > 0 ? pair.slice(0, eq) : '';
      if (!name) {
        problem('values', 'calc.preset.values.malformed', { text: quoted(pair) });
        continue;
      }
      const f = this.def.fields.find((x) => x.id === name);
      if (!f) {
        problem('values', 'calc.preset.values.unknownField', { name: quoted(name), fields: this.def.fields.map((x) => x.id).join(', ') });
        continue;
      }
      const value = pair.slice(eq + 1);
      if (skip.has(name)) continue;
      params.set(this.key(name), value);
      this.presetFields.set(name, value);
    }
    this.readParams(params, (sel, value) => problem(sel.id, 'calc.preset.notOffered', { attr: sel.id, id: quoted(value) }));
  }

  /**
   * After the first computation: a field that `values` set and that shows an error (the same
   * check as typed text gets, from the module) is refused. The calculator opens again without
   * that value, and says so; returns whether it did.
   */
  checkPresetValues() {
    const bad = [...this.presetFields.keys()].filter((id) => this.lastErrors && this.lastErrors[id]);
    if (!bad.length) return false;
    const refused = bad.map((id) => ({
      attr: 'values',
      id: 'calc.preset.values.bad', vars: { name: id, value: quoted(this.presetFields.get(id)) }, err: this.lastErrors[id], field: id,
    }));
    const skip = new Set([...bad, ...(this.presetSkip || [])]);
    this.presetSkip = skip;
    this.initState(skip);
    this.presetProblems.push(...refused);
    return true;
  }

  /** The preset problems as shown, in the reader's language, in the order of the attributes. */
  presetMessages() {
    const order = (pr) => PRESET_ATTRIBUTES.indexOf(pr.attr);
    return [...(this.presetProblems || [])].sort((a, b) => order(a) - order(b)).map((pr) => {
      const f = pr.field && this.def.fields.find((x) => x.id === pr.field);
      return this.tr(pr.id, pr.err ? { ...pr.vars, error: this.errorText(pr.err, f) } : pr.vars);
    });
  }

  /** True when a select offers a value (its options for the other selects' present choice). */
  offers(sel, value) {
    if (value === 'custom') return sel.custom !== false;
    return sel.options(this.rl, this.lang, this).some((o) => o.value === value);
  }

  /**
   * A select whose choices follow another's (a GPU's precisions) keeps its value where still
   * offered; else "custom" where it has one, else its default, else its first choice.
   */
  keepOffered(sel) {
    const now = this.state.selects[sel.id];
    if (this.offers(sel, now)) return;
    const def = this.defaultSelects[sel.id];
    this.state.selects[sel.id] = sel.custom !== false ? 'custom' : this.offers(sel, def) ? def : sel.options(this.rl, this.lang, this)[0].value;
  }

  /** The selects whose choices follow `sel`'s. */
  dependents(sel) {
    return (this.def.selects || []).filter((other) => other !== sel && other.dependsOn === sel.id);
  }

  /**
   * A link means what choosing its selects and then typing its fields would: a select the link
   * names, or whose fields it carries, fills those fields first (a link naming only a GPU gets
   * that GPU's bandwidth), in the order of the form; a select whose field the link sets to another
   * value than the select gives becomes "custom", as typing that field makes it. The page's own
   * links name every select where any preset or its field differs from the default (shareUrl),
   * so they come back the same.
   */
  presetsFromLink(given, chosen) {
    const sels = this.def.selects || [];
    const touched = (sel) => sel.id in chosen || (sel.fields || []).some((id) => id in given);
    // before a GPU fills its fields, its precision is one it has
    for (const sel of sels) if (sel.dependsOn) this.keepOffered(sel);
    const applied = new Set();
    for (const sel of sels) {
      if (!touched(sel) && !applied.has(sel.dependsOn)) continue;
      // an earlier select's preset does not overrule what the link names (a model's own format)
      Object.assign(this.state.selects, chosen);
      if (this.state.selects[sel.id] === 'custom' || !sel.apply) continue;
      sel.apply(this, this.state.selects[sel.id]);
      applied.add(sel.id);
    }
    for (const sel of sels) {
      if (!applied.has(sel.id) || sel.custom === false) continue;
      const differs = (sel.fields || []).some((id) => id in given && !sameNumber(given[id], this.fieldNumber(id)));
      if (differs) this.state.selects[sel.id] = 'custom';
    }
  }

  urlParams() {
    const out = [];
    for (const f of this.def.fields) {
      const text = this.state.fields[f.id];
      const v = this.fieldNumber(f.id);
      out.push([this.key(f.id), typeof v === 'number' && Number.isFinite(v) ? String(v) : String(text ?? '')]);
    }
    for (const sel of this.def.selects || []) out.push([this.key(sel.id), this.state.selects[sel.id]]);
    if (this.def.writeUrl) out.push(...this.def.writeUrl(this));
    return out;
  }

  shareUrl() {
    const u = new URL(location.href);
    const params = this.urlParams();
    // where a preset or a field one fills differs from the default, every select is named: a
    // select left out would be read as what the selects before it give (a model's own format),
    // which need not be the default it was left out for
    const sels = this.def.selects || [];
    const selectKeys = new Set(sels.map((sel) => this.key(sel.id)));
    const presetKeys = new Set([...selectKeys, ...sels.flatMap((sel) => (sel.fields || []).map((id) => this.key(id)))]);
    const presetsMoved = params.some(([k, v]) => presetKeys.has(k) && this.defaultParams.get(k) !== v);
    for (const [k, v] of params) {
      if (this.defaultParams.get(k) === v && !(presetsMoved && selectKeys.has(k))) u.searchParams.delete(k);
      else u.searchParams.set(k, v);
    }
    if (!u.searchParams.has('lang')) u.searchParams.set('lang', this.lang);
    return u.href;
  }

  writeUrl() {
    if (!this.urlState || !globalThis.history) return;
    // once the reader pauses (250 ms without a change): a slider drag rewrites the history entry
    // once, at its end, not every quarter second (a replaceState took 3–5 ms in a profile)
    clearTimeout(this.urlTimer);
    this.urlTimer = setTimeout(() => {
      this.urlTimer = null;
      // a calculator taken out of the page meanwhile (a prerendered one replaced in another
      // language) no longer speaks for it
      if (this.host && !this.host.isConnected) return;
      // an address that already says it is left as it is (a change taken back)
      const href = this.shareUrl();
      if (href === location.href) return;
      try {
        history.replaceState(history.state, '', href);
      } catch (e) {
        /* some file:// contexts refuse replaceState; the copy-link button still works */
      }
    }, 250);
  }

  // ---- rendering -------------------------------------------------------------------------
  setLang(lang) {
    if (lang === this.lang) return;
    // each field's number and what it was filled with, read in the old language
    const before = this.def.fields.map((f) => [f.id, this.fieldNumber(f.id), this.filled(f.id)]);
    this.lang = lang;
    for (const [id, v, filled] of before) {
      if (typeof v !== 'number' || !Number.isFinite(v)) continue;
      if (filled) this.fill(id, v, filled.base);
      else this.state.fields[id] = fmtInput(v, lang);
    }
    this.render(this.root);
  }

  termLink(termId) {
    if (!termId || !GLOSSARY[termId]) return null;
    const entry = GLOSSARY[termId];
    const card = entry[this.lang];
    if (!card) return null;
    // a definition's figures ({t4}: the T4's peak) come from the module, as on its glossary card
    const short = fillValues(this.rl, card.short, entry.values, this.lang);
    // the definition opens in place (the reader stays at the calculator); on the page, its
    // glossary card is one link further (page.js brings the reader back here on Back)
    return h('details', { class: 'term-tip', 'data-term': termId, 'data-term-name': card.term },
      h('summary', {}, this.tr('calc.termLink', { term: card.term })),
      h('p', {}, short,
        this.linkTerms ? [' ', h('a', { class: 'term', href: `#glossary-${termId}` }, this.tr('calc.termCard'))] : null));
  }

  /**
   * Puts a row's glossary link after its label, or points it at another term: for a row whose
   * verdict depends on the inputs (the device calculator's decode row: memory-bound, or
   * compute-bound on a device whose ridge is under decode's intensity).
   */
  rowTerm(id, termId) {
    const row = this.rowEls[id];
    if (!row || row.termId === termId) return;
    const tl = this.termLink(termId);
    if (row.term) row.term.remove();
    if (tl) {
      if (!row.term) row.label.append(' ');
      row.label.append(tl);
    } else if (row.term && row.label.lastChild && row.label.lastChild.nodeType === 3 && row.label.lastChild.data === ' ') {
      row.label.lastChild.remove();
    }
    row.term = tl;
    row.termId = termId;
  }

  render(root) {
    this.root = root;
    clear(root);
    const d = this.def;
    const k = this.kind;
    this.ids = { title: nextId(`${k}-title`) };
    this.fieldEls = {};
    this.rowEls = {};
    this.selectEls = {};
    this.formError = h('p', { class: 'form-error', role: 'alert', hidden: true });
    const presetNotes = this.presetMessages();
    const presetEl = presetNotes.length
      ? h('div', { class: ['form-error', 'preset-error'], role: 'alert' }, ...presetNotes.map((m) => h('p', {}, m)))
      : null;
    this.summaryEl = h('p', { class: 'summary', 'aria-live': 'polite', 'aria-atomic': 'true' });

    const inputs = h('form', { class: 'inputs', novalidate: true, onsubmit: (e) => e.preventDefault() });
    for (const sel of d.selects || []) inputs.append(this.renderSelect(sel));
    for (const f of d.fields) inputs.append(this.renderField(f));
    if (d.renderInputsExtra) d.renderInputsExtra(this, inputs);

    const table = h('table', { class: 'work' },
      h('caption', {}, this.tr('calc.work')),
      h('thead', {}, h('tr', {},
        h('th', { scope: 'col' }, this.tr('calc.col.quantity')),
        h('th', { scope: 'col' }, this.tr('calc.col.how')),
        h('th', { scope: 'col' }, this.tr('calc.col.result')))));
    const tbody = h('tbody');
    for (const r of d.rows || []) {
      const how = h('td', { class: 'how' });
      const out = h('output', { class: 'value', 'data-row': r.id });
      const text = document.createTextNode(this.tr(this.rowLabelId(r)));
      const label = h('th', { scope: 'row' }, text);
      const hintId = this.rowHintId(r);
      const hint = hasText(hintId) ? h('span', { class: 'hint' }, this.tr(hintId)) : null;
      if (hint) label.append(hint);
      tbody.append(h('tr', { 'data-row': r.id }, label, how, h('td', { class: 'result' }, out)));
      this.rowEls[r.id] = { how, out, text, label, hint, term: null, termId: null };
      this.rowTerm(r.id, r.term);
    }
    table.append(tbody);

    const results = h('div', { class: 'results' }, this.summaryEl, this.formError);
    if (d.rows && d.rows.length) results.append(table);
    this.figureEl = h('div', { class: 'figure' });
    if (d.renderFigure) d.renderFigure(this, this.figureEl);

    const copyStatus = h('span', { class: 'copy-status', role: 'status' });
    const copyField = h('input', { class: 'copy-field', type: 'text', readonly: true, hidden: true, 'aria-label': this.tr('calc.copy.field') });
    const copyBtn = h('button', { type: 'button', class: 'copy', onclick: () => this.copyLink(copyStatus, copyField) }, this.tr('calc.copy'));

    root.append(h('section', { class: ['calc', `calc-${k}`], 'aria-labelledby': this.ids.title, 'data-kind': k },
      h('h3', { id: this.ids.title, class: 'calc-title' }, this.tr(`${k}.title`)),
      h('p', { class: 'calc-lede' }, this.tr(`${k}.lede`)),
      presetEl,
      h('div', { class: 'calc-body' }, inputs, results),
      this.figureEl,
      h('div', { class: 'calc-foot' }, copyBtn, copyStatus, copyField)));
    // Charts switch to a compact drawing in narrow containers (phones). The first guess comes
    // from the window's width, which needs no layout; the observer, called after layout with
    // the element's real width, corrects it (reading clientWidth here would lay out the whole
    // page once per calculator).
    if (this.compact === undefined) this.compact = isNarrow(globalThis.innerWidth || 0);
    if (this.host && !this.resizeObserver && typeof ResizeObserver === 'function') {
      this.resizeObserver = new ResizeObserver((entries) => {
        const box = entries[entries.length - 1].contentRect;
        const compact = isNarrow(box.width);
        if (compact !== this.compact) {
          this.compact = compact;
          this.update({ changed: false });
        }
      });
      this.resizeObserver.observe(this.host);
    }
    // a value the presets gave that the calculator refuses, as it would refuse it typed: drawn
    // again without it (once: the state then holds only values already computed without error);
    // the page hears of the calculator as it is drawn in the end
    const check = this.presetFields && this.presetFields.size && !this.presetsChecked;
    this.presetsChecked = true;
    this.update({ changed: false, announce: !check });
    if (!check) return;
    if (this.checkPresetValues()) this.render(root);
    else this.announce();
  }

  /**
   * A field's unit label: a string, or a function of the calculator where the unit follows a
   * select (a peak is in TFLOPS for a floating-point precision, in TOPS for an integer one).
   */
  unitLabel(f) {
    return typeof f.unitLabel === 'function' ? f.unitLabel(this) : f.unitLabel;
  }

  /** A result row's label id: `<kind>.out.<id>`, or the row's own choice (`label(calc)`). */
  rowLabelId(r) {
    return typeof r.label === 'function' ? r.label(this) : `${this.kind}.out.${r.id}`;
  }

  /** A result row's hint id: `<kind>.out.<id>.hint`, or the row's own choice (`hint(calc)`). */
  rowHintId(r) {
    return typeof r.hint === 'function' ? r.hint(this) : `${this.kind}.out.${r.id}.hint`;
  }

  /** A field's hint id: `<kind>.field.<id>.hint`, or the field's own choice (`hint(calc)`). */
  fieldHintId(f) {
    return typeof f.hint === 'function' ? f.hint(this) : `${this.kind}.field.${f.id}.hint`;
  }

  /** Unit labels, hints and row labels that follow the selects. */
  syncLabels() {
    for (const f of this.def.fields) {
      const els = this.fieldEls[f.id];
      if (!els) continue;
      if (typeof f.hint === 'function' && els.hint) els.hint.textContent = this.tr(this.fieldHintId(f));
      if (typeof f.unitLabel !== 'function' || !els.unit) continue;
      const unit = this.unitLabel(f);
      els.unit.textContent = unit;
      els.srUnit.textContent = ` (${unit})`;
      this.syncSlider(f);
    }
    for (const r of this.def.rows || []) {
      const els = this.rowEls[r.id];
      if (!els) continue;
      if (typeof r.label === 'function') els.text.nodeValue = this.tr(this.rowLabelId(r));
      if (typeof r.hint === 'function' && els.hint) els.hint.textContent = this.tr(this.rowHintId(r));
    }
  }

  renderSelect(sel) {
    const id = nextId(`${this.kind}-${sel.id}`);
    const el = h('select', { id, name: sel.id, onchange: () => this.onSelect(sel, el.value) });
    this.fillSelect(sel, el);
    this.selectEls[sel.id] = el;
    return h('div', { class: ['field', 'field-select'] },
      h('label', { for: id }, this.tr(`${this.kind}.select.${sel.id}`)), el);
  }

  fillSelect(sel, el) {
    clear(el);
    this.keepOffered(sel);
    if (sel.custom !== false) el.append(h('option', { value: 'custom' }, this.tr('calc.custom')));
    // options that name a group go under an <optgroup> of it (the devices by kind)
    let group = null;
    let parent = el;
    for (const o of sel.options(this.rl, this.lang, this)) {
      if (o.group && o.group !== group) {
        group = o.group;
        parent = h('optgroup', { label: this.tr(`calc.group.${group}`) });
        el.append(parent);
      }
      parent.append(h('option', { value: o.value }, o.label));
    }
    el.value = this.state.selects[sel.id];
  }

  onSelect(sel, value) {
    this.state.selects[sel.id] = value;
    // a precision the new GPU lacks is replaced before the GPU fills its peak at that precision
    for (const other of this.dependents(sel)) this.keepOffered(other);
    if (value !== 'custom' && sel.apply) sel.apply(this, value);
    for (const other of this.dependents(sel)) {
      this.fillSelect(other, this.selectEls[other.id]);
      if (other.apply && this.state.selects[other.id] !== 'custom') other.apply(this, this.state.selects[other.id]);
    }
    this.syncFields();
    this.update();
  }

  /** Sets a field from a base-unit value (a model's weights, a GPU's bandwidth, a preset). */
  setField(id, baseValue) {
    const f = this.def.fields.find((x) => x.id === id);
    this.fill(id, fromBase(baseValue, f.unit || 'one'), baseValue);
  }

  /**
   * Fills field `id` with `v` (in the field's unit): it shows v as the results show numbers
   * (fmtShown: 5.73, not 5.73469), and the calculator computes with v itself until the text changes.
   */
  fill(id, v, base = toBase(v, this.def.fields.find((x) => x.id === id).unit || 'one')) {
    const text = fmtShown(v, this.lang);
    this.state.fields[id] = text;
    if (typeof v === 'number' && Number.isFinite(v) && parseNumber(text, this.lang) !== v) this.exact[id] = { text, value: v, base };
    else delete this.exact[id];
  }

  /** What field `id` was filled with ({ text, value, base }) while its text is as filled, else null. */
  filled(id) {
    const e = this.exact[id];
    return e && e.text === this.state.fields[id] ? e : null;
  }

  /** The number field `id` holds: the one it was filled with while its text is as filled, else its text read. */
  fieldNumber(id) {
    const e = this.filled(id);
    return e ? e.value : parseNumber(this.state.fields[id], this.lang);
  }

  /** fn()'s value, kept under `name` while `key` stays the same (a falsy one too where `keepFalsy`). */
  remember(name, key, fn, keepFalsy) {
    const e = this.memos.get(name);
    if (e && e.key === key) return e.value;
    const value = fn();
    if (value || keepFalsy) this.memos.set(name, { key, value });
    else this.memos.delete(name);
    return value;
  }

  syncFields() {
    for (const f of this.def.fields) {
      const els = this.fieldEls[f.id];
      if (!els) continue;
      if (els.input.value !== this.state.fields[f.id]) els.input.value = this.state.fields[f.id];
      this.syncSlider(f);
    }
  }

  renderField(f) {
    const k = this.kind;
    const id = nextId(`${k}-${f.id}`);
    const errId = `${id}-error`;
    const hintId = `${id}-hint`;
    const label = h('label', { for: id }, this.tr(`${k}.field.${f.id}`));
    const unitText = this.unitLabel(f);
    const unit = unitText ? h('span', { class: 'unit', 'aria-hidden': 'true' }, unitText) : null;
    const srUnit = unitText ? h('span', { class: 'sr-only' }, ` (${unitText})`) : null;
    const input = h('input', {
      id, type: 'text', inputmode: f.int ? 'numeric' : 'decimal', autocomplete: 'off', spellcheck: 'false',
      name: f.id, 'aria-describedby': `${hintId} ${errId}`,
    });
    if (srUnit) label.append(srUnit);
    input.value = this.state.fields[f.id];
    input.addEventListener('input', () => {
      this.state.fields[f.id] = input.value;
      // typed: the number is what the text says, even where it reads as the filled one did
      delete this.exact[f.id];
      this.showReading(f);
      for (const sel of this.def.selects || []) {
        if (sel.fields && sel.fields.includes(f.id) && this.state.selects[sel.id] !== 'custom') {
          this.state.selects[sel.id] = 'custom';
          this.selectEls[sel.id].value = 'custom';
        }
      }
      this.syncSlider(f);
      this.update();
    });
    // Arrow keys step the number like a spin button (Shift: ten steps); the text stays editable.
    input.addEventListener('keydown', (e) => {
      if (e.key !== 'ArrowUp' && e.key !== 'ArrowDown') return;
      const v = parseNumber(input.value, this.lang);
      if (typeof v !== 'number' || !Number.isFinite(v)) return;
      e.preventDefault();
      const step = (f.step || 1) * (e.shiftKey ? 10 : 1) * (e.key === 'ArrowUp' ? 1 : -1);
      const decimals = String(f.step || 1).includes('.') ? String(f.step).split('.')[1].length : 0;
      const next = Math.max(Number((v + step).toFixed(decimals)), f.min ?? (f.int ? 1 : (f.step || 1)));
      this.state.fields[f.id] = fmtInput(next, this.lang);
      input.value = this.state.fields[f.id];
      input.dispatchEvent(new Event('input'));
    });
    const fieldHint = this.fieldHintId(f);
    const hint = h('span', { class: 'hint', id: hintId }, hasText(fieldHint) ? this.tr(fieldHint) : '');
    const error = h('span', { class: 'error', id: errId, 'aria-live': 'polite' });
    // how a number that reads two ways ("5.000") was read, while it is typed
    const reading = h('span', { class: 'hint reading', 'aria-live': 'polite' });
    let slider = null;
    if (f.slider) {
      slider = h('input', {
        type: 'range', min: 0, max: 1000, step: 1, class: 'slider', 'aria-label': this.tr(`${k}.field.${f.id}`),
      });
      slider.addEventListener('input', () => {
        const v = this.sliderToValue(f, Number(slider.value));
        this.state.fields[f.id] = fmtInput(v, this.lang);
        delete this.exact[f.id];
        input.value = this.state.fields[f.id];
        for (const sel of this.def.selects || []) {
          if (sel.fields && sel.fields.includes(f.id)) { this.state.selects[sel.id] = 'custom'; this.selectEls[sel.id].value = 'custom'; }
        }
        this.update();
      });
    }
    this.fieldEls[f.id] = { input, error, slider, unit, srUnit, hint, reading };
    this.syncSlider(f);
    this.showReading(f);
    const tl = this.termLink(f.term);
    return h('div', { class: 'field', 'data-field': f.id },
      h('div', { class: 'label-row' }, label, tl ? ' ' : null, tl),
      h('div', { class: 'input-row' }, input, unit),
      slider, hint, reading, error);
  }

  /** Says how the field's number was read where its text reads two ways ("read as 5,000"). */
  showReading(f) {
    const els = this.fieldEls[f.id];
    if (!els || !els.reading) return;
    const v = ambiguousReading(this.state.fields[f.id], this.lang);
    setText(els.reading, v === null ? '' : this.tr('calc.readAs', { value: fmtNumber(v, this.lang, 12) }));
  }

  // Slider position ↔ value: a display mapping (linear or logarithmic track), not lesson math.
  /** A slider's reach now: `max` may follow the other inputs (a function of the calculator: the
   * step calculator's context runs to the chosen model's limit). */
  sliderRange(f) {
    const { min, log } = f.slider;
    const max = typeof f.slider.max === 'function' ? f.slider.max(this) : f.slider.max;
    return { min, max: Math.max(max, min), log };
  }

  sliderToValue(f, pos) {
    const { min, max, log } = this.sliderRange(f);
    let v = log ? 10 ** (Math.log10(min) + (pos / 1000) * (Math.log10(max) - Math.log10(min))) : min + (pos / 1000) * (max - min);
    if (f.int) v = Math.round(v);
    else v = Number(v.toPrecision(3));
    return v;
  }

  syncSlider(f) {
    const els = this.fieldEls && this.fieldEls[f.id];
    if (!els || !els.slider) return;
    const v = this.fieldNumber(f.id);
    if (typeof v !== 'number' || !Number.isFinite(v)) return;
    const { min, max, log } = this.sliderRange(f);
    const c = Math.min(Math.max(v, min), max);
    const pos = log ? (Math.log10(c) - Math.log10(min)) / (Math.log10(max) - Math.log10(min)) : (c - min) / (max - min);
    // written only where they change: a sync of every field (a select filling one) moves no other slider
    const value = String(Math.round(pos * 1000));
    if (els.slider.value !== value) els.slider.value = value;
    const unit = this.unitLabel(f);
    const text = this.state.fields[f.id] + (unit ? ` ${unit}` : '');
    if (els.slider.getAttribute('aria-valuetext') !== text) els.slider.setAttribute('aria-valuetext', text);
  }

  async copyLink(status, field) {
    const url = this.shareUrl();
    try {
      await navigator.clipboard.writeText(url);
      status.textContent = this.tr('calc.copy.done');
      field.hidden = true;
    } catch (e) {
      field.hidden = false;
      field.value = url;
      field.select();
      status.textContent = this.tr('calc.copy.manual');
    }
  }

  // ---- computing -------------------------------------------------------------------------
  values() {
    const vals = {};
    this.localErrors = {};
    for (const f of this.def.fields) {
      const v = this.fieldNumber(f.id);
      if (typeof v === 'number') {
        const filled = this.filled(f.id);
        const base = filled ? filled.base : toBase(v, f.unit || 'one');
        // a numeral beyond double range (1e400) reads as Infinity: say "too large", as for 1e300
        const overflowed = !Number.isFinite(v) && !Number.isNaN(v) && !/inf|∞/i.test(String(this.state.fields[f.id]));
        if ((Number.isFinite(v) && !Number.isFinite(base)) || overflowed) this.localErrors[f.id] = 'too_large';
        vals[f.id] = base;
      } else {
        // an empty field is an error even where the module has a default for the argument
        if (v === undefined) this.localErrors[f.id] = 'missing_field';
        vals[f.id] = v;
      }
    }
    return vals;
  }

  /** Recomputes and shows the results; `changed: false` where the reader changed nothing (a
   * drawing, a resize), which leaves the address as the reader opened it; `announce: false`
   * keeps the roofline-change event back (announce() sends it later). */
  update({ changed = true, announce = true } = {}) {
    this.syncLabels();
    const vals = this.values();
    const errors = {};
    let formError = null;
    let failText = null;
    // The context a kind's compute() gets, every member named here (frozen: a kind keeps what
    // it must remember in ctx.parts). The calculator itself is ctx.calc, for the few helpers
    // shared with its render hooks.
    const calc = this;
    const ctx = Object.freeze({
      calc: this,
      rl: this.rl,
      lang: this.lang,
      kind: this.kind,
      def: this.def,
      host: this.host,
      root: this.root,
      state: this.state,
      parts: this.parts,
      rowEls: this.rowEls,
      selectEls: this.selectEls,
      /** Whether the calculator draws its charts narrow, read when a drawing runs (it follows resizes). */
      get compact() { return calc.compact; },
      v: vals,
      sel: this.state.selects,
      extra: this.state.extra,
      t: (id, vars) => this.tr(id, vars),
      tr: (id, vars) => this.tr(id, vars),
      key: (id) => this.key(id),
      rowTerm: (id, termId) => this.rowTerm(id, termId),
      setField: (id, baseValue) => this.setField(id, baseValue),
      syncFields: () => this.syncFields(),
      update: (opts) => this.update(opts),
      fmt: (value, kind) => (value === null || value === undefined ? DASH : format(value, kind, this.lang)),
      /** The reader's number as typed (friendly units), for substitution into a formula; with a
       *  unit kind other than 'number', followed by the field's unit label (12 TFLOPS). */
      n: (id, kind) => {
        const f = this.def.fields.find((x) => x.id === id);
        const v = parseNumber(this.state.fields[id], this.lang);
        if (typeof v !== 'number' || !Number.isFinite(v)) return '?';
        const txt = fmtNumber(v, this.lang, 6);
        const unit = this.unitLabel(f);
        return kind && kind !== 'number' && unit ? `${txt}\u00a0${unit}` : txt;
      },
      /**
       * Calls the module once. A field the reader's text could not give a number for is sent at
       * its default, so that the module checks every other argument; on a RooflineError each bad
       * argument the module lists (e.errors: all of them at once) goes next to its field, or
       * above the form when no field shows it (the results stay "—" while any field is wrong).
       */
      call: (name, args, map = {}) => {
        const fn = this.rl[name];
        if (typeof fn !== 'function') throw new Error(`module has no ${name}`);
        const a = { ...args };
        let failed = false;
        const fieldOf = (apiField) => map[apiField] || (this.def.fields.some((f) => f.id === apiField) ? apiField : null);
        for (const [apiField, fieldId] of Object.entries(map)) {
          if (this.localErrors[fieldId]) {
            if (!errors[fieldId]) errors[fieldId] = { code: this.localErrors[fieldId], field: apiField };
            failed = true;
            if (this.def.fields.some((x) => x.id === fieldId)) a[apiField] = this.defaultBase[fieldId];
          }
        }
        try {
          const r = fn.call(this.rl, a);
          return failed ? null : r;
        } catch (e) {
          if (!e || !e.code) {
            console.error(e);
            formError = formError || { code: 'internal_error', field: '' };
            return null;
          }
          for (const item of Array.isArray(e.errors) && e.errors.length ? e.errors : [e]) {
            const fieldId = fieldOf(item.field);
            if (fieldId && this.fieldEls[fieldId]) {
              if (!errors[fieldId]) errors[fieldId] = { code: item.code, field: item.field };
            } else if (!formError) {
              formError = { code: item.code, field: item.field };
            }
          }
          return null;
        }
      },
      row: (id, how, value, kind) => {
        const el = this.rowEls[id];
        if (!el) throw new Error(`no row ${id}`);
        const ok = value !== null && value !== undefined && !(typeof value === 'number' && !Number.isFinite(value));
        setText(el.out, ok ? (kind ? format(value, kind, this.lang) : String(value)) : DASH);
        setText(el.how, ok ? how : DASH);
      },
      summary: (text) => {
        setText(this.summaryEl, text || '');
      },
      /**
       * Runs `draw` before the next frame, once however many inputs came in meanwhile: the
       * results table answers each keystroke at once, the chart follows at the display's pace.
       */
      later: (draw) => {
        this.pendingDraw = draw;
        if (this.drawScheduled) return;
        this.drawScheduled = true;
        requestAnimationFrame(() => {
          this.drawScheduled = false;
          this.drawPending();
        });
      },
      /**
       * fn()'s value, computed again only when `key` (a string naming everything it depends on)
       * changes; one value kept per name. For what a change of the input being dragged leaves as
       * it was: a chart's curve over the other inputs, the catalog GPUs' ridges. fn calls the
       * module directly (a field's error is c.call's to report) and its value is only read.
       */
      memo: (name, key, fn) => this.remember(name, key, fn, true),
      /**
       * A call through ctx.call kept while `key` (what it reads) stays the same: a result is
       * kept, a failure is not (made again, its error goes to its field each time).
       */
      callOnce: (name, key, fn) => this.remember(name, key, fn, false),
      /** A message about the inputs as a whole, already in the reader's language. */
      fail: (text) => {
        failText = failText || text;
      },
    });
    try {
      this.def.compute(ctx);
    } catch (e) {
      console.error(e);
      formError = formError || { code: 'internal_error', field: '' };
    }
    for (const f of this.def.fields) {
      const els = this.fieldEls[f.id];
      const err = errors[f.id];
      if (err) {
        els.input.setAttribute('aria-invalid', 'true');
        setText(els.error, this.errorText(err, f));
      } else {
        els.input.removeAttribute('aria-invalid');
        setText(els.error, '');
      }
    }
    if (formError || failText) {
      this.formError.hidden = false;
      setText(this.formError, formError ? this.errorText(formError, null) : failText);
    } else {
      this.formError.hidden = true;
      setText(this.formError, '');
    }
    this.lastErrors = errors;
    if (changed) this.writeUrl();
    // plain data only (docs/embedding.md, "Events"): the inputs in base units, the selects' ids
    this.lastChange = { kind: this.kind, values: vals, selects: { ...this.state.selects }, ok: !formError && !failText && !Object.keys(errors).length };
    if (announce) this.announce();
  }

  /** Sends the roofline-change event of the last computation. */
  announce() {
    if (!this.host || !this.lastChange) return;
    this.host.dispatchEvent(new CustomEvent('roofline-change', { bubbles: true, composed: true, detail: this.lastChange }));
  }

  /** Draws what later() left to draw, if anything. */
  drawPending() {
    const d = this.pendingDraw;
    this.pendingDraw = null;
    if (!d) return;
    // a chart's data table the reader opened stays open across the redraw
    const open = this.root ? [...this.root.querySelectorAll('details.chart-data')].map((x) => x.open) : [];
    try {
      d();
    } catch (e) {
      console.error(e);
    } finally {
      buildVirtual(false); // a chart that failed between frameIn and showChart
    }
    if (open.some(Boolean)) {
      this.root.querySelectorAll('details.chart-data').forEach((x, i) => { if (open[i]) x.open = true; });
    }
  }

  errorText(err, f) {
    const code = hasText(`error.${err.code}`) ? err.code : 'generic';
    const field = f ? this.tr(`${this.kind}.field.${f.id}`) : (err.field && hasText(`${this.kind}.apiField.${err.field}`) ? this.tr(`${this.kind}.apiField.${err.field}`) : this.tr('calc.thisValue'));
    // a field whose range the kind knows says it (the step's context: up to the model's limit)
    const range = code === 'out_of_range' && f && f.range ? f.range(this) : null;
    if (range) return this.tr('error.out_of_range.between', { field, min: fmtNumber(range.min, this.lang, 6), max: fmtNumber(range.max, this.lang, 6), why: range.why || '' });
    return this.tr(`error.${code}`, { field });
  }
}
