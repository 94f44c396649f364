// Number formatting per language, written as Intl.NumberFormat writes it. Spanish follows the
// lesson's Mexican usage (es-MX: 1,500 and 0.126); Portuguese is Brazilian (pt-BR: 1.500 and 0,126).
// Formatting picks a display scale (a decimal prefix); it never computes a quantity.
import { fromBase } from './units.js';
import { LANGS, LOCALES } from './lang.js';
// MARKS: each language's decimal and grouping marks, percent pattern and compact words (numbers.js,
// from Intl); en-US, es-MX and pt-BR all group from 1,000 on and write a percent sign with no space.
import { NUMBERS as MARKS } from './numbers.js';

export const DASH = '—';
const NBSP = '\u00a0';


// The page's number formats, by name (fixed and significant digits named by their count):
// written here rather than by Intl.NumberFormat, whose first use in a page costs 10–40 ms (the
// locale's number data), right on the way to the first result. The output is Intl.NumberFormat's
// for these options, character for character (tests/web/units.test.mjs compares them on many
// numbers): rounding half away from zero on the shortest decimal that reads back as the number,
// so 1.005 → 1.01 as Intl writes it (toFixed would write 1.00).
const FORMATS = {
  whole: { maxFrac: 0 },
  plain: { maxFrac: 3 },
  input: { sig: 6, grouping: false },
  percentSmall: { sig: 2, percent: true },
  percent: { maxFrac: 1, percent: true },
};

/** |x| as its shortest round-trip decimal digits and the power of ten of the first: 65536000 → ['65536', 7]. */
function decimalDigits(x) {
  if (x === 0) return ['0', 0];
  const [mantissa, exponent] = Math.abs(x).toExponential().split('e');
  return [mantissa.replace('.', ''), Number(exponent)];
}

/** A string of decimal digits plus one in its last place ('199' → '200', '99' → '100'). */
function increment(digits) {
  let i = digits.length - 1;
  while (i >= 0 && digits[i] === '9') i -= 1;
  if (i < 0) return `1${'0'.repeat(digits.length)}`;
  return digits.slice(0, i) + String(Number(digits[i]) + 1) + '0'.repeat(digits.length - i - 1);
}

function group(int, mark) {
  let out = '';
  for (let end = int.length; end > 0; end -= 3) out = (end > 3 ? mark : '') + int.slice(Math.max(0, end - 3), end) + out;
  return out;
}

/**
 * x (finite) in a language: to `sig` significant digits, or to at most `maxFrac` and at least
 * `minFrac` fraction digits; a percentage of x when `percent`.
 */
function formatDecimal(x, lang, { sig, maxFrac, minFrac = 0, grouping = true, percent = false, shift = 0 }) {
  const marks = MARKS[lang] || MARKS.en;
  let [digits, exp] = decimalDigits(x);
  if (percent) exp += 2; // ×100, in decimal: no binary rounding on the way
  exp += shift; // × 10^shift, the same way
  if (digits !== '0') {
    // how many of the digits are kept: `sig`, or those down to the 10^-maxFrac place
    const keep = sig !== undefined ? sig : exp + 1 + maxFrac;
    if (digits.length > keep) {
      const up = keep >= 0 && digits[keep] >= '5';
      const kept = digits.slice(0, Math.max(keep, 0));
      if (!up) digits = kept || '0';
      else if (!kept) {
        digits = '1';
        exp += 1;
      } else {
        digits = increment(kept);
        if (digits.length > kept.length) {
          digits = digits.slice(0, kept.length);
          exp += 1;
        }
      }
      if (digits === '0') exp = 0;
    }
    digits = digits.replace(/0+$/, '') || '0';
  }
  let int;
  let frac;
  if (digits === '0') {
    int = '0';
    frac = '';
  } else if (exp >= 0) {
    int = digits.slice(0, exp + 1).padEnd(exp + 1, '0');
    frac = digits.slice(exp + 1);
  } else {
    int = '0';
    frac = '0'.repeat(-exp - 1) + digits;
  }
  frac = frac.padEnd(minFrac, '0');
  // a negative number that rounds to zero keeps its sign (-0.4 → "-0"), as Intl.NumberFormat does
  const sign = x < 0 || Object.is(x, -0) ? '-' : '';
  // 'min2' (the compact notation's): no grouping mark below 10,000
  const grouped = grouping === true || (grouping === 'min2' && int.length >= 5);
  const [before, after] = percent ? marks.percent : ['', ''];
  return sign + before + (grouped ? group(int, marks.group) : int) + (frac ? marks.decimal + frac : '') + after;
}

// The compact notation (12K, 12 mil), as Intl.NumberFormat writes it with { notation: 'compact',
// maximumSignificantDigits: 3 }: for each power of ten from 10^3 to 10^14 (above, the last one's),
// [the power divided off, the word after the number], read from Intl by numbers.js. Spanish writes
// thousands of millions as "1000 M", then "12 mil M"; es and pt put a no-break space before the word.

