// UI strings keyed by id, then by language. An unknown id or a missing language throws: English
// is never used silently in place of a missing translation (tests/web/i18n.test.mjs checks all).
import { UI, PROSE, GLOSSARY } from './data.js';
import { LANGS, format } from './format.js';

export function hasText(id) {
  return Object.prototype.hasOwnProperty.call(UI, id);
}

export function t(id, lang, vars) {
  const entry = UI[id];
  if (!entry) throw new Error(`unknown UI string id: ${id}`);
  const text = entry[lang];
  if (typeof text !== 'string') throw new Error(`UI string ${id} has no ${lang} text`);
  return vars ? fill(text, vars) : text;
}

export function fill(text, vars) {
  return text.replace(/\{([A-Za-z0-9_.]+)\}/g, (m, name) => (name in vars ? String(vars[name]) : m));
}

/** The language to start in: ?lang=, then the browser's languages, then English. */
export function detectLang(search = globalThis.location ? location.search : '') {
  const q = new URLSearchParams(search).get('lang');
  if (q && LANGS.includes(q)) return q;
  const prefs = (globalThis.navigator && (navigator.languages || [navigator.language])) || [];
  for (const p of prefs) {
    const base = String(p || '').toLowerCase().split('-')[0];
    if (LANGS.includes(base)) return base;
  }
  return 'en';
}

export function normalizeLang(l) {
  return LANGS.includes(l) ? l : null;
}

/** Reads a dotted path ('a.b.c') from a module result; null means the result itself. */
function pick(obj, path) {
  if (path === null || path === undefined || path === '') return obj;
  return String(path).split('.').reduce((o, k) => (o == null ? undefined : o[k]), obj);
}

/** Evaluates one placeholder spec {call, args, field, select?, format} through the module. */
export function valueOf(rl, spec, lang) {
  const fn = rl[spec.call];
  if (typeof fn !== 'function') throw new Error(`module has no function ${spec.call}`);
  let r = fn.call(rl, spec.args === undefined ? undefined : structuredClone(spec.args));
  if (spec.select) {
    const want = spec.select;
    r = (r || []).find((item) => Object.entries(want).every(([k, v]) => item[k] === v));
  }
  const v = pick(r, spec.field);
  return spec.format ? format(v, spec.format, lang) : String(v);
}

/** Fills {name} placeholders of a prose or glossary text with module values. */
export function fillValues(rl, text, values, lang) {
  if (!values || !text) return text;
  return text.replace(/\{([A-Za-z0-9_.]+)\}/g, (m, name) => {
    const spec = values[name];
    if (!spec) return m;
    try {
      return valueOf(rl, spec, lang);
    } catch (e) {
      console.error(`value ${name}:`, e);
      return '—';
    }
  });
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
