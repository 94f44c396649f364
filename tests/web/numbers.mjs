// The page's number formats in Intl.NumberFormat's terms, and numbers that test their rounding:
// shared by the Node test (units.test.mjs) and the browser one (page.test.mjs), which compare the
// page's own formatting with Node's and Chromium's Intl.
// What each of the page's number formats means in Intl.NumberFormat's terms: the page writes
// numbers itself (Intl's first use costs tens of milliseconds), and must write them as Intl does.
export const INTL_OPTIONS = {
  whole: { maximumFractionDigits: 0 },
  plain: {},
  input: { useGrouping: false, maximumSignificantDigits: 6 },
  percentSmall: { style: 'percent', maximumSignificantDigits: 2 },
  percent: { style: 'percent', maximumFractionDigits: 1 },
  ...Object.fromEntries([0, 1, 2, 3, 4].map((n) => [`fixed${n}`, { minimumFractionDigits: n, maximumFractionDigits: n }])),
  ...Object.fromEntries([1, 2, 3, 4, 6].map((n) => [`sig${n}`, { maximumSignificantDigits: n }])),
  compact: { notation: 'compact', maximumSignificantDigits: 3 },
};

/** Numbers that test rounding: halves and near-halves at every scale, carries, huge and tiny ones. */
export function awkwardNumbers(count = 4000, seed = 12345) {
  let s = seed;
  const rand = () => ((s = (s * 1103515245 + 12345) % 2147483648) / 2147483648);
  const out = [0, -0, 1, -1, 0.5, -0.5, 1.5, 2.5, 0.05, 0.005, 1.005, 1.255, 0.0655, 999.5, 999.6, 9.995, 99.95,
    // eslint-disable-next-line no-loss-of-precision -- 2^53 + 1 is read as the double nearest, on purpose
    0.9995, 0.00049, 0.0005, 0.001, 1e21, 1.5e21, 2 ** 53, 2 ** 60, 9007199254740993, 123456789012345680000,
    1e-7, 1.23e-12, 5e-324, 1.7976931348623157e308, 65536000, 8.18e9, 0.125, 0.0125, 0.999, 0.9999999];
  for (let i = 0; i < count; i += 1) {
    const exp = Math.floor(rand() * 34) - 12;
    const mant = rand() * 10;
    const pick = i % 4;
    let x;
    if (pick === 0) x = mant * 10 ** exp;
    else if (pick === 1) x = (Math.round(mant * 1000) + 0.5) / 1000 * 10 ** exp;   // a half at some digit
    else if (pick === 2) x = Number((mant * 10 ** exp).toPrecision(1 + (i % 7))) ;  // short decimals
    else x = Math.round(mant * 10 ** (i % 9)) + [0, 0.5, 0.05, 0.95, 0.995][i % 5];
    out.push(rand() < 0.2 ? -x : x);
  }
  return out;
}

