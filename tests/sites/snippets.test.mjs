// The MkDocs and VitePress snippets in docs/embedding.md are the test sites' own files, whole.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../web/helpers.mjs';

const doc = readFileSync(join(ROOT, 'docs/embedding.md'), 'utf8');
const blocks = [...doc.matchAll(/^```(\w+)\n([\s\S]*?)^```$/gm)].map((m) => m[2]);
const file = (p) => readFileSync(join(ROOT, 'tests/sites', p), 'utf8');

for (const p of ['mkdocs/mkdocs.yml', 'mkdocs/overrides/main.html', 'mkdocs/overrides/js/shortcuts.js',
  'vitepress/.vitepress/config.mjs', 'vitepress/.vitepress/theme/index.mjs']) {
  test(`docs/embedding.md shows tests/sites/${p} as it is`, () => {
    assert.ok(blocks.includes(file(p)), `no code block in docs/embedding.md equals tests/sites/${p}`);
  });
}

test("the MkDocs page snippet in docs/embedding.md is in the test site's page", () => {
  const snippet = blocks.find((b) => b.startsWith('<div class="calculators">'));
  assert.ok(snippet, 'no <div class="calculators"> snippet');
  assert.ok(file('mkdocs/docs/index.md').includes(snippet));
});
