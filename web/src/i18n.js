// UI strings keyed by id, then by language. An unknown id or a missing language throws: English
// is never used silently in place of a missing translation (tests/web/units.test.mjs checks all).
import { UI, PROSE, GLOSSARY, CATALOG, ALL_TEXTS } from './data.js';
import { LANGS, LOCALES, format } from './format.js';
import { detectLang } from './lang.js';
import { NUMBERS } from './numbers.js';
import { fromBase } from './units.js';
import { besideScript, injectScript } from './load.js';

/**
 * Adds one part of one language's texts to the tables. A pack is what build.mjs writes into
 * roofline-texts.<lang>.js (part "first": what the page's first screen shows) and
 * roofline-texts-more.<lang>.js (part "more": the rest) for the served page: { part, UI: {id: text},
 * CATALOG: {key: text}, PROSE: {id: {t, values?}}, GLOSSARY: {id: {t, values?}} }. A glossary card
 * of the first part holds only its term and short definition (for the first calculator's links);
 * the second part's full card replaces it.
 */
export function addTexts(lang, pack) {
  for (const [table, src] of [[UI, pack.UI], [CATALOG, pack.CATALOG]]) {
    for (const [id, text] of Object.entries(src || {})) (table[id] || (table[id] = {}))[lang] = text;
  }
  for (const [table, src] of [[PROSE, pack.PROSE], [GLOSSARY, pack.GLOSSARY]]) {
    for (const [id, e] of Object.entries(src || {})) {
      const entry = table[id] || (table[id] = {});
      entry[lang] = e.t;
      if (e.values) entry.values = e.values;
    }
  }
  (parts[lang] || (parts[lang] = {}))[pack.part || 'first'] = true;
}

// The parts of each language's texts that have arrived (served page); the bundles that carry
// every text (ALL_TEXTS) have both parts of every language from the start.
const parts = {};

/** Whether the texts of `lang` are here (always, in the bundles that carry every language). */
export function hasLang(lang) {
  const e = UI['page.title'];
  return Boolean(e && typeof e[lang] === 'string');
}

/** Whether the rest of `lang`'s texts (exercises, diagrams, tables, the other calculators) are here. */
export function hasMoreTexts(lang) {
  return ALL_TEXTS ? hasLang(lang) : Boolean(parts[lang] && parts[lang].more);
}

// The served page's texts: for each language, a file per part beside the page's script, which
// stores its pack under a global of that part (see web/build.mjs). The boot script may already
// have asked for a language's first part (globalThis.__rooflineTextsLoading).
const TEXT_FILES = { first: ['roofline-texts', '__rooflineTexts'], more: ['roofline-texts-more', '__rooflineTextsMore'] };
const textLoads = { first: {}, more: {} };

/**
 * One part ('first' or 'more') of a language's texts, loaded once (here already in the bundles
 * that carry every language); a failed load is tried again on the next call.
 */
export function loadTexts(lang, part) {
  if (part === 'more' ? hasMoreTexts(lang) : hasLang(lang)) return Promise.resolve();
  const loads = textLoads[part];
  if (!loads[lang]) {
    const [file, global] = TEXT_FILES[part];
    const name = `${file}.${lang}.js`;
    const pack = () => globalThis[global] && globalThis[global][lang];
    const load = () => injectScript(besideScript(name));
    const early = part === 'first' && globalThis.__rooflineTextsLoading && globalThis.__rooflineTextsLoading[lang];
    loads[lang] = (pack() ? Promise.resolve() : early ? early.catch(load) : load()).then(() => {
      if (!pack()) throw new Error(`${name} ran but provided no texts`);
      addTexts(lang, pack());
    });
    loads[lang].catch(() => {
      delete loads[lang];
    });
  }
  return loads[lang];
}

export function hasText(id) {
  return Object.prototype.hasOwnProperty.call(UI, id);
}

