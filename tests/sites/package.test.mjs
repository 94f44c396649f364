// The npm package as built: installed offline from the tarball, its manifest (version from
// CMakeLists.txt, license, files, no dependencies, every export a file of the package), and its
// entry points under Node: the ES module and the classic script (CommonJS) compute the same.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createRequire } from 'node:module';
import { BUILD_WASM, installPackage, projectVersion } from './package.mjs';

const dir = join(BUILD_WASM, 'sites', 'npm-check');
let pkg;
before(() => {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), '{ "private": true }\n');
  pkg = installPackage(dir);
});

test('package.json: the project version, a license, files, no dependencies, exports that exist', () => {
  const m = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8'));
  assert.equal(m.name, 'roofline-lab');
  assert.equal(m.version, projectVersion());
  assert.equal(typeof m.license, 'string');
  assert.ok(m.license.length > 0);
  assert.ok(Array.isArray(m.files) && m.files.length > 0);
  for (const k of ['dependencies', 'peerDependencies', 'optionalDependencies']) assert.equal(m[k], undefined, k);
  assert.ok(existsSync(join(pkg, 'README.md')));
  const targets = [];
  const walk = (v) => (typeof v === 'string' ? targets.push(v) : Object.values(v).forEach(walk));
  walk(m.exports);
  for (const k of ['.', './classic', './calculator']) assert.ok(m.exports[k] && m.exports[k].types, `${k} has types`);
  for (const t of targets) {
    // a pattern export ("./snippets/*"): its folder, with files in it
    if (t.endsWith('/*')) assert.ok(readdirSync(join(pkg, t.slice(0, -2))).length > 0, `${t} has files in the package`);
    else assert.ok(existsSync(join(pkg, t)), `${t} is in the package`);
  }
  // the prerendered calculators (docs/embedding.md) and the sheet they link to
  assert.ok(existsSync(join(pkg, 'roofline-calculator.css')));
  assert.ok(readFileSync(join(pkg, 'snippets', 'decode.es.html'), 'utf8').startsWith('<roofline-calculator kind="decode" lang="es"><template shadowrootmode="open">'));
});

test('the ES module and the classic script (CommonJS) give the same API under Node', async () => {
  const esm = await (await import(pathToFileURL(join(pkg, 'roofline.mjs')).href)).default();
  const require = createRequire(join(dir, 'index.js'));
  const cjs = await require('roofline-lab/classic')();
  const args = esm.caseArgs({ id: 'c01-last-layer', function: 'matmul' });
  assert.deepEqual(cjs.matmul(args), esm.matmul(args));
  assert.deepEqual(cjs.functions(), esm.functions());
  assert.throws(() => esm.matmul({ ...args, n: -1 }), (e) => e instanceof esm.RooflineError && e.field === 'n');
});

test('the browser module is the ES module without its Node lines', () => {
  const browser = readFileSync(join(pkg, 'roofline.browser.mjs'), 'utf8');
  assert.doesNotMatch(browser, /\bawait import\(/, 'top-level await that bundlers reject');
  assert.doesNotMatch(browser, /__rooflineNode/);
  assert.match(browser, /export default createRoofline;/);
});
