// A calculator's presets (part of Calc, web/src/calc.js): the element's model, gpu, format, dtype
// and values attributes, checked against the catalog and the fields, with a message naming what an
// author wrote wrong; and which select choices a link or a preset may make.
import { catalog } from './catalog.js';

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

/** Methods of Calc (Object.assign onto its prototype in calc.js): `this` is the calculator. */
export const presetMethods = {
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
  },

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
  },

  /** The preset problems as shown, in the reader's language, in the order of the attributes. */
  presetMessages() {
    const order = (pr) => PRESET_ATTRIBUTES.indexOf(pr.attr);
    return [...(this.presetProblems || [])].sort((a, b) => order(a) - order(b)).map((pr) => {
      const f = pr.field && this.def.fields.find((x) => x.id === pr.field);
      return this.tr(pr.id, pr.err ? { ...pr.vars, error: this.errorText(pr.err, f) } : pr.vars);
    });
  },

  /** True when a select offers a value (its options for the other selects' present choice). */
  offers(sel, value) {
    if (value === 'custom') return sel.custom !== false;
    return sel.options(this.rl, this.lang, this).some((o) => o.value === value);
  },

  /**
   * A select whose choices follow another's (a GPU's precisions) keeps its value where still
   * offered; else "custom" where it has one, else its default, else its first choice.
   */
  keepOffered(sel) {
    const now = this.state.selects[sel.id];
    if (this.offers(sel, now)) return;
    const def = this.defaultSelects[sel.id];
    this.state.selects[sel.id] = sel.custom !== false ? 'custom' : this.offers(sel, def) ? def : sel.options(this.rl, this.lang, this)[0].value;
  },

  /** The selects whose choices follow `sel`'s. */
  dependents(sel) {
    return (this.def.selects || []).filter((other) => other !== sel && other.dependsOn === sel.id);
  },

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
  },
};
