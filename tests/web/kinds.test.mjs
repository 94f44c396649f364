// A calculator kind is four files (docs/translating.md, "A new calculator"): its module
// (web/src/kind-<kind>.js), its line in web/src/kinds.js, its texts (web/i18n/ui-<kind>.json) and
// its tests (tests/web/kinds/<kind>.test.mjs). This fails when a registered kind lacks one of them,
// when one of its texts lives in another file, or when its registry line does not say what the page
// and the page-cost check read from it (its section, the field its changes go to).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { KINDS, PAGE_KINDS, KIND_CHANGES } from '../../web/src/kinds.js';
import { LANGS, ROOT } from './helpers.mjs';

const I18N = join(ROOT, 'web', 'i18n');
const read = (...p) => readFileSync(join(ROOT, ...p), 'utf8');

/** Every text id of web/i18n/ui*.json, with the file it is in. */
function textFiles() {
  const where = {};
  for (const name of readdirSync(I18N).filter((f) => /^ui(-[a-z0-9-]+)?\.json$/.test(f))) {
    for (const id of Object.keys(JSON.parse(readFileSync(join(I18N, name), 'utf8')))) where[id] = name;
  }
  return where;
}

for (const entry of KINDS) {
  const { kind } = entry;
  test(`the ${kind} kind is its module, its registry line, its texts and its tests`, () => {
    const module = join('web', 'src', `kind-${kind}.js`);
    assert.ok(existsSync(join(ROOT, module)), `${module} is missing`);
    const src = read(module);
    assert.match(src, new RegExp(`export const ${kind}Kind = \\{\\s*kind: '${kind}'`), `${module} exports ${kind}Kind with kind '${kind}'`);
    const texts = join(I18N, `ui-${kind}.json`);
    assert.ok(existsSync(texts), `web/i18n/ui-${kind}.json is missing`);
    const own = JSON.parse(readFileSync(texts, 'utf8'));
    assert.ok(Object.keys(own).length > 0, `web/i18n/ui-${kind}.json has no texts`);
    for (const [id, t] of Object.entries(own)) {
      for (const lang of LANGS) assert.equal(typeof t[lang], 'string', `ui-${kind}.json: ${id} has no ${lang}`);
    }
    assert.ok(own[`${kind}.title`], `ui-${kind}.json has its title, ${kind}.title`);
    // its texts are in its own file, nowhere else
    const elsewhere = Object.entries(textFiles())
      .filter(([id, file]) => (id.startsWith(`${kind}.`) || id.startsWith(`chart.${kind}.`)) && file !== `ui-${kind}.json`);
    assert.deepEqual(elsewhere, [], `texts of ${kind} outside ui-${kind}.json`);
    const tests = join('tests', 'web', 'kinds', `${kind}.test.mjs`);
    assert.ok(existsSync(join(ROOT, tests)), `${tests} is missing`);
    assert.match(read(tests), new RegExp(`kind="${kind}"|kind: '${kind}'|'${kind}'`), `${tests} opens the ${kind} calculator`);
    if (entry.section) {
      assert.ok(own[`section.${entry.section}`], `ui-${kind}.json has its section's title, section.${entry.section}`);
      const c = entry.changes;
      assert.ok(c && (c.field || c.cell) && Array.isArray(c.values) && c.values.length === 2 && c.values[0] !== c.values[1],
        `kinds.js: ${kind} says what the page-cost check changes (changes: { field, values: [two values] })`);
      if (c.field) assert.match(src, new RegExp(`id: '${c.field}'`), `${module} has the field ${c.field} its changes go to`);
    }
  });
}

test('the page and the page-cost check take their lists of calculators from the registry', () => {
  assert.deepEqual(Object.keys(KIND_CHANGES), PAGE_KINDS);
  // no hand-written list of kinds beside the registry: a kind named twice in a row as a list item
  const lists = (src) => src.match(/^\s*(\{ id: '[a-z]+', kind: '[a-z]+' \}|[a-z]+: \{ (field|cell): )/gm) || [];
  assert.deepEqual(lists(read('web', 'src', 'page.js')), [], 'web/src/page.js lists sections of kinds by hand');
  assert.deepEqual(lists(read('tests', 'perf', 'page.mjs')), [], 'tests/perf/page.mjs lists the changes by hand');
  // and every kind's test file belongs to a registered kind
  const files = readdirSync(join(ROOT, 'tests', 'web', 'kinds')).map((f) => f.replace(/\.test\.mjs$/, ''));
  assert.deepEqual(files.filter((f) => !KINDS.some((k) => k.kind === f)), []);
});
