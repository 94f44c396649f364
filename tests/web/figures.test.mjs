// No file of the page holds a figure that the catalog holds: texts reference catalog ids and
// lesson cases ("case" and "values" specs in web/i18n), and the code asks the module. This test
// collects every figure of the catalog (GPUs, models and their stages, weight formats, the
// lessons cases' numbers) in the units a reader sees, writes each the ways English, Spanish and
// Portuguese write numbers, and looks for them in web/i18n/*.json (every language, every spec;
// catalog.json, which names the entries, is checked by catalog-names.test.mjs) and in
// web/src/*.js. No browser needed: SITE_DIR=build-wasm/site node --test tests/web/figures.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SITE_DIR = resolve(ROOT, process.env.SITE_DIR || 'build-wasm/site');

async function loadModule() {
  const mjs = join(SITE_DIR, 'roofline.mjs');
  if (!existsSync(mjs)) throw new Error(`${mjs} is missing: build the module first (cmake --build build-wasm)`);
  return (await import(pathToFileURL(mjs).href)).default();
}

// Integers up to 64 are too common to mean a figure (2 bytes, 8 bits, 32 photos, a 64 × 64
// tile, "4 conversations"), so they are not looked for; decimals (3.5 bits) always are.
const SMALL = 64;

/** 12 significant digits: 1555e9 / 1e12 is 1.555, not 1.5550000000000002. */
const clean = (x) => Number(x.toPrecision(12));

/**
 * The catalog's figures, each { value, label } in a unit a reader sees. The first unit of each
 * list is the base unit (the number as the module returns it, and as a spec would write it);
 * the others are kept when the figure is at least 1 in them.
 */
export function catalogFigures(rl) {
  const out = [];
  const add = (label, base, units) => {
    units.forEach(([scale, unit], i) => {
      const value = clean(base / scale);
      if (i > 0 && value < 1) return;
      // 1.024 million reads as 1,024 in Portuguese and 1.024 as 1,024 in English: a scaled
      // figure with three decimals is written in the next smaller unit instead (1,555 GB/s, not
      // 1.555 TB/s; 4,088 million, not 4.088 billion), which the lists below also hold.
      if (i > 0 && /\.\d{3}$/.test(String(value))) return;
      out.push({ value, label: `${label} = ${value}${unit ? ` ${unit}` : ''}` });
    });
  };
  const one = [[1, '']];
  const bytes = [[1, 'B'], [1e9, 'GB'], [1e6, 'MB']];
  // the lesson's own entries: the figures its texts speak of. The catalog's other devices and
  // models reach the page only through the module's lists (their round figures, 128 GB or 70
  // TFLOPS, would also match any 128-bit vector or 70 W in prose)
  for (const g of rl.gpus().filter((x) => x.lesson)) {
    add(`gpu ${g.id} memoryBytes`, g.memoryBytes, [[1, 'B'], [1e9, 'GB']]);
    add(`gpu ${g.id} bytesPerSecond`, g.bytesPerSecond, [[1, 'B/s'], [1e9, 'GB/s'], [1e12, 'TB/s']]);
    for (const [dtype, peak] of Object.entries(g.peakFlopsPerSecond)) {
      add(`gpu ${g.id} peak ${dtype}`, peak, [[1, 'FLOPS'], [1e12, 'TFLOPS']]);
    }
    if (g.pricePerHourUsd !== undefined) add(`gpu ${g.id} pricePerHourUsd`, g.pricePerHourUsd, [[1, 'US$/h']]);
    add(`gpu ${g.id} year`, g.year, one);
  }
  for (const m of rl.models().filter((x) => x.lesson)) {
    add(`model ${m.id} params`, m.params, [[1, ''], [1e9, 'billion'], [1e6, 'million']]);
    add(`model ${m.id} weightBytes`, m.weightBytes, bytes);
    if (m.macsPerExample !== undefined) add(`model ${m.id} macsPerExample`, m.macsPerExample, [[1, 'MACs'], [1e9, 'billion'], [1e6, 'million']]);
    if (m.workingMacsPerExample !== undefined) {
      add(`model ${m.id} workingMacsPerExample`, m.workingMacsPerExample, [[1, 'MACs'], [1e9, 'billion'], [1e6, 'million']]);
      add(`model ${m.id} workingFlopsPerExample`, m.workingFlopsPerExample, [[1, 'FLOPs'], [1e9, 'billion']]);
    }
    for (const s of m.stages || []) {
      add(`stage ${m.id}.${s.id} macs`, s.macs, [[1, 'MACs'], [1e6, 'million']]);
      add(`stage ${m.id}.${s.id} weights`, s.weights, [[1, ''], [1e3, 'thousand'], [1e6, 'million']]);
    }
  }
  for (const f of rl.formats()) {
    add(`format ${f.id} bits`, f.bits, one);
    if (f.groupSize !== null) add(`format ${f.id} groupSize`, f.groupSize, one);
  }
  for (const c of rl.cases()) {
    for (const [name, v] of Object.entries(c.values)) {
      if (typeof v === 'number') add(`case ${c.id} ${name}`, v, /Bytes/.test(name) ? bytes : one);
    }
  }
  // powers of ten (100 photos/s "of the order of", 1,000 new tokens) read as scales far more often
  // than as figures (100 %, 1,000 FLOPs per byte on an axis): not looked for either
  const powerOfTen = (x) => x >= 100 && Number.isInteger(Math.log10(x)) && 10 ** Math.log10(x) === x;
  return out.filter((f) => !(Number.isInteger(f.value) && (Math.abs(f.value) <= SMALL || powerOfTen(Math.abs(f.value)))));
}

