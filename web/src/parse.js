// Reading what the reader typed. The text is never changed; it is read as a number when it
// looks like one (in the page's language), and otherwise handed to the module as it is, so the
// module's own validation (RooflineError codes) decides what is wrong with it.
import { NUMBERS as MARKS } from './numbers.js';

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;
const SPECIAL = { nan: NaN, infinity: Infinity, '+infinity': Infinity, '-infinity': -Infinity, '∞': Infinity };

/**
 * The typed number as plain JS text ("4321.5", "-0.437", "7e5"), and whether its reading was
 * ambiguous; null where it is no number. Both "," and "." are read as a decimal mark wherever the
 * text allows only that (a phone's keypad may offer only one of them): "0.437", "0,437", "3,09",
 * "4.5", "12345,678". Groups of thousands are read as such where the text allows only that
 * ("1.234.567", "1,234.5", "1.234,5"). One mark between 1–3 digits (not starting with 0) and
 * exactly 3 digits ("6.000", "9,040") could be either: it is read as the reader's language writes
 * it (a thousands group where the mark is its group mark), and `ambiguous` is true.
 */
function plainNumber(s, lang) {
  const { group } = MARKS[lang] || MARKS.en;
  const m = /^([+-]?)([\d.,]*)(e[+-]?\d+)?$/i.exec(s);
  if (!m || !/\d/.test(m[2])) return null;
  const [, sign, body, exp = ''] = m;
  const grouped = (text, mark) => new RegExp(`^\\d{1,3}(\\${mark}\\d{3})+$`).test(text);
  const dots = body.split('.').length - 1;
  const commas = body.split(',').length - 1;
  let whole = body;
  let fraction = '';
  let ambiguous = false;
  if (dots && commas) {
    // both: the last one is the decimal mark, the other groups thousands
    const decimal = body.lastIndexOf('.') > body.lastIndexOf(',') ? '.' : ',';
    const other = decimal === '.' ? ',' : '.';
    const parts = body.split(decimal);
    if (parts.length !== 2 || !grouped(parts[0], other)) return null;
    whole = parts[0].split(other).join('');
    fraction = parts[1];
  } else if (dots + commas > 1) {
    const mark = dots ? '.' : ',';
    if (!grouped(body, mark) || exp) return null;
    whole = body.split(mark).join('');
  } else if (dots + commas === 1) {
    const mark = dots ? '.' : ',';
    [whole, fraction] = body.split(mark);
    if (/^[1-9]\d{0,2}$/.test(whole) && /^\d{3}$/.test(fraction) && !exp) {
      ambiguous = true;
      if (mark === group) {
        whole += fraction;
        fraction = '';
      }
    }
  }
  if (!/^\d*$/.test(whole) || !/^\d*$/.test(fraction) || whole + fraction === '') return null;
  return { text: `${sign}${whole || '0'}${fraction ? `.${fraction}` : ''}${exp}`, ambiguous };
}

/**
 * parseNumber('1,500', 'en') → 1500; parseNumber('12,5', 'pt') → 12.5; parseNumber('3,09', 'es')
 * → 3.09; parseNumber('0.437', 'pt') → 0.437; parseNumber('6.000', 'pt') → 6000;
 * parseNumber('', …) → undefined (missing); parseNumber('abc', …) → 'abc' (left for the module).
 */
export function parseNumber(text, lang) {
  const raw = String(text ?? '');
  const s = raw.trim().replace(/[\s\u00a0\u202f_]/g, '');
  if (s === '') return undefined;
  const special = SPECIAL[s.toLowerCase()];
  if (special !== undefined) return special;
  const plain = plainNumber(s, lang);
  if (plain && NUMBER.test(plain.text)) return Number(plain.text);
  return raw;
}

/**
 * Where a typed number could be read two ways ("6.000": six thousand or six), the number it was
 * read as; null otherwise. A field shows it, so the reader sees which reading counts.
 */
export function ambiguousReading(text, lang) {
  const s = String(text ?? '').trim().replace(/[\s\u00a0\u202f_]/g, '');
  const plain = s === '' ? null : plainNumber(s, lang);
  return plain && plain.ambiguous && NUMBER.test(plain.text) ? Number(plain.text) : null;
}

/** Whether parseNumber's result is a finite number (for marking a field, not for judging it). */
export function isFiniteNumber(v) {
  return typeof v === 'number' && Number.isFinite(v);
}
