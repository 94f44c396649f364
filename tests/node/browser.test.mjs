// The module in Chromium: the classic script in a plain page opened from file://, the ES module
// in a page served under the strict CSP, and the same results as in Node.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, copyFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { siteDir, validArgs } from './helpers.mjs';

const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self' data:";
const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'];
let browser;
let dir;
let server;
let origin;

// A page script that calls every function with its valid arguments and a few bad ones, and
// stores what happened on window.__results; written as a separate file (no inline script).
const probe = `
window.__run = async function (createRoofline) {
  const rl = await createRoofline();
  const cases = ${JSON.stringify(validArgs)};
  const out = { values: {}, errors: [] };
  for (const name of Object.keys(cases)) out.values[name] = rl[name](cases[name]);
  for (const bad of [{ n: 'abc', k: 1, m: 1, dtype: 'fp16' }, { n: 1, k: NaN, m: 1, dtype: 'fp16' }, undefined, { n: 1, k: 1, m: 2.5, dtype: 'fp16' }]) {
    try { rl.matmul(bad); out.errors.push('accepted'); }
    catch (e) { out.errors.push([e instanceof Error, e instanceof rl.RooflineError, e.name, e.code, e.field]); }
  }
  return out;
};`;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'roofline-module-'));
  for (const f of ['roofline.js', 'roofline.mjs']) copyFileSync(join(siteDir, f), join(dir, f));
  writeFileSync(join(dir, 'probe.js'), probe);
  writeFileSync(join(dir, 'classic.js'), 'window.__done = window.__run(window.createRoofline);');
  writeFileSync(join(dir, 'esm.mjs'), "import createRoofline from './roofline.mjs';\nwindow.__done = window.__run(createRoofline);\n");
  writeFileSync(join(dir, 'classic.html'), '<!doctype html><meta charset="utf-8"><title>classic</title><script src="probe.js"></script><script src="roofline.js"></script><script src="classic.js"></script>');
  writeFileSync(join(dir, 'esm.html'), '<!doctype html><meta charset="utf-8"><title>esm</title><script src="probe.js"></script><script type="module" src="esm.mjs"></script>');
  server = createServer(async (req, res) => {
    const name = new URL(req.url, 'http://x').pathname.slice(1);
    const type = name.endsWith('.html') ? 'text/html' : 'text/javascript';
    if (name === 'favicon.ico') { res.writeHead(204).end(); return; }
    let body;
    try { body = await readFile(join(dir, name)); } catch { res.writeHead(404).end(); return; }
    res.writeHead(200, { 'Content-Type': type, 'Content-Security-Policy': CSP }).end(body);
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${server.address().port}`;
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: ARGS });
});

after(async () => {
  await browser?.close();
  await new Promise((r) => server.close(r));
  rmSync(dir, { recursive: true, force: true });
});

async function runIn(url, allowed) {
  const context = await browser.newContext();
  const requests = [];
  const problems = [];
  await context.route('**/*', (route) => {
    const u = route.request().url();
    requests.push(u);
    return u.startsWith(allowed) ? route.continue() : route.abort();
  });
  const page = await context.newPage();
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error') problems.push(m.text()); });
  await page.goto(url);
  await page.waitForFunction(() => window.__done !== undefined, null, { timeout: 20000 });
  const result = await page.evaluate(() => window.__done);
  await context.close();
  return { result, requests, problems };
}

function expectations(result) {
  for (const [name, value] of Object.entries(result.values)) assert.notEqual(value, undefined, name);
  assert.equal(result.values.matmul.flops, 65536000);
  assert.equal(result.values.minBatchForRidge.batch, 226);
  assert.deepEqual(result.values.multiply.c, [[265, 650], [80, 300]]);
  assert.deepEqual(result.errors, [
    [true, true, 'RooflineError', 'not_a_number', 'n'],
    [true, true, 'RooflineError', 'not_finite', 'k'],
    [true, true, 'RooflineError', 'missing_field', 'n'],
    [true, true, 'RooflineError', 'not_integer', 'm'],
  ]);
}

test('the classic script works in a plain page opened from file://, fetching nothing', async () => {
  const { result, requests, problems } = await runIn(pathToFileURL(join(dir, 'classic.html')).href, 'file:');
  expectations(result);
  assert.deepEqual(problems, []);
  assert.ok(requests.every((u) => u.startsWith('file:')), requests.join(' '));
  assert.equal(requests.length, 4); // the page and its three scripts: no wasm fetch
});

test('the ES module works in a served page under the strict CSP', async () => {
  const { result, requests, problems } = await runIn(`${origin}/esm.html`, origin);
  expectations(result);
  assert.deepEqual(problems, []);
  assert.ok(requests.every((u) => u.startsWith(origin)), requests.join(' '));
});

test('the classic script works under the strict CSP too', async () => {
  const { result, problems } = await runIn(`${origin}/classic.html`, origin);
  expectations(result);
  assert.deepEqual(problems, []);
});
