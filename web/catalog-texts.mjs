// The catalog's names and sources in every language, for the page: read from the catalog's data
// files (core/catalog/devices/, links/, models/, measurements/, formats/ and cases/: English in the
// file's own fields, Spanish and Portuguese under "translations"). Keys as the page asks for
// them: "gpu.t4", "source.gpu.t4", "model.llama3-8b", "stage.resnet50.conv1", "format.int4",
// "case.c01-last-layer", "measurement.<id>", ...
// A name a file does not translate is a proper noun ("NVIDIA B200"), the same in every language.
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const CATALOG_DIR = join(ROOT, 'core/catalog');
import { LANGS } from './src/lang.js';

/** Every data file as { path, data }, path relative to core/catalog ("devices/t4.json"). */
export function catalogFiles() {
  const out = [];
  for (const folder of ['devices', 'links', 'models', 'measurements', 'formats', 'cases']) {
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

/** Every catalog text, read from the data files (the one place they are written), keyed as the
 *  page asks for them. */
export function catalogTexts() {
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
    const kind = { devices: 'gpu', links: 'link', models: 'model', measurements: 'measurement', formats: 'format', cases: 'case' }[path.split('/')[0]];
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
