// Every example in docs/api.md, run against the built module: the documentation cannot drift.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { root, siteDir, validArgs } from './helpers.mjs';

const text = readFileSync(join(root, 'docs/api.md'), 'utf8');
const examples = text.slice(text.indexOf('## Examples'));
const literal = (src) => new Function(`return (${src});`)();

test('docs/api.md has one example per function, and each returns what it says', async () => {
  const rl = await (await import(join(siteDir, 'roofline.mjs'))).default();
  const pattern = /^rl\.(\w+)\((.*)\)\n\/\/ → (.*)$/gm;
  const seen = new Set();
  for (const [, name, args, said] of examples.matchAll(pattern)) {
    seen.add(name);
    const got = rl[name](args ? literal(args) : undefined);
    const list = /^\[ (.*), … \] {2}\((\d+) items\)$/.exec(said);
    if (list) {
      assert.equal(got.length, Number(list[2]), name);
      assert.deepEqual(got[0], literal(list[1]), name);
    } else {
      assert.deepEqual(got, literal(said), name);
    }
  }
  assert.deepEqual([...seen].sort(), Object.keys(validArgs).sort());
});