/** x in the compact notation, 3 significant digits: 999 → 999, 999.5 → 1K, 12,345,678 → 12.3M. */
function formatCompact(x, lang) {
  let [digits, exp] = decimalDigits(x);
  // rounding to 3 digits may carry into the next power (999.5 → 1,000): the pattern is the rounded number's
  if (digits.length > 3 && digits.startsWith('999') && digits[3] >= '5') exp += 1;
  if (exp < 3) return formatDecimal(x, lang, { sig: 3 });
  const table = (MARKS[lang] || MARKS.en).compact;
  const [power, word] = table[Math.min(exp, 14) - 3];
  return formatDecimal(x, lang, { sig: 3, shift: -power, grouping: 'min2' }) + word;
}

/** x in the format named `name` (see FORMATS, `fixed<N>` and `sig<N>`); a dash for no number. */
export function formatNumber(x, lang, name) {
  if (typeof x !== 'number' || !Number.isFinite(x)) return DASH;
  let options = FORMATS[name];
  if (name === 'compact') return formatCompact(x, lang);
  if (!options) {
    const m = /^(fixed|sig)([0-9]+)$/.exec(name);
    if (!m) throw new Error(`unknown number format ${name}`);
    const n = Number(m[2]);
    options = m[1] === 'fixed' ? { maxFrac: n, minFrac: n } : { sig: n };
    FORMATS[name] = options; // read once per name (a chart formats ≈ 100 numbers per change)
  }
  return formatDecimal(x, lang, options);
}

const ok = (x) => typeof x === 'number' && Number.isFinite(x);

/** 3 significant digits below 1,000; whole numbers with grouping above. */
export function fmtNumber(x, lang, sig = 3) {
  if (!ok(x)) return DASH;
  if (Math.abs(x) >= 1000) return formatNumber(x, lang, 'whole');
  if (x === 0) return formatNumber(0, lang, 'plain');
  return formatNumber(x, lang, `sig${sig}`);
}

export function fmtInteger(x, lang) {
  if (!ok(x)) return DASH;
  return formatNumber(x, lang, 'whole');
}

/** Fixed number of fraction digits, e.g. 0.066 for GFLOPs as the lesson shows them. */
export function fmtFixed(x, lang, digits) {
  if (!ok(x)) return DASH;
  return formatNumber(x, lang, `fixed${digits}`);
}

/** A value for an input field: no grouping, the language's decimal mark, up to 6 significant digits. */
export function fmtInput(x, lang) {
  if (!ok(x)) return '';
  return formatNumber(x, lang, 'input');
}

/**
 * A number filled into a field (from a model, a GPU, a link): as the results it feeds show it, so
 * a field does not hold six digits beside a result of three. A figure of up to four significant
 * digits stays as it is (a typed figure of the lesson's); any other keeps its integer digits and
 * three significant ones (tests/web/units.test.mjs has examples). The calculator computes with
 * the number itself until the reader types (calc.js fieldNumber).
 */
export function fmtShown(x, lang) {
  if (!ok(x)) return '';
  if (Number(x.toPrecision(4)) === x) return fmtInput(x, lang);
  const intDigits = Math.floor(Math.log10(Math.abs(x))) + 1;
  return fmtInput(intDigits >= 3 ? Math.round(x) : Number(x.toPrecision(3)), lang);
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
  if (pct !== 0 && pct < 0.1) return formatNumber(fraction, lang, 'percentSmall');
  // a share just under the whole (99.96 % of the peak) is not written as 100 %
  if (fraction > 0 && fraction < 1 && Number((fraction * 100).toFixed(1)) >= 100) {
    let frac = 2;
    while (frac < 12 && Number((fraction * 100).toFixed(frac)) >= 100) frac += 1;
    return formatDecimal(fraction, lang, { maxFrac: frac, percent: true });
  }
  return formatNumber(fraction, lang, 'percent');
}

/**
 * A ratio to a threshold of 1 (intensity ÷ ridge): 2 significant digits, more where those would
 * round a ratio below 1 up to 1 (0.9994 is written 0.9994×, never 1×), so that it never reads as
 * the other side of the threshold.
 */
export function fmtRatio(x, lang) {
  if (!ok(x)) return DASH;
  return belowOne(x, (sig) => fmtNumber(x, lang, sig), 2) + '×';
}

/**
 * write(sig) for the fewest significant digits from `sig` up that keep a value below 1 from
 * reading as 1 or more (0.99996 → 0.99996, not 1); values of 1 or more as write(sig).
 */
function belowOne(x, write, sig) {
  if (!(x < 1) || x <= 0) return write(sig);
  let n = sig;
  while (n < 15 && Number(x.toPrecision(n)) >= 1) n += 1;
  return write(n);
}

const SUPERSCRIPT = { '-': '⁻', 0: '⁰', 1: '¹', 2: '²', 3: '³', 4: '⁴', 5: '⁵', 6: '⁶', 7: '⁷', 8: '⁸', 9: '⁹' };

