// The catalog's names and sources in the reader's language (the data files under core/catalog,
// read by web/catalog-texts.mjs): every device,
// model, model stage, weight format and lesson case of the module has a name in English,
// Spanish and Portuguese, and a source in all three; the English is the core's own text; a
// translation keeps the English text's numbers (written in its language's notation); and no
// name is left in English unless it is a proper noun. No browser needed:
//   SITE_DIR=build-wasm/site node --test tests/web/catalog-names.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { catalogTexts } from '../../web/catalog-texts.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SITE_DIR = resolve(ROOT, process.env.SITE_DIR || 'build-wasm/site');
import { LANGS } from '../../web/src/lang.js';
import { NUMBERS } from '../../web/src/numbers.js';

// Names that are the same in every language: brand names of GPUs and models, and the names of
// number formats. Anything else left in English is an untranslated name.
const PROPER_NOUNS = new Set([
  'NVIDIA T4', 'NVIDIA L4', 'NVIDIA A100 40 GB', 'NVIDIA A100 80 GB', 'NVIDIA H100 SXM', 'NVIDIA H200 SXM',
  'Llama 3 8B', 'Qwen3.8-27B', 'ResNet-50 (C01)',
  'BF16', 'FP16', 'FP8',
]);

/** A maker's or a model family's name with its model number ("NVIDIA B200", "Qwen3-30B-A3B"), or a link's ("NVLink 4"). */
const BRANDS = /^(NVIDIA|AMD|Apple|Google|Llama|Mistral|Mixtral|Qwen|Gemma|DeepSeek|gpt-oss|Phi|NVLink|PCIe)[^()]*$/;
function isProperNoun(name) {
  return PROPER_NOUNS.has(name) || BRANDS.test(name);
}

async function loadModule() {
  const mjs = join(SITE_DIR, 'roofline.mjs');
  if (!existsSync(mjs)) throw new Error(`${mjs} is missing: build the module first (cmake --build build-wasm)`);
  return (await import(pathToFileURL(mjs).href)).default();
}

/**
 * The numbers of a text, read in its language's notation (web/src/lang.js): en-US and es-MX write
 * 2,048 and 0.695, pt-BR writes 2.048 and 0,695.
 *
 * A number that is part of a name or a code is written the same in every language, so it is
 * read as written (English notation) whatever the language, never in pt-BR's: one glued to a
 * letter, '_', '-' or '.' on its left ("Qwen2.5", "Llama-3.1-70B", "v0.1", "C10", "gpt-oss-120b"),
 * or to a letter, '_', '-' or a '.' and a letter on its right ("70B", "128K", "36.6B", "8x7B",
 * "4.50.0.dev0"), and the version right after a model family's name and a space ("Llama 3.1",
 * "Qwen 2.5", "Gemma 2"). Such a number still counts, the same in the English text and in a
 * translation; a version with several dots counts as its parts (4.50.0 → 4, 50, 0). A number
 * next to a '/' is prose ("165.2/330.4" dense/sparse, "165,2/330,4" in Portuguese).
 */
export function numbersIn(text, lang) {
  // a model family's name and a space: the number right after it is the family's version
  const FAMILY_BEFORE = /(?:Llama|Qwen|Gemma|Phi|Mistral|Mixtral|DeepSeek) $/;
  const s = String(text);
  const out = [];
  for (const m of s.matchAll(/\d+(?:[.,]\d+)*/g)) {
    const before = s.slice(0, m.index);
    const after = s.slice(m.index + m[0].length);
    const code = /[\p{L}_.-]$/u.test(before) || /^(?:[\p{L}_-]|\.\p{L})/u.test(after) || FAMILY_BEFORE.test(before);
    if (code) {
      const written = m[0].replace(/,/g, '');
      const dots = written.split('.');
      out.push(...(dots.length > 2 ? dots : [written]).map(Number));
    } else {
      const { group, decimal } = NUMBERS[lang];
      out.push(Number(m[0].split(group).join('').replace(decimal, '.')));
    }
  }
  return out.sort((a, b) => a - b);
}

const rl = await loadModule();
const texts = catalogTexts();

