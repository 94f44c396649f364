// The page's own presentation helpers, without a browser: the single unit table, reading typed
// numbers in each language, number formatting per locale, and the completeness of the UI strings.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, LANGS, loadUi } from './helpers.mjs';
import { UNITS, toBase, fromBase } from '../../web/src/units.js';
import { parseNumber, ambiguousReading } from '../../web/src/parse.js';
import { format, fmtInput, fmtShown, formatNumber } from '../../web/src/format.js';
import { LOCALES } from '../../web/src/lang.js';
import { INTL_OPTIONS, awkwardNumbers } from './numbers.mjs';

test('unit table: friendly units to base units and back', () => {
  assert.equal(toBase(65, 'tflops'), 65e12);
  assert.equal(toBase(320, 'gbps'), 320e9);
  assert.equal(toBase(16.06, 'gb'), 16.06e9);
  assert.equal(toBase(8.03, 'billion'), 8.03e9);
  assert.equal(toBase(7, 'one'), 7);
  assert.equal(fromBase(3.35e12, 'gbps'), 3350);
  assert.equal(fromBase(65e12, 'tflops'), 65);
  assert.equal(toBase(130, 'tops'), 130e12);
  for (const u of Object.keys(UNITS)) assert.equal(fromBase(toBase(1.5, u), u), 1.5);
  assert.equal(toBase(1e300, 'tflops'), Infinity);
  assert.equal(toBase(2.5e-3, 'gb'), 2.5e6);
  assert.throws(() => toBase(1, 'furlongs'));
});

test('typed numbers are read per language; anything else is left for the module to judge', () => {
  assert.equal(parseNumber('2048', 'en'), 2048);
  assert.equal(parseNumber('2,048', 'en'), 2048);
  assert.equal(parseNumber('2,048', 'es'), 2048);
  assert.equal(parseNumber('2.048', 'pt'), 2048);
  assert.equal(parseNumber('16,06', 'pt'), 16.06);
  assert.equal(parseNumber('16.06', 'pt'), 16.06);
  assert.equal(parseNumber('1e400', 'en'), Infinity);
  assert.equal(parseNumber(' 65 ', 'es'), 65);
  assert.ok(Number.isNaN(parseNumber('NaN', 'en')));
  assert.equal(parseNumber('-Infinity', 'en'), -Infinity);
  assert.equal(parseNumber('', 'en'), undefined);
  assert.equal(parseNumber('abc', 'en'), 'abc');
  assert.equal(parseNumber('12abc', 'en'), '12abc');
});

test('a decimal mark is read where the text allows only that reading, "," or "." in any language', () => {
  // a phone's keypad may offer only one mark: both read as the decimal mark where unambiguous
  for (const lang of LANGS) {
    assert.equal(parseNumber('0.198', lang), 0.198, `0.198 (${lang}): a group never starts with 0`);
    assert.equal(parseNumber('0,198', lang), 0.198, `0,198 (${lang})`);
    assert.equal(parseNumber('1,07', lang), 1.07, `1,07 (${lang})`);
    assert.equal(parseNumber('1.5', lang), 1.5, `1.5 (${lang})`);
    assert.equal(parseNumber('12345,678', lang), 12345.678, `12345,678 (${lang}): no group has four digits`);
    assert.equal(parseNumber('1,234.5', lang), 1234.5);
    assert.equal(parseNumber('1.234,5', lang), 1234.5);
    assert.equal(parseNumber('1.234.567', lang), 1234567);
    assert.equal(parseNumber('1,234,567', lang), 1234567);
    assert.equal(ambiguousReading('1,07', lang), null);
    assert.equal(parseNumber('1,2,3', lang), '1,2,3', 'no number: left for the module to name');
    assert.equal(parseNumber('1.2,3.4', lang), '1.2,3.4');
  }
  // one mark between 1–3 digits and exactly three: read as the reader's language writes it, and said
  assert.equal(parseNumber('5.000', 'pt'), 5000);
  assert.equal(parseNumber('5,000', 'es'), 5000);
  assert.equal(parseNumber('5,000', 'en'), 5000);
  assert.equal(parseNumber('5.000', 'es'), 5);
  assert.equal(parseNumber('1,070', 'pt'), 1.07);
  assert.equal(ambiguousReading('5.000', 'pt'), 5000);
  assert.equal(ambiguousReading('1,070', 'pt'), 1.07);
  assert.equal(ambiguousReading('16,06', 'pt'), null);
  assert.equal(parseNumber('-2,5e3', 'pt'), -2500);
});

