// The catalog's names and sources in every language, for the page: read from the catalog's data
// files (core/catalog/devices/*.json, models/*.json, measurements/*.json: English in the file's own
// fields, Spanish and Portuguese under "translations") and merged with web/i18n/catalog.json
// (weight formats and lesson cases, which live in the core's code). Keys as the page asks for
// them: "gpu.t4", "source.gpu.t4", "model.llama3-8b", "stage.resnet50.conv1", "measurement.<id>", ...
// A name a file does not translate is a proper noun ("NVIDIA B200"), the same in every language.
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const CATALOG_DIR = join(ROOT, 'core/catalog');
export const LANGS = ['en', 'es', 'pt'];

/** Every data file as { path, data }, path relative to core/catalog ("devices/t4.json"). */
export function catalogFiles() {
  const out = [];
  for (const folder of ['devices', 'models', 'measurements']) {
    for (const name of readdirSync(join(CATALOG_DIR, folder)).filter((f) => f.endsWith('.json')).sort()) {
      const path = `${folder}/${name}`;
      let data;
      try {
        data = JSON.parse(readFileSync(join(CATALOG_DIR, path), 'utf8'));
      } catch (e) {
        throw new Error(`core/catalog/${path}: ${e.message}`);
      }
      out.push({ path, data });
    }
  }
  return out;
}

/** The texts of the data files, keyed as web/i18n/catalog.json is. */
export function fileTexts() {
  const texts = {};
  const put = (path, key, en, pick) => {
    const entry = { en };
    for (const lang of LANGS.slice(1)) {
      const t = pick(lang);
      if (t !== undefined && (typeof t !== 'string' || !t.trim())) throw new Error(`core/catalog/${path}: ${key} in ${lang} must be a text`);
      entry[lang] = t === undefined ? null : t;
    }
    texts[key] = entry;
  };
  for (const { path, data } of catalogFiles()) {
    const kind = path.startsWith('devices/') ? 'gpu' : path.startsWith('measurements/') ? 'measurement' : 'model';
    const tr = (lang) => (data.translations && data.translations[lang]) || {};
    put(path, `${kind}.${data.id}`, data.name, (lang) => tr(lang).name ?? data.name);
    // a missing translation of a source stays null: the build and the catalog test name it
    put(path, `source.${kind}.${data.id}`, data.source, (lang) => tr(lang).source);
    const stages = (data.lesson && data.lesson.stages) || [];
    for (const s of stages) {
      put(path, `stage.${data.id}.${s.id}`, s.name, (lang) => (tr(lang).stages || {})[s.id]);
    }
  }
  return texts;
}

/** web/i18n/catalog.json and the data files' texts together; a key given twice is an error. */
export function catalogTexts(i18nCatalog) {
  const all = { ...i18nCatalog };
  for (const [key, entry] of Object.entries(fileTexts())) {
    if (key in all) throw new Error(`web/i18n/catalog.json: ${key} belongs in its data file under core/catalog`);
    all[key] = entry;
  }
  return all;
}
