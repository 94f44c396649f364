// How each of the page's languages writes numbers (lang.js declares them), from the runtime's Intl.
/* global ROOFLINE_BUILT, ROOFLINE_NUMBERS -- defined in every bundle by web/build.mjs */
import { LANGS, LOCALES } from './lang.js';

/**
 * How a locale writes numbers, as the runtime's Intl says (CLDR, nothing written by hand): its
 * grouping and decimal marks, what stands before and after a percentage's number ("%", or
 * "\u00a0%" in de-DE), and Intl's compact notation with 3 significant digits as
 * [the power of ten divided off, the word after the number] for each power from 10^3 to 10^14.
 */
export function numberData(locale) {
  const parts = new Intl.NumberFormat(locale).formatToParts(12345.6);
  const mark = (type) => parts.find((p) => p.type === type).value;
  const compactFormat = new Intl.NumberFormat(locale, { notation: 'compact', maximumSignificantDigits: 3 });
  const compact = [];
  for (let power = 3; power <= 14; power += 1) {
    const x = Number(`1.23e${power}`);
    const ps = compactFormat.formatToParts(x);
    const shown = Number(ps.map((p) => (p.type === 'integer' || p.type === 'fraction' ? p.value : p.type === 'decimal' ? '.' : '')).join(''));
    const word = ps.filter((p) => p.type === 'literal' || p.type === 'compact').map((p) => p.value).join('');
    compact.push([Math.round(Math.log10(x / shown)), word]);
  }
  // a percentage: what comes before its first digit and after its last
  const pp = new Intl.NumberFormat(locale, { style: 'percent' }).formatToParts(0.5);
  const digit = (p) => p.type === 'integer' || p.type === 'fraction' || p.type === 'decimal' || p.type === 'group';
  const first = pp.findIndex(digit);
  const last = pp.length - 1 - [...pp].reverse().findIndex(digit);
  const text = (ps) => ps.map((p) => p.value).join('');
  return { group: mark('group'), decimal: mark('decimal'), percent: [text(pp.slice(0, first)), text(pp.slice(last + 1))], compact };
}

/**
 * Each language's numberData: in the page, what the build read from Intl (the locale's number
 * data costs 10–40 ms at its first use in a page, right on the way to the first result); in
 * Node (the build itself, the tests), read here.
 */
export const NUMBERS = typeof ROOFLINE_BUILT === 'boolean' ? ROOFLINE_NUMBERS
  : Object.fromEntries(LANGS.map((l) => [l, numberData(LOCALES[l])]));
