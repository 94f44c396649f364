// Number formatting per language with Intl.NumberFormat. Spanish follows the lesson's Mexican
// usage (es-MX: 1,500 and 0.126); Portuguese is Brazilian (pt-BR: 1.500 and 0,126).
// Formatting picks a display scale (a decimal prefix); it never computes a quantity.
import { fromBase } from './units.js';
import { LANGS, LOCALES } from './lang.js';

export const DASH = '—';
const NBSP = '\u00a0';

// Every Intl.NumberFormat the page uses, by language and name (fixed and significant digits
// named by their count), each made once on first use
// (making one is costly; a chart formats a hundred numbers per input change).
const OPTIONS = {
  whole: { maximumFractionDigits: 0 },
  plain: {},
  input: { useGrouping: false, maximumSignificantDigits: 6 },
  percentSmall: { style: 'percent', maximumSignificantDigits: 2 },
  percent: { style: 'percent', maximumFractionDigits: 1 },
  compact: { notation: 'compact', maximumSignificantDigits: 3 },
};
const cache = { en: {}, es: {}, pt: {} };
function nf(lang, name, options = OPTIONS[name]) {
  const forLang = cache[lang] || cache.en;
  return forLang[name] || (forLang[name] = new Intl.NumberFormat(LOCALES[lang] || LOCALES.en, options));
}

const ok = (x) => typeof x === 'number' && Number.isFinite(x);

/** 3 significant digits below 1,000; whole numbers with grouping above. */
export function fmtNumber(x, lang, sig = 3) {
  if (!ok(x)) return DASH;
  if (Math.abs(x) >= 1000) return nf(lang, 'whole').format(x);
  if (x === 0) return nf(lang, 'plain').format(0);
  return nf(lang, `sig${sig}`, { maximumSignificantDigits: sig }).format(x);
}

export function fmtInteger(x, lang) {
  if (!ok(x)) return DASH;
  return nf(lang, 'whole').format(x);
}

/** Fixed number of fraction digits, e.g. 0.066 for GFLOPs as the lesson shows them. */
export function fmtFixed(x, lang, digits) {
  if (!ok(x)) return DASH;
  return nf(lang, `fixed${digits}`, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(x);
}

/** A value for an input field: no grouping, the language's decimal mark, up to 6 significant digits. */
export function fmtInput(x, lang) {
  if (!ok(x)) return '';
  return nf(lang, 'input').format(x);
}

const PREFIXES = [
  [1e18, 'E'], [1e15, 'P'], [1e12, 'T'], [1e9, 'G'], [1e6, 'M'], [1e3, 'k'],
];

function prefixed(x, lang, unit, { min = 1e3 } = {}) {
  if (!ok(x)) return DASH;
  // choose the prefix after rounding to the digits shown, so 999.6 M shows as 1 G, not 1,000 M
  const a = Math.abs(Number(x.toPrecision(3)));
  for (const [scale, p] of PREFIXES) {
    if (a >= scale && scale >= min) return fmtNumber(x / scale, lang) + NBSP + p + unit;
  }
  return fmtNumber(x, lang) + NBSP + unit;
}

/** Seconds on a readable scale: 53.5 ms, 1.01 µs, 2.3 s. */
export function fmtSeconds(x, lang) {
  if (!ok(x)) return DASH;
  const a = Math.abs(Number(x.toPrecision(3)));
  if (a === 0) return fmtNumber(0, lang) + NBSP + 's';
  if (a >= 1) return fmtNumber(x, lang) + NBSP + 's';
  if (a >= 1e-3) return fmtNumber(x * 1e3, lang) + NBSP + 'ms';
  if (a >= 1e-6) return fmtNumber(x * 1e6, lang) + NBSP + 'µs';
  return fmtNumber(x * 1e9, lang) + NBSP + 'ns';
}

export function fmtPercent(fraction, lang) {
  if (!ok(fraction)) return DASH;
  const pct = Math.abs(fraction * 100);
  return nf(lang, pct !== 0 && pct < 0.1 ? 'percentSmall' : 'percent').format(fraction);
}

export function fmtRatio(x, lang) {
  if (!ok(x)) return DASH;
  return fmtNumber(x, lang, 2) + '×';
}

/**
 * format(value, kind, lang): kind is one of the prose/glossary formats (integer, number,
 * compact, flops, flopsPerSecond, opsPerSecond, bytes, bytesPerSecond, seconds, percent, ratio,
 * flopsPerByte, tflops, tops, gbps, gb) or a page format (macs, gflops).
 *
 * The lesson's notation: FLOPs, with a lower-case s, count work (GFLOPs per photo); FLOPS, with
 * a capital S for "per second", is a rate (a GPU's TFLOPS); an integer precision's rate is in
 * OPS (TOPS in INT8).
 */
export function format(value, kind, lang) {
  switch (kind) {
    case 'integer': return fmtInteger(value, lang);
    case 'number': return fmtNumber(value, lang);
    case 'compact':
      if (!ok(value)) return DASH;
      return nf(lang, 'compact').format(value);
    case 'flops': return prefixed(value, lang, 'FLOPs');
    case 'macs': return prefixed(value, lang, 'MACs');
    case 'flopsPerSecond': return prefixed(value, lang, 'FLOPS');
    case 'opsPerSecond': return prefixed(value, lang, 'OPS');
    case 'bytes': return prefixed(value, lang, 'B');
    case 'bytesPerSecond': return prefixed(value, lang, 'B/s');
    case 'seconds': return fmtSeconds(value, lang);
    case 'percent': return fmtPercent(value, lang);
    case 'ratio': return fmtRatio(value, lang);
    case 'flopsPerByte': return ok(value) ? fmtNumber(value, lang) + NBSP + 'FLOPs/B' : DASH;
    case 'tflops': return ok(value) ? fmtNumber(fromBase(value, 'tflops'), lang) + NBSP + 'TFLOPS' : DASH;
    case 'tops': return ok(value) ? fmtNumber(fromBase(value, 'tops'), lang) + NBSP + 'TOPS' : DASH;
    case 'gbps': return ok(value) ? fmtNumber(fromBase(value, 'gbps'), lang) + NBSP + 'GB/s' : DASH;
    case 'gb': return ok(value) ? fmtNumber(fromBase(value, 'gb'), lang) + NBSP + 'GB' : DASH;
    case 'gflops': return ok(value) ? fmtFixed(fromBase(value, 'billion'), lang, 3) : DASH;
    default: throw new Error(`unknown format ${kind}`);
  }
}

export { LANGS, LOCALES };
