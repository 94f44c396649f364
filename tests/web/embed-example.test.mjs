// The embed example as a well-built page (issue "Fast where people feel it": Lighthouse's
// heading-order and meta-description audits): its headings descend one level at a time, from the
// host's h1 to the calculator's own h3, and it describes itself. Read from the built file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SITE_DIR } from './helpers.mjs';

const html = readFileSync(join(SITE_DIR, 'embed-example.html'), 'utf8');

test('the embed example\'s headings descend one level at a time, h1 → h2 → the calculator\'s h3', () => {
  const levels = [...html.matchAll(/<h([1-6])\b/g)].map((m) => Number(m[1]));
  assert.ok(levels.includes(3), 'the prerendered calculator brings its h3');
  const skips = levels.filter((l, i) => i > 0 && l > levels[i - 1] + 1);
  assert.deepEqual(skips, [], `heading levels in order: ${levels.join(' ')}`);
  assert.equal(levels[0], 1);
});

test('the embed example describes itself (meta description)', () => {
  const m = /<meta name="description" content="([^"]+)">/.exec(html);
  assert.ok(m && m[1].length > 50, 'a description of some length');
});
