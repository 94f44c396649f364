// The page's single unit table. Inputs are typed in friendly units (TFLOP/s, GB/s, GB …) and
// converted to the module's base units (FLOP/s, bytes/s, bytes …) here and nowhere else.
// Converting units is presentation, not a formula of the lesson: every number the page shows
// comes from the module; this table only moves the decimal point. Decimal prefixes only.
export const UNITS = {
  one: { factor: 1 },
  tflops: { factor: 1e12 },   // TFLOP/s → FLOP/s
  gbps: { factor: 1e9 },      // GB/s → bytes/s
  gb: { factor: 1e9 },        // GB → bytes
  billion: { factor: 1e9 },   // billions of parameters → parameters
  flopsPerByte: { factor: 1 },
};

/** Friendly value → base units, e.g. toBase(65, 'tflops') === 65e12. */
export function toBase(value, unit) {
  const u = UNITS[unit];
  if (!u) throw new Error(`unknown unit ${unit}`);
  return value * u.factor;
}

/** Base units → friendly value, e.g. fromBase(320e9, 'gbps') === 320. */
export function fromBase(value, unit) {
  const u = UNITS[unit];
  if (!u) throw new Error(`unknown unit ${unit}`);
  return value / u.factor;
}