test('numbers are formatted per locale: es-MX writes 2,048 and 0.126, pt-BR 2.048 and 0,126', () => {
  const nb = (s) => s.replace(/[\u00a0\u202f]/g, ' ');
  assert.equal(format(2048, 'integer', 'en'), '2,048');
  assert.equal(format(2048, 'integer', 'es'), '2,048');
  assert.equal(format(2048, 'integer', 'pt'), '2.048');
  assert.equal(format(0.12612, 'number', 'es'), '0.126');
  assert.equal(format(0.12612, 'number', 'pt'), '0,126');
  assert.equal(nb(format(65536000, 'flops', 'en')), '65.5 MFLOPs');
  assert.equal(nb(format(65e12, 'flopsPerSecond', 'es')), '65 TFLOPS');
  assert.equal(nb(format(65e12, 'tflops', 'pt')), '65 TFLOPS');
  assert.equal(nb(format(130e12, 'tops', 'en')), '130 TOPS');
  assert.equal(nb(format(130e12, 'opsPerSecond', 'es')), '130 TOPS');
  assert.equal(nb(format(1.5e3, 'flopsPerSecond', 'pt')), '1,5 kFLOPS');
  assert.equal(nb(format(2e15, 'flopsPerSecond', 'en')), '2 PFLOPS');
  assert.equal(nb(format(8.2e9, 'flops', 'en')), '8.2 GFLOPs');
  assert.equal(nb(format(16.06e9, 'bytes', 'pt')), '16,1 GB');
  assert.equal(nb(format(320e9, 'bytesPerSecond', 'en')), '320 GB/s');
  assert.equal(nb(format(0.0535333, 'seconds', 'en')), '53.5 ms');
  assert.equal(nb(format(1.26e-4, 'seconds', 'es')), '126 µs');
  assert.equal(nb(format(999.6e6, 'flopsPerSecond', 'en')), '1 GFLOPS');
  assert.equal(nb(format(0.0009996, 'seconds', 'en')), '1 ms');
  assert.equal(format(NaN, 'number', 'en'), '—');
  assert.equal(format(Infinity, 'flops', 'en'), '—');
  assert.equal(fmtInput(16.06, 'pt'), '16,06');
  assert.equal(fmtInput(2048, 'en'), '2048');
});

test('a number filled into a field shows as the results do: a figure of up to 4 digits as it is, any other to 3', () => {
  // the lesson's typed figures stay whole
  assert.equal(fmtShown(16.06, 'en'), '16.06');
  assert.equal(fmtShown(16.06, 'pt'), '16,06');
  assert.equal(fmtShown(1008, 'es'), '1008');
  assert.equal(fmtShown(0.695, 'en'), '0.695');
  assert.equal(fmtShown(8192, 'en'), '8192');
  // a model's own bytes, a KV cache counted, a measured rate: three significant digits
  assert.equal(fmtShown(5.7346875, 'en'), '5.73');
  assert.equal(fmtShown(1.073741824, 'pt'), '1,07');
  assert.equal(fmtShown(93.4056, 'en'), '93.4');
  assert.equal(fmtShown(0.0123456, 'en'), '0.0123');
  // never fewer integer digits than the number has
  assert.equal(fmtShown(1008.37, 'en'), '1008');
  assert.equal(fmtShown(131072.4, 'en'), '131072');
  assert.equal(fmtShown(NaN, 'en'), '');
});

test('every number format writes what Intl.NumberFormat writes, in each language', () => {
  const xs = awkwardNumbers();
  for (const lang of LANGS) {
    for (const [name, options] of Object.entries(INTL_OPTIONS)) {
      const intl = new Intl.NumberFormat(LOCALES[lang], options);
      const wrong = [];
      for (const x of xs) {
        const ours = formatNumber(x, lang, name);
        const theirs = intl.format(x);
        if (ours !== theirs) wrong.push(`${x}: ${ours} ≠ ${theirs}`);
      }
      assert.deepEqual(wrong.slice(0, 5), [], `${lang} ${name}: ${wrong.length} of ${xs.length} differ`);
    }
  }
  assert.throws(() => formatNumber(1, 'en', 'fixedish'), /unknown number format fixedish/);
  for (const bad of [NaN, Infinity, -Infinity, '12', null, undefined]) assert.equal(formatNumber(bad, 'en', 'whole'), '—', String(bad));
});