/**
 * How the three languages (and a plain input field) write a number: 3350 → 3350, 3,350
 * (en-US, es-MX), 3.350 (pt-BR), 3 350; 16.06 → 16.06, 16,06; 1234.5 → 1,234.5, 1.234,5 …;
 * and, from a thousand up, as code writes it: 3350e9 → 3.35e12, 3350e9, 335e10 ….
 */
export function renderings(value) {
  const [int, frac] = String(value).split('.');
  const group = (s, sep) => s.replace(/\B(?=(\d{3})+(?!\d))/g, sep);
  const out = new Set();
  for (const sep of ['', ',', '.', ' ']) {
    if (sep && int.length < 4) continue;
    for (const mark of frac ? ['.', ','] : ['']) {
      if (sep && sep === mark) continue;
      out.add(group(int, sep) + (frac ? mark + frac : ''));
    }
  }
  if (value >= 1000) {
    for (let e = 1; 10 ** e <= value; e += 1) out.add(`${clean(value / 10 ** e)}e${e}`);
  }
  return [...out];
}

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The catalog's ids: names, not figures ("matmul-4096", "a100-80gb", "q3.5"). */
export function catalogIds(rl) {
  return [...rl.gpus(), ...rl.models(), ...rl.formats(), ...rl.cases()].map((x) => x.id);
}

/**
 * A scanner over the given figures: scan(text) → [{ found, figures: [label…], at }]. The ids
 * are blanked out first, so a spec's "case": "matmul-4096" is not a figure.
 */
export function figureScanner(figures, ids = []) {
  const byText = new Map();
  for (const f of figures) {
    for (const r of renderings(f.value)) {
      if (!byText.has(r)) byText.set(r, []);
      if (!byText.get(r).includes(f.label)) byText.get(r).push(f.label);
    }
  }
  const alternatives = [...byText.keys()].sort((a, b) => b.length - a.length).map(escape);
  // a whole number token: not preceded by a digit (or a digit and a mark, or an exponent's e),
  // not followed by a digit (or a mark and a digit, or an exponent), so 2,048 is found in
  // "k = 2,048," but not in "12,048", and 300 is not found in 1e300.
  const re = new RegExp(`(?<!\\d)(?<!\\d[.,])(?<!\\d[eE][+-]?)(?:${alternatives.join('|')})(?!\\d)(?![.,]\\d)(?![eE][+-]?\\d)`, 'g');
  const idRe = ids.length
    ? new RegExp(`(?<![\\w-])(?:${[...ids].sort((a, b) => b.length - a.length).map(escape).join('|')})(?![\\w-])`, 'g')
    : null;
  return (text) => {
    // addresses are names too (http://www.w3.org/2000/svg)
    let s = String(text).replace(/[\u00a0\u202f]/g, ' ').replace(/\b[a-z]+:\/\/\S+/g, (m) => ' '.repeat(m.length));
    if (idRe) s = s.replace(idRe, (m) => ' '.repeat(m.length));
    return [...s.matchAll(re)].map((m) => ({ found: m[0], figures: byText.get(m[0]), at: m.index }));
  };
}

