// The reader's own model, from its config.json, for every calculator with a model select
// (decode, clocks, quant): the select's "your model (config.json)" choice, a textarea that also
// takes a dropped file, read by the core in the browser (nothing is sent anywhere; a link keeps
// the choice, not the text), its error naming the config's field in the reader's language, and
// what the core counted. Each kind says how the model fills its fields: def.fillFromConfig(c, m).
import { h, clear, setText } from './dom.js';
import { format as formatValue } from './format.js';
import { llmOptions } from './catalog.js';

/** The model select's value for the reader's own config.json. */
export const CONFIG = 'config';

/** The select's option for it (lesson models and the catalog come first). */
export function configOption(c) {
  return { value: CONFIG, label: c ? c.tr('calc.model.config') : CONFIG, group: 'mine' };
}

/**
 * A calculator's model select, with the reader's own config.json as its last choice: the
 * catalog's language models (or what `options` lists), `fields` the ones a model fills. Choosing
 * a model calls apply(c, id); choosing the config shows its box and fills the fields from it
 * (the kind's fillFromConfig); after(c), where given, runs after either. `custom: false` for a
 * select that never shows "custom" (the step calculator counts a model, not typed numbers).
 */
export function modelSelect({ fields, apply, after, options = llmOptions, custom = true }) {
  return {
    id: 'model',
    fields,
    ...(custom ? {} : { custom: false }),
    options: (rl, lang, c) => [...options(rl, lang), configOption(c)],
    apply: (c, v) => {
      showConfig(c, v === CONFIG);
      if (v === CONFIG) applyConfig(c);
      else apply(c, v);
      if (after) after(c);
    },
  };
}

/**
 * The chosen model as the core takes it: a catalog id, what modelFromConfig read from the
 * reader's config.json, or null (typed numbers, or a config not read yet).
 */
export function modelRef(c) {
  const m = (c.calc || c).state.selects.model;
  if (m === 'custom') return null;
  if (m === CONFIG) return configModel(c);
  return m;
}

/** The reader's config.json read by the core (cached by its text), or null while it has none or an error. */
export function configModel(c) {
  const calc = c.calc || c;
  const text = calc.state.extra.config;
  if (!text || !text.trim()) return null;
  if (calc.parts.configCache && calc.parts.configCache.text === text) return calc.parts.configCache.model;
  let m = null;
  let error = null;
  try {
    m = calc.rl.modelFromConfig({ config: text });
  } catch (e) {
    if (!e || !e.code) throw e;
    error = e;
  }
  calc.parts.configCache = { text, model: m, error };
  return m;
}

/** While "your model" is chosen without a readable config: every row "—" and a summary that asks for one. */
export function awaitingConfig(c) {
  if (c.state.selects.model !== CONFIG || configModel(c)) return false;
  for (const row of c.def.rows) c.row(row.id, null, null);
  c.summary(c.t('calc.config.needed'));
  return true;
}

/** The textarea for the reader's config.json, its errors and what the core read from it. */
export function renderConfig(c, form) {
  const id = `${c.host && c.host.id ? c.host.id : c.kind}-config`;
  c.parts.configArea = h('textarea', {
    id, 'data-model-config': '', rows: 6, spellcheck: 'false', autocomplete: 'off',
    'aria-describedby': `${id}-note ${id}-error`,
    oninput: () => { c.state.extra.config = c.parts.configArea.value; onConfig(c); },
    ondragover: (e) => e.preventDefault(),
    ondrop: (e) => {
      // a dropped config.json is read here, in the browser: nothing is sent anywhere
      const file = e.dataTransfer && e.dataTransfer.files && e.dataTransfer.files[0];
      if (!file) return;
      e.preventDefault();
      file.text().then((text) => {
        c.parts.configArea.value = text;
        c.state.extra.config = text;
        onConfig(c);
      });
    },
  });
  c.parts.configArea.value = c.state.extra.config || '';
  c.parts.configError = h('p', { id: `${id}-error`, class: 'config-error', role: 'alert', hidden: true });
  c.parts.configFigures = h('dl', { class: 'config-figures' });
  c.parts.configBox = h('div', { class: 'field config', 'data-config-box': '', hidden: c.state.selects.model !== CONFIG },
    h('label', { for: id }, c.tr('calc.config.label')),
    c.parts.configArea,
    h('p', { id: `${id}-note`, class: 'hint' }, c.tr('calc.config.note')),
    c.parts.configError, c.parts.configFigures);
  form.append(c.parts.configBox);
  showConfig(c, c.state.selects.model === CONFIG);
}

/** Shows or hides the box as the model select changes. */
export function showConfig(c, on) {
  const calc = c.calc || c;
  if (calc.parts.configBox) calc.parts.configBox.hidden = !on;
  if (on) showConfigResult(calc);
}

/** Fills the kind's fields from the reader's model, where it has one that reads. */
export function applyConfig(c) {
  const calc = c.calc || c;
  const m = configModel(calc);
  if (m && calc.def.fillFromConfig) calc.def.fillFromConfig(calc, m);
  return m;
}

/** After the text changed: read it, fill the fields from it, recompute. */
function onConfig(c) {
  showConfigResult(c);
  if (c.state.selects.model === CONFIG && applyConfig(c)) c.syncFields();
  c.update();
}

/** The config's error, naming its field in the reader's language, or the figures read from it. */
function showConfigResult(c) {
  if (!c.parts.configError) return;
  configModel(c);
  const cache = c.parts.configCache;
  const err = cache && cache.text === c.state.extra.config ? cache.error : null;
  c.parts.configError.hidden = !err;
  setText(c.parts.configError, err ? configErrorText(c, err) : '');
  clear(c.parts.configFigures);
  const m = cache && !err ? cache.model : null;
  if (!m) return;
  const gb = (x) => formatValue(x, 'gb', c.lang);
  const b = (x) => formatValue(x, 'bytes', c.lang);
  const count = (x) => formatValue(x, 'compact', c.lang);
  const items = [
    ['params', count(m.params)],
    ['active', count(m.activeParams)],
    ['resident', gb(m.residentBytes)],
    ['read', gb(m.bytesReadPerStep)],
    ['kv', b(m.kvBytesPerToken)],
  ];
  if (m.architecture.moe) {
    items.push(['experts', c.tr('calc.config.figure.expertsValue', { k: String(m.architecture.moe.expertsPerToken), e: String(m.architecture.moe.experts) })]);
  }
  for (const [key, value] of items) {
    c.parts.configFigures.append(h('dt', {}, c.tr(`calc.config.figure.${key}`)), h('dd', { 'data-config-figure': key }, value));
  }
}

function configErrorText(c, err) {
  const code = ['missing_field', 'not_a_number', 'not_integer', 'out_of_range', 'unknown_architecture', 'invalid_config'].includes(err.code) ? err.code : 'other';
  return c.tr(`calc.config.error.${code}`, { field: err.field });
}
