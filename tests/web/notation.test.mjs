// The lesson's notation on the page, in every language: FLOPs (lower-case s) count work, FLOPS
// (capital S, "per second") is a rate, with the usual prefixes (kFLOPS … PFLOPS), and an integer
// precision's rate is in TOPS. A rate written with a slash (FLOP/s, TFLOP/s, GFLOPs/s) is the
// mistake the lesson warns about, so no text or code of the page may write one. The JS API's
// field names (peakFlopsPerSecond) and docs/api.md describe the module, not the page, and are
// not looked at. No browser needed: node --test tests/web/notation.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, LANGS } from './helpers.mjs';
import { format } from '../../web/src/format.js';

/** FLOP/s, TFLOP/s, GFLOPs/s, flop/sec, FLOP / s … */
export const SLASHED_RATE = /[kMGTPE]?FLOPs?\s?\/\s?s(?:ec(?:ond)?)?(?![A-Za-z])/gi;

const nb = (s) => s.replace(/[\u00a0\u202f]/g, ' ');

/** Every string of a JSON value with its dotted key path. */
function* leaves(value, path = '') {
  if (typeof value === 'string') yield [path, value];
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) yield* leaves(v, path ? `${path}.${k}` : k);
  }
}

function i18nFiles() {
  const dir = join(ROOT, 'web/i18n');
  return readdirSync(dir).filter((f) => f.endsWith('.json')).sort().map((f) => [`web/i18n/${f}`, JSON.parse(readFileSync(join(dir, f), 'utf8'))]);
}

function srcFiles() {
  const dir = join(ROOT, 'web/src');
  return readdirSync(dir).filter((f) => f.endsWith('.js')).sort().map((f) => [`web/src/${f}`, readFileSync(join(dir, f), 'utf8')]);
}

test('the pattern finds every slashed rate and nothing else', () => {
  const found = (s) => [...s.matchAll(SLASHED_RATE)].map((m) => m[0]);
  assert.deepEqual(found('65 TFLOP/s, 8.2 GFLOP/s, peak FLOP/s, 1 GFLOPs/s, 3 flop/sec, 2 FLOP / s'),
    ['TFLOP/s', 'GFLOP/s', 'FLOP/s', 'GFLOPs/s', 'flop/sec', 'FLOP / s']);
  assert.deepEqual(found('65 TFLOPS, 8.2 GFLOPs, 203 FLOPs/B, 130 TOPS, 320 GB/s, peakFlopsPerSecond, flopsPerByte'), []);
});

test('no text of web/i18n writes a rate as FLOP/s (the lesson writes FLOPS, TFLOPS …)', () => {
  const bad = [];
  for (const [file, data] of i18nFiles()) {
    for (const [path, text] of leaves(data)) {
      for (const m of text.matchAll(SLASHED_RATE)) bad.push(`${file} ${path}: “${m[0]}” in …${text.slice(Math.max(0, m.index - 40), m.index + 40)}…`);
    }
  }
  assert.deepEqual(bad, []);
});

test('no code of web/src writes a rate as FLOP/s (labels, formats, comments)', () => {
  const bad = [];
  for (const [file, code] of srcFiles()) {
    code.split('\n').forEach((line, i) => {
      for (const m of line.matchAll(SLASHED_RATE)) bad.push(`${file}:${i + 1}: “${m[0]}” in ${line.trim().slice(0, 120)}`);
    });
  }
  assert.deepEqual(bad, []);
});

test('the formatter writes counts as FLOPs, rates as FLOPS with a prefix, integer rates as OPS', () => {
  for (const lang of LANGS) {
    for (const [x, prefix] of [[2e3, 'k'], [3e6, 'M'], [4e9, 'G'], [5e12, 'T'], [6e15, 'P']]) {
      assert.match(nb(format(x, 'flopsPerSecond', lang)), new RegExp(` ${prefix}FLOPS$`), `${x} ${lang}`);
      assert.match(nb(format(x, 'flops', lang)), new RegExp(` ${prefix}FLOPs$`), `${x} ${lang}`);
      assert.match(nb(format(x, 'opsPerSecond', lang)), new RegExp(` ${prefix}OPS$`), `${x} ${lang}`);
    }
    assert.match(nb(format(5e12, 'tflops', lang)), / TFLOPS$/);
    assert.match(nb(format(5e12, 'tops', lang)), / TOPS$/);
    // intensity: FLOPs per byte, or integer operations per byte
    assert.match(nb(format(1.97, 'flopsPerByte', lang)), /^1[.,]97 FLOPs\/B$/, lang);
    assert.match(nb(format(1.97, 'opsPerByte', lang)), /^1[.,]97 OPs\/B$/, lang);
  }
});

// An integer precision's peak, wherever a text shows one, is in TOPS: either formatted as tops
// (or opsPerSecond), or shown as a bare number followed by "TOPS" in every language.
test('a text that shows an INT8 or INT4 peak says TOPS', () => {
  const bad = [];
  let seen = 0;
  for (const [file, data] of i18nFiles()) {
    for (const [id, entry] of Object.entries(data)) {
      // prose entries hold values beside the languages; glossary cards hold them the same way
      const values = entry && entry.values;
      if (!values) continue;
      for (const [name, spec] of Object.entries(values)) {
        if (!/^peakFlopsPerSecond\.int\d+$/.test(String(spec.field))) continue;
        seen += 1;
        if (spec.format === 'tops' || spec.format === 'opsPerSecond') continue;
        if (spec.format === 'number' && spec.unit === 'tops') {
          for (const lang of LANGS) {
            const texts = [...leaves(entry[lang])].map(([, t]) => t).filter((t) => t.includes(`{${name}}`));
            for (const t of texts) if (!t.includes(`{${name}} TOPS`)) bad.push(`${file} ${id}.${lang}: {${name}} is not followed by TOPS`);
          }
          continue;
        }
        bad.push(`${file} ${id}: {${name}} is an integer peak shown as ${spec.unit ? `${spec.unit} + ` : ''}${spec.format}, not in TOPS`);
      }
    }
  }
  assert.ok(seen > 0, 'the glossary shows the T4 INT8 peak');
  assert.deepEqual(bad, []);
});
