// Reading what the reader typed. The text is never changed; it is read as a number when it
// looks like one (in the page's language), and otherwise handed to the module as it is, so the
// module's own validation (RooflineError codes) decides what is wrong with it.

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;
const SPECIAL = { nan: NaN, infinity: Infinity, '+infinity': Infinity, '-infinity': -Infinity, '∞': Infinity };

/**
 * parseNumber('1,500', 'en') → 1500; parseNumber('12,5', 'pt') → 12.5;
 * parseNumber('', …) → undefined (missing); parseNumber('abc', …) → 'abc' (left for the module).
 */
export function parseNumber(text, lang) {
  const raw = String(text ?? '');
  let s = raw.trim().replace(/[\s\u00a0\u202f_]/g, '');
  if (s === '') return undefined;
  const special = SPECIAL[s.toLowerCase()];
  if (special !== undefined) return special;
  if (lang === 'pt') {
    if (/^[+-]?\d{1,3}(\.\d{3})+(,\d+)?$/.test(s)) s = s.replace(/\./g, '').replace(',', '.');
    else if (/^[+-]?\d*,\d+(e[+-]?\d+)?$/i.test(s)) s = s.replace(',', '.');
  } else if (/^[+-]?\d{1,3}(,\d{3})+(\.\d+)?$/.test(s)) {
    s = s.replace(/,/g, '');
  }
  if (NUMBER.test(s)) return Number(s);
  return raw;
}

/** Whether parseNumber's result is a finite number (for marking a field, not for judging it). */
export function isFiniteNumber(v) {
  return typeof v === 'number' && Number.isFinite(v);
}