test('every UI string exists in English, Spanish and Portuguese', () => {
  const ui = loadUi();
  const missing = [];
  for (const [id, entry] of Object.entries(ui)) {
    for (const l of LANGS) if (typeof entry[l] !== 'string' || !entry[l].trim()) missing.push(`${id}.${l}`);
    const ph = (s) => [...String(s).matchAll(/\{([A-Za-z0-9_.]+)\}/g)].map((m) => m[1]).sort().join(',');
    for (const l of ['es', 'pt']) if (entry[l] && ph(entry[l]) !== ph(entry.en)) missing.push(`${id}.${l} (placeholders differ)`);
  }
  assert.deepEqual(missing, []);
});

test('every UI string id used in the page code exists', () => {
  const ui = loadUi();
  const dir = join(ROOT, 'web/src');
  const files = readdirSync(dir).filter((f) => f.endsWith('.js'));
  const unknown = [];
  for (const f of files) {
    const code = readFileSync(join(dir, f), 'utf8');
    for (const m of code.matchAll(/\b(?:t|tr)\('([a-z][A-Za-z0-9_.]+)'/g)) if (!ui[m[1]]) unknown.push(`${f}: ${m[1]}`);
  }
  assert.deepEqual(unknown, []);
});

test('the lesson texts (prose and glossary) exist in all three languages', (t) => {
  for (const name of ['prose.json', 'glossary.json']) {
    const path = join(ROOT, 'web/i18n', name);
    if (!existsSync(path)) {
      t.diagnostic(`${name} not written yet`);
      continue;
    }
    const data = JSON.parse(readFileSync(path, 'utf8'));
    const missing = [];
    for (const [id, entry] of Object.entries(data)) for (const l of LANGS) if (!entry[l]) missing.push(`${name}: ${id}.${l}`);
    assert.deepEqual(missing, []);
  }
});

test('a ratio or a share below 1 is never written as 1× or 100 %, and ridges are written to a tenth', () => {
  // 203 FLOPs/B on a T4 (ridge 203.125): memory-bound, so its ratio must read below 1×
  const ratio = 203 / 203.125;
  for (const lang of LANGS) {
    const r = format(ratio, 'ratio', lang);
    assert.notEqual(r, '1×', lang);
    assert.ok(Number(r.replace('×', '').replace(',', '.')) < 1, `${lang}: ${r}`);
    const share = format(0.99996, 'percent', lang).replace(/\s/g, '');
    assert.notEqual(share, '100%', lang);
  }
  assert.equal(format(ratio, 'ratio', 'en'), '0.999×');
  assert.equal(format(1, 'ratio', 'en'), '1×');
  assert.equal(format(1.004, 'ratio', 'en'), '1×', 'above 1, the usual 2 significant digits');
  assert.equal(format(0.5, 'ratio', 'en'), '0.5×');
  assert.equal(format(0.99996, 'percent', 'en'), '99.996%');
  assert.equal(format(0.5, 'percent', 'en'), '50%');
  // the lesson's ridges: 65 ÷ 0.32, 121 ÷ 0.3, 312 ÷ 2.039, 990 ÷ 3.35
  assert.deepEqual([65e12 / 320e9, 121e12 / 300e9, 312e12 / 2039e9, 990e12 / 3350e9].map((x) => format(x, 'ridge', 'en')), ['203.1', '403.3', '153.0', '295.5']);
  assert.equal(format(990e12 / 3350e9, 'ridge', 'pt'), '295,5');
  assert.equal(format(8.1e12 / 320e9, 'ridgeFlopsPerByte', 'en'), '25.3\u00a0FLOPs/B');
  assert.equal(format(130e12 / 320e9, 'ridgeOpsPerByte', 'es'), '406.3\u00a0OPs/B');
  assert.equal(format(0.25, 'ridge', 'en'), '0.25', 'below 10, 3 significant digits');
});
