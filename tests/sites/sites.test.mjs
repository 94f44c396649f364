// <roofline-calculator> inside two real documentation generators, from the npm package installed
// offline: a MkDocs site (Debian's mkdocs, default theme, served under the strict CSP) and a
// VitePress site (client-side navigation between two pages). For each, in Chromium: the lesson's
// defaults as the core computes them, none of the generator's CSS inside the calculator, no
// console error, no request to another origin, and after navigating away and back a working
// calculator and still one module instance; a page of each with preset calculators
// (docs/embedding.md, "Presets"). Screenshots: tests/web/screenshots/site-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { launch, serve, until, norm, shotPath, field, frames, countWasmInstances, rememberCalculators, holdRequests } from '../web/helpers.mjs';
import { BUILD_WASM, installPackage } from './package.mjs';
import { aliveAfterCollections } from './heap.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const OUT = join(BUILD_WASM, 'sites');
const env = {};
// The strict script policy of web/serve.mjs; MkDocs' default theme also needs inline styles and
// data: images (its own, not the calculator's: tests/web/offline.test.mjs checks the element
// under default-src 'self').
const MKDOCS_CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self' data:; style-src 'self' 'unsafe-inline'; img-src 'self' data:";

function timed(label, fn) {
  const t0 = process.hrtime.bigint();
  const r = fn();
  console.log(`# ${label}: ${(Number(process.hrtime.bigint() - t0) / 1e9).toFixed(1)} s`);
  return r;
}

/** MkDocs: the element's two files copied from the package into docs/, then `mkdocs build`. */
function buildMkdocs() {
  const npmDir = join(OUT, 'npm');
  mkdirSync(npmDir, { recursive: true });
  writeFileSync(join(npmDir, 'package.json'), '{ "private": true }\n');
  const pkg = timed('npm install (MkDocs)', () => installPackage(npmDir));
  for (const f of ['roofline-calculator.js', 'roofline.js']) copyFileSync(join(pkg, f), join(HERE, 'mkdocs/docs', f));
  // a page with a prerendered calculator pasted in (docs/embedding.md), and the sheet it links
  copyFileSync(join(pkg, 'roofline-calculator.css'), join(HERE, 'mkdocs/docs/roofline-calculator.css'));
  writeFileSync(join(HERE, 'mkdocs/docs/prerendered.md'), `# Prerendered

The decode calculator, shown before its script has run:

<div class="calculators">
${readFileSync(join(pkg, 'snippets/decode.es.html'), 'utf8').trim()}
</div>
`);
  const site = join(OUT, 'mkdocs');
  rmSync(site, { recursive: true, force: true });
  timed('mkdocs build', () => execFileSync('mkdocs', ['build', '--quiet', '--strict', '-f', join(HERE, 'mkdocs/mkdocs.yml'), '-d', site], { stdio: 'inherit' }));
  return { site, pkg };
}

/**
 * VitePress: the package installed into the site's folder, then `vitepress build`, served as
 * static files: what an author deploys (the dev server shows a first page sooner, 5.7 s against
 * a 12.2 s build at load 8 on 2 cores, but serves untransformed modules, not the bundle).
 */
function buildVitepress() {
  const root = join(HERE, 'vitepress');
  timed('npm install (VitePress)', () => installPackage(root));
  const site = join(OUT, 'vitepress');
  const cli = join(dirname(require.resolve('vitepress/package.json')), 'bin/vitepress.js');
  timed('vitepress build', () => execFileSync(process.execPath, [cli, 'build', root, '--outDir', site, '--logLevel', 'warn'], { stdio: 'inherit' }));
  return { site };
}

