// The frame every calculator shares: labeled fields (text + optional slider), preset selects,
// the worked-arithmetic table ("the arithmetic, with your numbers"), inline errors translated by
// the module's error code and field, an aria-live summary, URL state and a copy-link button.
// A calculator kind (kind-*.js) only declares its fields and calls the module in compute(). The
// frame's URL state, presets and fields are in calc-url.js, calc-presets.js and calc-fields.js.
import { h, nextId, clear, setText, buildVirtual } from './dom.js';
import { t, hasText, fillValues } from './i18n.js';
import { GLOSSARY } from './data.js';
import { format, fmtInput, fmtNumber, DASH } from './format.js';
import { parseNumber } from './parse.js';
import { fromBase } from './units.js';
import { PRESET_ATTRIBUTES, presetMethods } from './calc-presets.js';
import { urlState } from './calc-url.js';
import { fieldMethods } from './calc-fields.js';

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

  /** A result row's label id: `<kind>.out.<id>`, or the row's own choice (`label(calc)`). */
  rowLabelId(r) {
    return typeof r.label === 'function' ? r.label(this) : `${this.kind}.out.${r.id}`;
  }

  /** A result row's hint id: `<kind>.out.<id>.hint`, or the row's own choice (`hint(calc)`). */
  rowHintId(r) {
    return typeof r.hint === 'function' ? r.hint(this) : `${this.kind}.out.${r.id}.hint`;
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

  /** fn()'s value, kept under `name` while `key` stays the same (a falsy one too where `keepFalsy`). */
  remember(name, key, fn, keepFalsy) {
    const e = this.memos.get(name);
    if (e && e.key === key) return e.value;
    const value = fn();
    if (value || keepFalsy) this.memos.set(name, { key, value });
    else this.memos.delete(name);
    return value;
  }

  // ---- computing -------------------------------------------------------------------------

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

// The frame's other parts, each in its own module: its URL state, its presets, its fields.
Object.assign(Calc.prototype, urlState, presetMethods, fieldMethods);
