// The page's single unit table. Inputs are typed in friendly units (TFLOPS, GB/s, GB …) and
// converted to the module's base units (FLOPS, bytes/s, bytes …) here and nowhere else.
// Converting units is presentation, not a formula of the lesson: every number the page shows
// comes from the module; this table only moves the decimal point (decimal prefixes only), and
// moves it in the number's decimal text so that 12.34 GB is exactly 12,340,000,000 bytes.
export const UNITS = {
  one: { exponent: 0 },
  tflops: { exponent: 12 },   // TFLOPS → FLOPS
  tops: { exponent: 12 },     // TOPS → OPS (an integer precision's peak)
  gbps: { exponent: 9 },      // GB/s → bytes/s
  gb: { exponent: 9 },        // GB → bytes
  billion: { exponent: 9 },   // billions of parameters → parameters
  // prefixes for answers typed in a unit of the reader's choice (exercises)
  nano: { exponent: -9 },     // ns → s
  micro: { exponent: -6 },    // µs → s
  milli: { exponent: -3 },    // ms → s
  percent: { exponent: -2 },  // % → a fraction
  kilo: { exponent: 3 },
  mega: { exponent: 6 },      // MB → bytes, MFLOPs → FLOPs
  giga: { exponent: 9 },      // GB → bytes, GFLOPs → FLOPs
  tera: { exponent: 12 },     // TFLOPs → FLOPs
};

function shift(value, exponent) {
  if (exponent === 0 || !Number.isFinite(value)) return exponent === 0 ? value : value * 10 ** exponent;
  const [mantissa, e = '0'] = String(value).toLowerCase().split('e');
  return Number(`${mantissa}e${Number(e) + exponent}`);
}

function unit(name) {
  const u = UNITS[name];
  if (!u) throw new Error(`unknown unit ${name}`);
  return u;
}

/** Friendly value → base units, e.g. toBase(12, 'tflops') === 12e12. */
export function toBase(value, name) {
  return shift(value, unit(name).exponent);
}

/** Base units → friendly value, e.g. fromBase(250e9, 'gbps') === 250. */
export function fromBase(value, name) {
  return shift(value, -unit(name).exponent);
}
