// The catalog's names and sources in the reader's language (web/i18n/catalog.json): every GPU,
// model, model stage, weight format and lesson case of the module has a name in English,
// Spanish and Portuguese, and a source in all three; the English is the core's own text; a
// translation keeps the English text's numbers (written in its language's notation); and no
// name is left in English unless it is a proper noun. No browser needed:
//   SITE_DIR=build-wasm/site node --test tests/web/catalog-names.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SITE_DIR = resolve(ROOT, process.env.SITE_DIR || 'build-wasm/site');
const LANGS = ['en', 'es', 'pt'];

// Names that are the same in every language: brand names of GPUs and models, and the names of
// number formats. Anything else left in English is an untranslated name.
const PROPER_NOUNS = new Set([
  'NVIDIA T4', 'NVIDIA L4', 'NVIDIA A100 40 GB', 'NVIDIA A100 80 GB', 'NVIDIA H100 SXM', 'NVIDIA H200 SXM',
  'Llama 3 8B', 'Qwen3.8-27B', 'ResNet-50 (C01)',
  'BF16', 'FP16', 'FP8',
]);

async function loadModule() {
  const mjs = join(SITE_DIR, 'roofline.mjs');
  if (!existsSync(mjs)) throw new Error(`${mjs} is missing: build the module first (cmake --build build-wasm)`);
  return (await import(pathToFileURL(mjs).href)).default();
}

/**
 * The numbers of a text, read in its language's notation: en-US and es-MX write 2,048 and
 * 0.695, pt-BR writes 2.048 and 0,695. Digits inside names count too (L4, C01 → 4, 1).
 */
export function numbersIn(text, lang) {
  return [...String(text).matchAll(/\d+(?:[.,]\d+)*/g)].map(([s]) => {
    const plain = lang === 'pt' ? s.replace(/\./g, '').replace(',', '.') : s.replace(/,/g, '');
    return Number(plain);
  }).sort((a, b) => a - b);
}

const rl = await loadModule();
const texts = JSON.parse(readFileSync(join(ROOT, 'web/i18n/catalog.json'), 'utf8'));

/** Every catalog entry: { key, name, source } with key as in catalog.json ("gpu.t4" …). */
function entries() {
  const out = [];
  for (const g of rl.gpus()) out.push({ key: `gpu.${g.id}`, name: g.name, source: g.source });
  for (const m of rl.models()) {
    out.push({ key: `model.${m.id}`, name: m.name, source: m.source });
    for (const s of m.stages || []) out.push({ key: `stage.${m.id}.${s.id}`, name: s.name });
  }
  for (const f of rl.formats()) out.push({ key: `format.${f.id}`, name: f.name, source: f.source });
  for (const c of rl.cases()) out.push({ key: `case.${c.id}`, name: c.name, source: c.source });
  return out;
}

/** The texts to compare: each name, and each source where the core gives one. */
function pairs() {
  const out = [];
  for (const e of entries()) {
    out.push({ key: e.key, core: e.name, kind: 'name' });
    if (e.source !== undefined) out.push({ key: `source.${e.key}`, core: e.source, kind: 'source' });
  }
  return out;
}

test('numbers are read in each language\'s notation', () => {
  assert.deepEqual(numbersIn('Final dense layer (2,048 → 500)', 'en'), [500, 2048]);
  assert.deepEqual(numbersIn('Camada densa final (2.048 → 500)', 'pt'), [500, 2048]);
  assert.deepEqual(numbersIn('Modelo de 70,6 B (C10)', 'pt'), [10, 70.6]);
  assert.deepEqual(numbersIn('Modelo de 70.6 B (C10)', 'es'), [10, 70.6]);
  assert.deepEqual(numbersIn('7 × 7, 64 filtros', 'pt'), [7, 7, 64]);
});

test('every catalog entry has a name and a source in English, Spanish and Portuguese', () => {
  const missing = [];
  for (const p of pairs()) {
    for (const l of LANGS) {
      const t = texts[p.key] && texts[p.key][l];
      if (typeof t !== 'string' || !t.trim()) missing.push(`${p.key}.${l}`);
    }
  }
  assert.deepEqual(missing, [], `web/i18n/catalog.json lacks:\n${missing.join('\n')}`);
});

test('web/i18n/catalog.json names nothing the catalog lacks', () => {
  const known = new Set(pairs().map((p) => p.key));
  const stale = Object.keys(texts).filter((k) => !known.has(k));
  assert.deepEqual(stale, [], `entries for ids the module does not have:\n${stale.join('\n')}`);
});

test('the English name and source are the core\'s own text', () => {
  const differ = pairs().filter((p) => texts[p.key] && texts[p.key].en !== p.core)
    .map((p) => `${p.key}: core "${p.core}", catalog.json "${texts[p.key].en}"`);
  assert.deepEqual(differ, []);
});

test('a translation keeps the numbers of the English text, in its own notation', () => {
  const differ = [];
  for (const p of pairs()) {
    const entry = texts[p.key];
    if (!entry) continue;
    const en = numbersIn(entry.en, 'en');
    for (const l of ['es', 'pt']) {
      if (typeof entry[l] !== 'string' || (PROPER_NOUNS.has(entry.en) && entry[l] === entry.en)) continue;
      const got = numbersIn(entry[l], l);
      if (JSON.stringify(got) !== JSON.stringify(en)) {
        differ.push(`${p.key}.${l}: ${JSON.stringify(got)} where English has ${JSON.stringify(en)} ("${entry[l]}")`);
      }
    }
  }
  assert.deepEqual(differ, []);
});

test('no name or source is left in English, except the proper nouns', () => {
  const same = [];
  for (const p of pairs()) {
    const entry = texts[p.key];
    if (!entry) continue;
    for (const l of ['es', 'pt']) {
      if (entry[l] !== entry.en) continue;
      if (p.kind === 'name' && PROPER_NOUNS.has(entry.en)) continue;
      same.push(`${p.key}.${l}: "${entry[l]}"`);
    }
  }
  assert.deepEqual(same, [], `left in English:\n${same.join('\n')}`);
});