export function t(id, lang, vars) {
  const entry = UI[id];
  if (!entry) throw new Error(`unknown UI string id: ${id}`);
  const text = entry[lang];
  if (typeof text !== 'string') throw new Error(`UI string ${id} has no ${lang} text`);
  return vars ? fill(text, vars, lang) : text;
}

/**
 * Fills {name} placeholders, and plural choices {name|one=FLOP|other=FLOPs}: the word for the
 * plural category of the number that {name} is written as, in the language's rules
 * (Intl.PluralRules: "1 FLOP", "2 FLOPs", "1.0 FLOPs" in English; "0 viagem" in Portuguese).
 */
export function fill(text, vars, lang) {
  const value = (name) => (name in vars ? String(vars[name]) : undefined);
  return fillText(text, value, lang);
}

const PLURAL = /\{([A-Za-z0-9_.]+)((?:\|[a-z]+=[^|{}]*)+)\}/g;
const PLACEHOLDER = /\{([A-Za-z0-9_.]+)\}/g;

function fillText(text, value, lang) {
  return text
    .replace(PLURAL, (m, name, forms) => {
      const written = value(name);
      if (written === undefined) return m;
      const words = Object.fromEntries(forms.slice(1).split('|').map((f) => f.split('=')));
      return words[pluralCategory(written, lang)] ?? words.other ?? m;
    })
    .replace(PLACEHOLDER, (m, name) => value(name) ?? m);
}

const pluralRules = {};

/**
 * The plural category of a number as the page wrote it (grouping and decimal marks of its
 * language: "1,5" and "1.000" in Portuguese): its shown fraction digits count, as CLDR says.
 */
export function pluralCategory(written, lang) {
  const marks = NUMBERS[lang] || NUMBERS.en;
  const m = /-?[0-9][0-9.,]*/.exec(String(written).replace(/[\u00a0\u202f]/g, ''));
  if (!m) return 'other';
  const plain = m[0].split(marks.group).join('');
  const [int, frac = ''] = plain.split(marks.decimal);
  const n = Number(`${int}.${frac || '0'}`);
  if (!Number.isFinite(n)) return 'other';
  const key = `${lang}:${frac.length}`;
  if (!pluralRules[key]) {
    pluralRules[key] = typeof Intl !== 'undefined' && Intl.PluralRules
      ? new Intl.PluralRules(LOCALES[lang] || lang, { minimumFractionDigits: frac.length })
      : { select: (x) => (x === 1 && !frac.length ? 'one' : 'other') };
  }
  return pluralRules[key].select(n);
}

export function normalizeLang(l) {
  return LANGS.includes(l) ? l : null;
}

/** Reads a dotted path ('a.b.c') from a module result. */
function pick(obj, path) {
  return String(path).split('.').reduce((o, k) => (o == null ? undefined : o[k]), obj);
}

/**
 * Evaluates one placeholder spec through the module:
 *   {call, args?, field, unit?, format?}                a module function with its arguments
 *   {call, case, values?, args?, field, unit?, format?} the arguments a lesson case gives that
 *       function (rl.caseArgs), with `values` varying the case (another gpu, format, batch …)
 *       and `args` adding or replacing arguments
 *   {call, select: {id: …}, field, unit?, format?}      one item of a list call such as gpus
 * `field` is a dotted path into the result ('c.0.1', 'peakFlopsPerSecond.fp16'); every result is
 * an object, so it is required. An argument may itself be a spec (without unit or format): its
 * value is passed on, so a text can chain calls instead of typing a computed number. `unit`
 * (tflops, gbps, gb, billion: src/units.js) shows the value in that unit, for texts that name
 * the unit themselves ("the T4 advertises {int8} TOPS"); `format` is one of format.js's kinds.
 */
export function valueOf(rl, spec, lang) {
  const v = rawValue(rl, spec);
  return spec.format ? format(v, spec.format, lang) : String(v);
}