/** Every catalog entry: { key, name, source } with key as the page asks for it ("gpu.t4" …). */
function entries() {
  const out = [];
  for (const g of rl.gpus()) out.push({ key: `gpu.${g.id}`, name: g.name, source: g.source });
  for (const l of rl.links()) out.push({ key: `link.${l.id}`, name: l.name, source: l.source });
  for (const m of rl.models()) {
    out.push({ key: `model.${m.id}`, name: m.name, source: m.source });
    for (const s of m.stages || []) out.push({ key: `stage.${m.id}.${s.id}`, name: s.name });
  }
  for (const f of rl.formats()) out.push({ key: `format.${f.id}`, name: f.name, source: f.source });
  for (const c of rl.cases()) out.push({ key: `case.${c.id}`, name: c.name, source: c.source });
  for (const m of rl.measurements()) out.push({ key: `measurement.${m.id}`, name: m.name, source: m.source });
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
  // a number in a name or a code is read as written, in every language alike
  for (const l of LANGS) {
    assert.deepEqual(numbersIn('meta-llama/Llama-3.1-70B', l), [3.1, 70]);
    assert.deepEqual(numbersIn('o tokenizador do Llama 3.1', l), [3.1]);
    assert.deepEqual(numbersIn('Qwen/Qwen2.5-7B e Gemma 2', l), [2, 2.5, 7]);
    assert.deepEqual(numbersIn('mistralai/Mixtral-8x7B-v0.1.json', l), [0.1, 7, 8]);
    assert.deepEqual(numbersIn('transformers_version 4.50.0.dev0', l), [0, 0, 4, 50]);
    assert.deepEqual(numbersIn('"Activation parameters: 36.6B (including 0.9B)"', l), [0.9, 36.6]);
    assert.deepEqual(numbersIn('contexto de 128K', l), [128]);
  }
  assert.deepEqual(numbersIn('165,2/330,4 TFLOPS', 'pt'), [165.2, 330.4]);
  assert.deepEqual(numbersIn('Parámetros: 8.03 mil millones', 'es'), numbersIn('Parameters: 8.03B', 'en'));
  assert.deepEqual(numbersIn('Parâmetros: 8,03 bilhões', 'pt'), numbersIn('Parameters: 8.03B', 'en'));
  // and a number that a translation drops, changes or writes in the other notation still differs
  assert.notDeepEqual(numbersIn('36,6 mil millones', 'es'), numbersIn('36.6 billion', 'en'));
  assert.notDeepEqual(numbersIn('8.324.201.984 parámetros', 'es'), numbersIn('8,324,201,984 parameters', 'en'));
  assert.notDeepEqual(numbersIn('36.6 bilhões', 'pt'), numbersIn('36.6 billion', 'en'));
  assert.notDeepEqual(numbersIn('meta-llama/Llama-3.2-70B', 'pt'), numbersIn('meta-llama/Llama-3.1-70B', 'en'));
  assert.notDeepEqual(numbersIn('a ficha arredonda para 8B', 'pt'), numbersIn('the card rounds it to 7B', 'en'));
  assert.notDeepEqual(numbersIn('Parâmetros: bilhões', 'pt'), numbersIn('Parameters: 8.03B', 'en'));
});

test('every catalog entry has a name and a source in English, Spanish and Portuguese', () => {
  const missing = [];
  for (const p of pairs()) {
    for (const l of LANGS) {
      const t = texts[p.key] && texts[p.key][l];
      if (typeof t !== 'string' || !t.trim()) missing.push(`${p.key}.${l}`);
    }
  }
  assert.deepEqual(missing, [], `the catalog's files lack:\n${missing.join('\n')}`);
});

test('the catalog\'s texts name nothing the module lacks', () => {
  const known = new Set(pairs().map((p) => p.key));
  const stale = Object.keys(texts).filter((k) => !known.has(k));
  assert.deepEqual(stale, [], `entries for ids the module does not have:\n${stale.join('\n')}`);
});

test('the English name and source are the core\'s own text', () => {
  const differ = pairs().filter((p) => texts[p.key] && texts[p.key].en !== p.core)
    .map((p) => `${p.key}: core "${p.core}", the file's text "${texts[p.key].en}"`);
  assert.deepEqual(differ, []);
});

test('a translation keeps the numbers of the English text, in its own notation', () => {
  const differ = [];
  for (const p of pairs()) {
    const entry = texts[p.key];
    if (!entry) continue;
    const en = numbersIn(entry.en, 'en');
    for (const l of ['es', 'pt']) {
      if (typeof entry[l] !== 'string' || (isProperNoun(entry.en) && entry[l] === entry.en)) continue;
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
      if (p.kind === 'name' && isProperNoun(entry.en)) continue;
      same.push(`${p.key}.${l}: "${entry[l]}"`);
    }
  }
  assert.deepEqual(same, [], `left in English:\n${same.join('\n')}`);
});