before(async () => {
  const mk = buildMkdocs();
  const vp = buildVitepress();
  // the lesson's defaults, asked of the very module the package carries
  const createRoofline = (await import(pathToFileURL(join(mk.pkg, 'roofline.mjs')).href)).default;
  env.rl = await createRoofline();
  env.browser = await launch();
  env.mkdocs = await serve(mk.site, { csp: MKDOCS_CSP });
  env.vitepress = await serve(vp.site, { csp: null });  // VitePress writes inline scripts of its own
  // a page with nothing but a calculator: the element's own look, for comparison
  const bare = join(OUT, 'bare');
  mkdirSync(bare, { recursive: true });
  for (const f of ['roofline-calculator.js', 'roofline.js']) copyFileSync(join(mk.pkg, f), join(bare, f));
  writeFileSync(join(bare, 'index.html'), '<!doctype html>\n<html lang="en">\n<script src="roofline-calculator.js" defer></script>\n<roofline-calculator kind="matmul"></roofline-calculator>\n');
  env.bare = await serve(bare);
});

after(async () => {
  await env.browser?.close();
  for (const s of [env.mkdocs, env.vitepress, env.bare]) await s?.close();
});

/** A page that counts WebAssembly instances and records console errors and foreign requests. */
async function open(origin, path, { colorScheme = 'light', width = 1100 } = {}) {
  const context = await env.browser.newContext({ viewport: { width, height: 900 }, locale: 'en-US', colorScheme });
  await countWasmInstances(context);
  const foreign = [];
  const errors = [];
  await context.route('**/*', (route) => {
    const u = route.request().url();
    if (u.startsWith(origin) || u.startsWith('data:')) return route.continue();
    foreign.push(u);
    return route.abort();
  });
  const page = await context.newPage();
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('response', (r) => { if (r.status() >= 400) errors.push(`${r.status()} ${r.url()}`); });
  await page.goto(origin + path);
  return { page, context, foreign, errors };
}

async function ready(page, count) {
  await until(page, (n) => {
    const els = [...document.querySelectorAll('roofline-calculator')];
    return els.length === n && els.every((el) => el.shadowRoot && el.shadowRoot.querySelector('output[data-row]'));
  }, count, { timeout: 30000 });
  await frames(page);
}

/** A result as shown (read through the DOM: a Playwright locator would keep the element alive). */
async function shown(page, kind, row) {
  return norm(await page.evaluate(([k, r]) => document.querySelector(`roofline-calculator[kind="${k}"]`).shadowRoot.querySelector(`output[data-row="${r}"]`).textContent, [kind, row]));
}

/** The lesson's defaults, from the core: the matmul's FLOPs (C01) and decoding's tokens per second (L4). */
function lessonNumbers() {
  const mm = env.rl.matmul(env.rl.caseArgs({ id: 'c01-last-layer', function: 'matmul' }));
  // the calculator's default counts each conversation's KV cache (the lesson's 8,192 tokens)
  const kv = env.rl.kvCacheBytes(env.rl.caseArgs({ id: 'four-conversations', function: 'kvCacheBytes' })).bytes;
  const dec = env.rl.decode({ ...env.rl.caseArgs({ id: 'llama-l4-decode', function: 'decode' }), kvBytesPerSequence: kv });
  return { flops: mm.flops, tokensPerSecond: dec.tokensPerSecond };
}

async function checkNumbers(page, { matmul, decode }) {
  const want = lessonNumbers();
  if (matmul) assert.equal((await shown(page, 'matmul', 'flops')).replace(/[^0-9]/g, ''), String(want.flops), 'matmul FLOPs');
  if (decode) {
    // es-MX and en write 17.5; the shown value is the core's, rounded to three figures
    const text = await shown(page, 'decode', 'total');
    assert.ok(Math.abs(Number(text.replace(/,/g, '')) - want.tokensPerSecond) < 0.05, `tokens per second: ${text} vs ${want.tokensPerSecond}`);
  }
}

// What inherits into a shadow root, or would if the element did not set it.
const STYLE_PROBES = ['.calc-title', '.calc-lede', 'input[type="text"]', 'output[data-row]', 'label'];
async function calcStyles(page, kind) {
  return page.evaluate(({ k, probes }) => {
    const el = document.querySelector(`roofline-calculator[kind="${k}"]`);
    const out = {};
    for (const sel of probes) {
      const x = el.shadowRoot.querySelector(sel);
      if (!x) { out[sel] = 'missing'; continue; }
      const s = getComputedStyle(x);
      out[sel] = ['font-family', 'font-size', 'font-style', 'font-weight', 'line-height', 'letter-spacing', 'word-spacing',
        'text-transform', 'text-align', 'text-indent', 'color'].map((p) => `${p}: ${s.getPropertyValue(p)}`).join('; ');
    }
    return out;
  }, { k: kind, probes: STYLE_PROBES });
}