/** Every string and number of a JSON value, with its dotted key path. */
function* leaves(value, path = '') {
  if (typeof value === 'string' || typeof value === 'number') yield [path, String(value)];
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) yield* leaves(v, path ? `${path}.${k}` : k);
  }
}

function describe(where, text, hit) {
  const around = text.slice(Math.max(0, hit.at - 30), hit.at + hit.found.length + 30).replace(/\s+/g, ' ');
  return `${where}: "${hit.found}" is ${hit.figures.join(' / ')} (…${around}…)`;
}

function scanI18n(scan) {
  const dir = join(ROOT, 'web/i18n');
  const found = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json') && f !== 'catalog.json').sort()) {
    const data = JSON.parse(readFileSync(join(dir, file), 'utf8'));
    for (const [path, text] of leaves(data)) {
      for (const hit of scan(text)) found.push(describe(`web/i18n/${file} ${path}`, text, hit));
    }
  }
  return found;
}

// A line of code whose number only looks like a figure (a chart's height in pixels) says so
// in a comment holding this phrase; the test lists those lines.
const NOT_A_FIGURE = 'not a catalog figure';

function scanSrc(scan) {
  const dir = join(ROOT, 'web/src');
  const found = [];
  const exempt = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.js')).sort()) {
    readFileSync(join(dir, file), 'utf8').split('\n').forEach((line, i) => {
      const where = `web/src/${file}:${i + 1}`;
      if (line.includes(NOT_A_FIGURE)) {
        exempt.push(where);
        return;
      }
      for (const hit of scan(line)) found.push(describe(where, line, hit));
    });
  }
  return { found, exempt };
}

const rl = await loadModule();
const figures = catalogFigures(rl);
const scan = figureScanner(figures, catalogIds(rl));

test('the scanner finds a catalog figure written in any language, and only whole numbers', () => {
  const labels = (text) => scan(text).map((h) => `${h.found}: ${h.figures.join(' / ')}`);
  assert.deepEqual(labels('The H100 reads 3,350 GB/s.'), ['3,350: gpu h100-sxm bytesPerSecond = 3350 GB/s']);
  assert.equal(scan('a H100 lê 3.350 GB/s').length, 1);
  assert.equal(scan('3\u00a0350 GB/s').length, 1);
  assert.equal(scan('Llama 3 8B: 16,06 GB em BF16').length, 1);
  assert.equal(scan('"bytesPerSecond": 3350000000000').length, 1);
  assert.deepEqual(scan('13,350 GB/s, 3,3500, 1.3350 and 33,350'), []);
  assert.deepEqual(scan('{ peakFlopsPerSecond: 65e12, bytesPerSecond: 3.35e12 }').map((h) => h.found), ['65e12', '3.35e12']);
  assert.deepEqual(scan('too large, as 1e300 is; see http://www.w3.org/2000/svg'), []);
  assert.equal(scan('roofline(65e12, 320e9)').length, 2);
  assert.deepEqual(scan('a batch of 32, 2 bytes, 64 × 64 tiles'), [], 'integers up to 64 are ignored');
  assert.ok(figures.some((f) => f.value === 3.5), 'decimals below 64 are figures (3.5 bits)');
  assert.deepEqual(scan('{"case": "matmul-4096", "gpu": "a100-80gb", "format": "q3.5"}'), [], 'ids are names');
  assert.equal(scan("rl.gpu({ id: 'a100-80gb' }) has 80 GB").length, 1);
});

test('no text of web/i18n holds a catalog figure (they are placeholders filled from the module)', () => {
  const found = scanI18n(scan);
  assert.ok(found.length === 0, `${found.length} catalog figures written into texts:\n${found.join('\n')}`);
});

test('no code in web/src holds a catalog figure (the page asks the module)', (t) => {
  const { found, exempt } = scanSrc(scan);
  if (exempt.length) t.diagnostic(`lines marked "${NOT_A_FIGURE}": ${exempt.join(', ')}`);
  assert.ok(found.length === 0, `${found.length} catalog figures written into the page's code:\n${found.join('\n')}`);
});
