// The package's TypeScript types, checked with tsc against the installed tarball: usage.ts
// (every API function, the element's attributes and event) compiles under --strict; wrong.ts
// fails with exactly one error on each line marked @expect-error, and on no other line.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { installPackage } from '../sites/package.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const TSC = require.resolve('typescript/bin/tsc');
const ts = require('typescript');

before(() => installPackage(HERE));

function tsc(config) {
  const r = spawnSync(process.execPath, [TSC, '-p', join(HERE, config), '--pretty', 'false'], { cwd: HERE, encoding: 'utf8' });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

test('usage.ts compiles with tsc --noEmit --strict against the package', () => {
  const r = tsc('tsconfig.json');
  assert.equal(r.status, 0, r.out);
});

test('usage.ts calls every function of the Roofline interface', () => {
  const dts = join(HERE, 'node_modules/roofline-lab/roofline.d.mts');
  const decl = ts.createSourceFile(dts, readFileSync(dts, 'utf8'), ts.ScriptTarget.Latest, true);
  const api = [];
  decl.forEachChild((n) => {
    if (ts.isInterfaceDeclaration(n) && n.name.text === 'Roofline') {
      for (const m of n.members) if (ts.isMethodSignature(m)) api.push(m.name.getText(decl));
    }
  });
  assert.ok(api.length > 30, `read ${api.length} functions from roofline.d.mts`);
  const src = ts.createSourceFile('usage.ts', readFileSync(join(HERE, 'usage.ts'), 'utf8'), ts.ScriptTarget.Latest, true);
  const called = new Set();
  const visit = (n) => {
    if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression)) called.add(n.expression.name.text);
    n.forEachChild(visit);
  };
  visit(src);
  assert.deepEqual(api.filter((f) => !called.has(f)), []);
});

test('wrong.ts fails to compile, on each marked line and only there', () => {
  const lines = readFileSync(join(HERE, 'wrong.ts'), 'utf8').split('\n');
  const expected = lines.map((l, i) => (l.includes('// @expect-error') ? i + 1 : 0)).filter(Boolean);
  assert.ok(expected.length >= 5);
  const r = tsc('tsconfig.wrong.json');
  assert.notEqual(r.status, 0, 'wrong.ts compiled');
  const elsewhere = r.out.split('\n').filter((l) => /error TS\d+/.test(l) && !/^wrong\.ts\(/.test(l));
  assert.deepEqual(elsewhere, [], 'errors outside wrong.ts');
  const failing = [...new Set([...r.out.matchAll(/wrong\.ts\((\d+),\d+\): error TS\d+/g)].map((m) => Number(m[1])))].sort((a, b) => a - b);
  assert.deepEqual(failing, expected, r.out);
});