/** x as m × 10ⁿ with 2 significant digits, as the lesson writes large counts: 3.6 × 10¹⁷. */
export function fmtScientific(x, lang) {
  if (!ok(x)) return DASH;
  if (x === 0) return formatNumber(0, lang, 'plain');
  const rounded = Number(x.toPrecision(2));
  const exp = Math.floor(Math.log10(Math.abs(rounded)));
  const mantissa = formatNumber(Number((rounded / 10 ** exp).toPrecision(2)), lang, 'sig2');
  const power = String(exp).split('').map((ch) => SUPERSCRIPT[ch]).join('');
  return `${mantissa} × 10${power}`;
}

/**
 * A ridge point (peak ÷ bandwidth), with one decimal from 10 on, so that a ridge the lesson
 * rounds down ("≈ 295" for the H100) is never shown rounded up past it, and 3 significant digits
 * below 10.
 */
export function fmtRidge(x, lang) {
  if (!ok(x)) return DASH;
  return Math.abs(x) >= 10 ? fmtFixed(x, lang, 1) : fmtNumber(x, lang, 3);
}

/**
 * format(value, kind, lang): kind is one of the prose/glossary formats (integer, number,
 * compact, flops, flopsPerSecond, opsPerSecond, bytes, bytesPerSecond, seconds, percent, ratio,
 * flopsPerByte, opsPerByte, ridge, ridgeFlopsPerByte, ridgeOpsPerByte, approx (2 significant
 * digits, as the lesson rounds "≈ 7,900"), digits (no grouping, as a screen's size is written), milliseconds, hours, scientific, tflops, tops, gbps, gb, gb2 (two decimals), usd: US dollars) or
 * a page format (macs, gflops).
 *
 * The lesson's notation: FLOPs, with a lower-case s, count work (GFLOPs per photo); FLOPS, with
 * a capital S for "per second", is a rate (a GPU's TFLOPS); an integer precision's rate is in
 * OPS (TOPS in INT8).
 */
export function format(value, kind, lang) {
  switch (kind) {
    case 'integer': return fmtInteger(value, lang);
    case 'number': return fmtNumber(value, lang);
    case 'compact': return formatNumber(value, lang, 'compact');
    case 'flops': return prefixed(value, lang, 'FLOPs');
    case 'macs': return prefixed(value, lang, 'MACs');
    case 'flopsPerSecond': return prefixed(value, lang, 'FLOPS');
    case 'opsPerSecond': return prefixed(value, lang, 'OPS');
    case 'bytes': return prefixed(value, lang, 'B');
    case 'bytesPerSecond': return prefixed(value, lang, 'B/s');
    case 'seconds': return fmtSeconds(value, lang);
    case 'percent': return fmtPercent(value, lang);
    case 'ridge': return fmtRidge(value, lang);
    case 'ridgeFlopsPerByte': return ok(value) ? fmtRidge(value, lang) + NBSP + 'FLOPs/B' : DASH;
    case 'ridgeOpsPerByte': return ok(value) ? fmtRidge(value, lang) + NBSP + 'OPs/B' : DASH;
    case 'ratio': return fmtRatio(value, lang);
    case 'approx': return ok(value) ? formatNumber(value, lang, 'sig2') : DASH;
    case 'digits': return ok(value) ? formatNumber(value, lang, 'input') : DASH;
    case 'milliseconds': return ok(value) ? fmtNumber(value * 1e3, lang) + NBSP + 'ms' : DASH;
    case 'hours': return ok(value) ? formatNumber(value / 3600, lang, 'sig2') + NBSP + 'h' : DASH;
    case 'scientific': return fmtScientific(value, lang);
    case 'flopsPerByte': return ok(value) ? fmtNumber(value, lang) + NBSP + 'FLOPs/B' : DASH;
    case 'opsPerByte': return ok(value) ? fmtNumber(value, lang) + NBSP + 'OPs/B' : DASH;
    case 'tflops': return ok(value) ? fmtNumber(fromBase(value, 'tflops'), lang) + NBSP + 'TFLOPS' : DASH;
    case 'tops': return ok(value) ? fmtNumber(fromBase(value, 'tops'), lang) + NBSP + 'TOPS' : DASH;
    case 'gbps': return ok(value) ? fmtNumber(fromBase(value, 'gbps'), lang) + NBSP + 'GB/s' : DASH;
    case 'gb': return ok(value) ? fmtNumber(fromBase(value, 'gb'), lang) + NBSP + 'GB' : DASH;
    // two decimals of GB, as the lesson writes a model's weights: where a tenth of a GB matters
    case 'gb2': return ok(value) ? fmtFixed(fromBase(value, 'gb'), lang, 2) + NBSP + 'GB' : DASH;
    case 'usd': return ok(value) ? 'US$' + NBSP + fmtNumber(value, lang) : DASH;
    case 'gflops': return ok(value) ? fmtFixed(fromBase(value, 'billion'), lang, 3) : DASH;
    default: throw new Error(`unknown format ${kind}`);
  }
}

export { LANGS, LOCALES };