const isSpec = (x) => x !== null && typeof x === 'object' && !Array.isArray(x) && typeof x.call === 'string';
// a spec's arguments are JSON (they come from web/i18n): a JSON copy is exact, and runs in browsers
// older than structuredClone (Chrome 98, Safari 15.4)
const copy = (x) => (x === undefined ? x : JSON.parse(JSON.stringify(x)));

function rawValue(rl, spec) {
  const fn = rl[spec.call];
  if (typeof fn !== 'function') throw new Error(`module has no function ${spec.call}`);
  if (spec.field === null || spec.field === undefined || spec.field === '') {
    throw new Error(`a value from ${spec.call} needs a field`);
  }
  let args;
  if (spec.args !== undefined) {
    args = {};
    for (const [k, a] of Object.entries(spec.args)) args[k] = isSpec(a) ? rawValue(rl, a) : copy(a);
  }
  if (spec.case !== undefined) {
    const ask = { id: spec.case, function: spec.call };
    if (spec.values !== undefined) ask.values = copy(spec.values);
    args = { ...rl.caseArgs(ask), ...(args || {}) };
  } else if (spec.values !== undefined) {
    throw new Error(`values vary a lesson case; the value from ${spec.call} names none`);
  }
  let r = fn.call(rl, args);
  if (spec.select) {
    const want = spec.select;
    r = (r || []).find((item) => Object.entries(want).every(([k, x]) => item[k] === x));
    if (!r) throw new Error(`${spec.call} has no item ${JSON.stringify(want)}`);
  }
  let v = pick(r, spec.field);
  if (v === undefined) throw new Error(`${spec.call} gives no ${spec.field}`);
  if (spec.unit) v = fromBase(v, spec.unit);
  return v;
}

/** Fills {name} placeholders of a prose or glossary text with module values. */
export function fillValues(rl, text, values, lang) {
  if (!values || !text) return text;
  const done = {};
  return fillText(text, (name) => {
    if (name in done) return done[name];
    const spec = values[name];
    if (!spec) return undefined;
    try {
      done[name] = valueOf(rl, spec, lang);
    } catch (e) {
      console.error(`value ${name}:`, e);
      done[name] = '—';
    }
    return done[name];
  }, lang);
}

export function proseText(rl, id, lang) {
  const entry = PROSE[id];
  if (!entry) return null;
  const text = entry[lang];
  if (typeof text !== 'string') throw new Error(`prose ${id} has no ${lang} text`);
  return fillValues(rl, text, entry.values, lang);
}

export function hasProse(id) {
  return Boolean(PROSE && PROSE[id]);
}

export function glossaryIds() {
  return Object.keys(GLOSSARY || {});
}

export function glossaryCard(rl, id, lang) {
  const entry = GLOSSARY && GLOSSARY[id];
  if (!entry) return null;
  const c = entry[lang];
  if (!c) throw new Error(`glossary ${id} has no ${lang} card`);
  const f = (s) => (s ? fillValues(rl, s, entry.values, lang) : s);
  return {
    id, term: c.term, original: c.original, short: f(c.short), more: f(c.more),
    analogy: f(c.analogy), example: f(c.example),
  };
}

/**
 * A catalog entry's name in the reader's language: kind is gpu, model, stage (id
 * "model.stage"), format or case, and id the core's id. Throws on an unknown id or language:
 * the page never shows the core's English name in place of a missing translation.
 */
export function catalogName(kind, id, lang) {
  return catalogText(`${kind}.${id}`, lang);
}

/** Where a catalog entry's figures come from, in the reader's language (same kinds as catalogName). */
export function catalogSource(kind, id, lang) {
  return catalogText(`source.${kind}.${id}`, lang);
}

function catalogText(key, lang) {
  const entry = CATALOG && Object.prototype.hasOwnProperty.call(CATALOG, key) ? CATALOG[key] : null;
  if (!entry) throw new Error(`the catalog's texts have no ${key}`);
  const text = entry[lang];
  if (typeof text !== 'string') throw new Error(`the catalog's text ${key} has no ${lang} text`);
  return text;
}

export { detectLang };
