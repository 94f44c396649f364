// A calculator's fields (part of Calc, web/src/calc.js): each one's text box and slider, what the
// reader typed read in their language (kept as typed), a number filled in by a select or a link
// (shown as the results show numbers, computed with exactly), and the values compute() gets.
import { h, nextId, setText } from './dom.js';
import { hasText } from './i18n.js';
import { fmtInput, fmtNumber, fmtShown } from './format.js';
import { parseNumber, ambiguousReading } from './parse.js';
import { toBase, fromBase } from './units.js';

/** Methods of Calc (Object.assign onto its prototype in calc.js): `this` is the calculator. */
export const fieldMethods = {
  /**
   * A field's unit label: a string, or a function of the calculator where the unit follows a
   * select (a peak is in TFLOPS for a floating-point precision, in TOPS for an integer one).
   */
  unitLabel(f) {
    return typeof f.unitLabel === 'function' ? f.unitLabel(this) : f.unitLabel;
  },

  /** A field's hint id: `<kind>.field.<id>.hint`, or the field's own choice (`hint(calc)`). */
  fieldHintId(f) {
    return typeof f.hint === 'function' ? f.hint(this) : `${this.kind}.field.${f.id}.hint`;
  },

  /** Sets a field from a base-unit value (a model's weights, a GPU's bandwidth, a preset). */
  setField(id, baseValue) {
    const f = this.def.fields.find((x) => x.id === id);
    this.fill(id, fromBase(baseValue, f.unit || 'one'), baseValue);
  },

  /**
   * Fills field `id` with `v` (in the field's unit): it shows v as the results show numbers
   * (fmtShown: 5.73, not 5.73469), and the calculator computes with v itself until the text changes.
   */
  fill(id, v, base = toBase(v, this.def.fields.find((x) => x.id === id).unit || 'one')) {
    const text = fmtShown(v, this.lang);
    this.state.fields[id] = text;
    if (typeof v === 'number' && Number.isFinite(v) && parseNumber(text, this.lang) !== v) this.exact[id] = { text, value: v, base };
    else delete this.exact[id];
  },

  /** What field `id` was filled with ({ text, value, base }) while its text is as filled, else null. */
  filled(id) {
    const e = this.exact[id];
    return e && e.text === this.state.fields[id] ? e : null;
  },

  /** The number field `id` holds: the one it was filled with while its text is as filled, else its text read. */
  fieldNumber(id) {
    const e = this.filled(id);
    return e ? e.value : parseNumber(this.state.fields[id], this.lang);
  },

  syncFields() {
    for (const f of this.def.fields) {
      const els = this.fieldEls[f.id];
      if (!els) continue;
      if (els.input.value !== this.state.fields[f.id]) els.input.value = this.state.fields[f.id];
      this.syncSlider(f);
    }
  },

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
        type: 'range', min: 0, max: this.sliderPositions(f), step: 1, class: 'slider', 'aria-label': this.tr(`${k}.field.${f.id}`),
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
  },

  /** Says how the field's number was read where its text reads two ways ("read as 5,000"). */
  showReading(f) {
    const els = this.fieldEls[f.id];
    if (!els || !els.reading) return;
    const v = ambiguousReading(this.state.fields[f.id], this.lang);
    setText(els.reading, v === null ? '' : this.tr('calc.readAs', { value: fmtNumber(v, this.lang, 12) }));
  },

  // Slider position ↔ value: a display mapping (linear or logarithmic track), not lesson math.
  /** A slider's reach now: `max` may follow the other inputs (a function of the calculator: the
   * step calculator's context runs to the chosen model's limit). */
  sliderRange(f) {
    const { min, log } = f.slider;
    const max = typeof f.slider.max === 'function' ? f.slider.max(this) : f.slider.max;
    return { min, max: Math.max(max, min), log };
  },

  /**
   * How many steps a slider's track has: 1000 (a smooth drag), or the field's own `positions`
   * where each key press should move one value (γ from 1 to 16: 15 steps, one per draft token).
   */
  sliderPositions(f) {
    return f.slider.positions || 1000;
  },

  sliderToValue(f, pos) {
    const { min, max, log } = this.sliderRange(f);
    const n = this.sliderPositions(f);
    let v = log ? 10 ** (Math.log10(min) + (pos / n) * (Math.log10(max) - Math.log10(min))) : min + (pos / n) * (max - min);
    if (f.int) v = Math.round(v);
    else v = Number(v.toPrecision(3));
    return v;
  },

  syncSlider(f) {
    const els = this.fieldEls && this.fieldEls[f.id];
    if (!els || !els.slider) return;
    const v = this.fieldNumber(f.id);
    if (typeof v !== 'number' || !Number.isFinite(v)) return;
    const { min, max, log } = this.sliderRange(f);
    const c = Math.min(Math.max(v, min), max);
    const pos = log ? (Math.log10(c) - Math.log10(min)) / (Math.log10(max) - Math.log10(min)) : (c - min) / (max - min);
    // written only where they change: a sync of every field (a select filling one) moves no other slider
    const value = String(Math.round(pos * this.sliderPositions(f)));
    if (els.slider.value !== value) els.slider.value = value;
    const unit = this.unitLabel(f);
    const text = this.state.fields[f.id] + (unit ? ` ${unit}` : '');
    if (els.slider.getAttribute('aria-valuetext') !== text) els.slider.setAttribute('aria-valuetext', text);
  },

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
  },
};