/** The element's own look: the same calculator on a page with no CSS at all. */
async function bareStyles() {
  const { page, context } = await open(env.bare.url, 'index.html');
  try {
    await ready(page, 1);
    return await calcStyles(page, 'matmul');
  } finally {
    await context.close();
  }
}

async function instances(page) {
  return page.evaluate(() => globalThis.__wasmInstances);
}

test('MkDocs: two calculators on one page, one in Spanish, under the strict CSP', async () => {
  const { page, context, foreign, errors } = await open(env.mkdocs.url, 'index.html');
  try {
    await ready(page, 2);
    await checkNumbers(page, { matmul: true, decode: true });
    assert.match(await page.locator('roofline-calculator[kind="decode"] .calc-title').textContent(), /[áéíóúñ]|por segundo|tokens/i);
    assert.equal(await page.getAttribute('roofline-calculator[kind="matmul"] >> xpath=ancestor-or-self::*[@lang][1]', 'lang'), 'en');
    assert.equal(await instances(page), 1, 'two calculators, one module');
    assert.deepEqual(await calcStyles(page, 'matmul'), await bareStyles(), "the theme's CSS reached the calculator");
    await page.screenshot({ path: shotPath('site-mkdocs.png'), fullPage: true });
    // away (a plain link: a new page) and back
    await page.click('a[href="other.html"] >> nth=-1');
    await page.waitForURL(/other\.html$/);
    await page.goBack();
    await ready(page, 2);
    await field(page, 'matmul', 'n').fill('1');
    await until(page, () => document.querySelector('roofline-calculator[kind="matmul"]').shadowRoot.querySelector('output[data-row="flops"]').textContent.replace(/\D/g, '') === '2048000');
    assert.equal(await instances(page), 1);
    assert.deepEqual(foreign, []);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('MkDocs: a prerendered calculator pasted into a page shows before its script, then the element takes it over', async () => {
  const context = await env.browser.newContext({ viewport: { width: 1100, height: 900 }, locale: 'en-US' });
  const errors = [];
  const release = await holdRequests(context, '**/roofline-calculator.js');
  const page = await context.newPage();
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  const read = () => page.evaluate(() => {
    const r = document.querySelector('roofline-calculator[kind="decode"]').shadowRoot;
    const total = r && r.querySelector('output[data-row="total"]');
    return {
      total: total ? total.textContent : null,
      visible: Boolean(total && total.checkVisibility()),
      prerendered: Boolean(r && r.querySelector('[data-prerendered]')),
    };
  });
  try {
    await page.goto(`${env.mkdocs.url}prerendered.html`, { waitUntil: 'commit' });
    await until(page, () => {
      const el = document.querySelector('roofline-calculator[kind="decode"]');
      const out = el && el.shadowRoot && el.shadowRoot.querySelector('output[data-row="total"]');
      return Boolean(out && out.checkVisibility());
    });
    const before = await read();
    assert.equal(before.prerendered, true, 'MkDocs passed the declarative shadow root through');
    assert.ok(before.total && before.total.trim() !== '');
    release();
    await until(page, () => !document.querySelector('roofline-calculator[kind="decode"]').shadowRoot.querySelector('[data-prerendered]'));
    const after = await read();
    assert.equal(after.total, before.total, 'the module shows what the page showed');
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

/** What the n-th calculator of the page shows: its selects, its fields and its preset messages. */
function presetState(page, n) {
  return page.evaluate((i) => {
    const r = document.querySelectorAll('roofline-calculator')[i].shadowRoot;
    const out = { selects: {}, fields: {}, notes: [] };
    for (const s of r.querySelectorAll('select[name]')) out.selects[s.name] = s.value;
    for (const f of r.querySelectorAll('.field[data-field]')) out.fields[f.dataset.field] = f.querySelector('input[name]').value;
    const note = r.querySelector('.preset-error');
    if (note && note.checkVisibility()) out.notes = [...note.querySelectorAll('p')].map((p) => p.textContent);
    return out;
  }, n);
}

test('MkDocs: a page of calculators with presets (docs/embedding.md, Presets), one of them bad, under the strict CSP', async () => {
  const { page, context, foreign, errors } = await open(env.mkdocs.url, 'presets.html');
  try {
    await ready(page, 2);
    const good = await presetState(page, 0);
    assert.deepEqual([good.selects.model, good.selects.gpu, good.fields.batch, good.fields.tokens, good.notes], ['mixtral-8x7b', 'h100-sxm', '32', '8192', []]);
    const bad = await presetState(page, 1);
    const model = env.rl.lessonCase({ id: 'llama-l4-decode' }).values.model;
    assert.deepEqual([bad.selects.model, bad.selects.gpu], [model, 'a100-80gb'], 'the unknown model left out, the GPU applied');
    assert.equal(bad.notes.length, 1);
    assert.match(bad.notes[0], /^model: não há nenhum modelo com o id “nope”/);
    await page.screenshot({ path: shotPath('site-mkdocs-presets.png'), fullPage: true });
    assert.deepEqual(foreign, []);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('VitePress: a page with a preset calculator, reached by client-side navigation', async () => {
  const { page, context, foreign, errors } = await open(env.vitepress.url, 'guide/decode.html');
  try {
    await ready(page, 1);
    assert.equal((await presetState(page, 0)).selects.model, env.rl.lessonCase({ id: 'llama-l4-decode' }).values.model);
    await page.evaluate(() => { globalThis.__sameDocument = true; });
    await page.click('.vp-doc a[href$="presets.html"]');
    await page.waitForURL(/guide\/presets\.html$/);
    await until(page, () => document.querySelector('roofline-calculator[model]')?.shadowRoot?.querySelector('output[data-row="total"]'));
    await ready(page, 1);
    assert.equal(await page.evaluate(() => globalThis.__sameDocument), true, 'navigation reloaded the page');
    const s = await presetState(page, 0);
    assert.deepEqual([s.selects.model, s.selects.gpu, s.fields.batch, s.notes], ['llama3.1-70b', 'a100-80gb', '8', []]);
    await page.screenshot({ path: shotPath('site-vitepress-presets.png'), fullPage: true });
    assert.equal(await instances(page), 1);
    assert.deepEqual(foreign, []);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('VitePress: the element on two pages, client-side navigation away and back', async () => {
  const { page, context, foreign, errors } = await open(env.vitepress.url, '');
  try {
    await ready(page, 1);
    await checkNumbers(page, { matmul: true });
    assert.deepEqual(await calcStyles(page, 'matmul'), await bareStyles(), "the theme's CSS reached the calculator");
    await page.screenshot({ path: shotPath('site-vitepress-matmul.png'), fullPage: true });
    // client-side navigation: the same document, the old element removed, a new one inserted
    await page.evaluate(() => { globalThis.__sameDocument = true; });
    await rememberCalculators(page);
    await page.click('.vp-doc a[href$="guide/decode.html"]');
    await page.waitForURL(/guide\/decode\.html$/);
    // (the old page's element may still be there for a moment: wait for the new one)
    await until(page, () => document.querySelector('roofline-calculator[kind="decode"]')?.shadowRoot?.querySelector('output[data-row="total"]'));
    await ready(page, 1);
    await checkNumbers(page, { decode: true });
    await rememberCalculators(page);
    await page.screenshot({ path: shotPath('site-vitepress-decode.png'), fullPage: true });
    await page.click('.vp-doc a[href="./../"]');
    await until(page, () => document.querySelector('roofline-calculator[kind="matmul"]')?.shadowRoot?.querySelector('output[data-row="flops"]'));
    await ready(page, 1);
    assert.equal(await page.evaluate(() => globalThis.__sameDocument), true, 'navigation reloaded the page');
    await field(page, 'matmul', 'n').fill('1');
    await until(page, () => document.querySelector('roofline-calculator[kind="matmul"]').shadowRoot.querySelector('output[data-row="flops"]').textContent.replace(/\D/g, '') === '2048000');
    assert.equal(await instances(page), 1, 'one module instance across navigations');
    // the two elements removed by the navigations are gone: only the one on the page is alive
    // (collections forced through the DevTools protocol until the count settles: heap.mjs)
    assert.equal(await aliveAfterCollections(page), 0, `a removed element is still referenced: ${await page.evaluate(() => globalThis.__alive.join(', '))}`);
    assert.deepEqual(foreign, []);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

/** The calculator #id's own background, and the selects of it that clip their choice. */
async function themeState(page, id) {
  return page.evaluate((x) => {
    const root = document.getElementById(x).shadowRoot;
    const canvas = document.createElement('canvas').getContext('2d');
    const clipped = [...root.querySelectorAll('select')].filter((sel) => {
      const cs = getComputedStyle(sel);
      canvas.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
      return canvas.measureText(sel.options[sel.selectedIndex].text).width > sel.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 16;
    }).map((sel) => sel.name);
    return { background: getComputedStyle(root.querySelector('.calc')).backgroundColor, clipped, width: Math.round(document.getElementById(x).clientWidth) };
  }, id);
}
const LIGHT_BG = 'rgb(255, 255, 255)';
const DARK_BG = 'rgb(21, 24, 29)';

test('MkDocs, a reader whose system is dark: the light theme gets a light calculator, theme="dark" pins one dark', async () => {
  const { page, context, foreign, errors } = await open(env.mkdocs.url, 'theme.html', { colorScheme: 'dark' });
  try {
    await ready(page, 2);
    const follows = await themeState(page, 'follows');
    assert.equal(follows.background, LIGHT_BG, 'auto on a light theme');
    assert.deepEqual(follows.clipped, [], `selects clip their choice in a ${follows.width} px column`);
    assert.equal((await themeState(page, 'pinned')).background, DARK_BG, 'theme="dark"');
    await page.screenshot({ path: shotPath('site-mkdocs-theme-dark-reader.png'), fullPage: true });
    assert.deepEqual(foreign, []);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('VitePress: the calculator follows the site\'s light/dark switch; theme="light" pins one light', async () => {
  // (a desktop wide enough for VitePress to show its appearance switch in the bar)
  const { page, context, foreign, errors } = await open(env.vitepress.url, 'guide/theme.html', { colorScheme: 'dark', width: 1440 });
  try {
    await ready(page, 2);
    // VitePress follows the dark reader (class="dark" on <html>), and so does the calculator
    await until(page, () => document.documentElement.classList.contains('dark'));
    let follows = await themeState(page, 'follows');
    assert.equal(follows.background, DARK_BG, 'auto on the dark site');
    assert.deepEqual(follows.clipped, [], `selects clip their choice in a ${follows.width} px column`);
    assert.equal((await themeState(page, 'pinned')).background, LIGHT_BG, 'theme="light" on the dark site');
    // the reader switches the site to light with its own button: the calculator follows at once
    await page.locator('.VPNavBar .VPSwitchAppearance:visible').first().click();
    await until(page, () => !document.documentElement.classList.contains('dark'));
    await until(page, (bg) => getComputedStyle(document.getElementById('follows').shadowRoot.querySelector('.calc')).backgroundColor === bg, LIGHT_BG);
    follows = await themeState(page, 'follows');
    assert.equal(follows.background, LIGHT_BG, 'auto on the site switched to light');
    assert.equal((await themeState(page, 'pinned')).background, LIGHT_BG);
    await page.screenshot({ path: shotPath('site-vitepress-theme-switched-light.png'), fullPage: true });
    assert.deepEqual(foreign, []);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});
