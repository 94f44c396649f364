// Shared helpers for the page's browser tests: Debian's Chromium through playwright-core, the
// built site from SITE_DIR (default build-wasm/site), a local server that sends the strict CSP,
// and readers for what a <roofline-calculator> shows.
import { existsSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import assert from 'node:assert/strict';
import { before, after } from 'node:test';
import { chromium } from 'playwright-core';
import { createSiteServer } from '../../web/serve.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
export const ROOT = resolve(HERE, '../..');
export const SITE_DIR = resolve(ROOT, process.env.SITE_DIR || 'build-wasm/site');
export const SHOTS = join(HERE, 'screenshots');
export { LANGS } from '../../web/src/lang.js';
// the calculators with a section of their own on the page (web/src/kinds.js)
import { PAGE_KINDS } from '../../web/src/kinds.js';
export const KINDS = PAGE_KINDS;

export const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'];

export function requireSite(files = ['index.html', 'roofline-lab.html', 'embed-example.html', 'roofline.js', 'roofline-calculator.js']) {
  for (const f of files) {
    if (!existsSync(join(SITE_DIR, f))) {
      throw new Error(`${join(SITE_DIR, f)} is missing: build the site first (cmake --build build-wasm, or node web/build.mjs --module-dir build-wasm/site --out build-wasm/site)`);
    }
  }
}

/** Chromium; with { gc: true } pages can call gc() (to check that nothing is leaked). */
export async function launch({ gc = false } = {}) {
  return chromium.launch({ executablePath: CHROMIUM, args: gc ? [...ARGS, '--js-flags=--expose-gc'] : ARGS });
}

/**
 * Registers before/after hooks that start Chromium and the site's server once for a test file;
 * the returned object holds them while the tests run ({ browser, site }).
 */
export function useBrowserAndSite({ gc = false } = {}) {
  const env = { browser: null, site: null };
  before(async () => {
    requireSite();
    env.browser = await launch({ gc });
    env.site = await serve();
  });
  after(async () => {
    await env.browser?.close();
    await env.site?.close();
  });
  return env;
}

/** Starts the site's own static server (with the strict CSP) on a free port. */
export async function serve(dir = SITE_DIR, options = {}) {
  const server = createSiteServer(dir, options);
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${server.address().port}/`;
  return { url, close: () => new Promise((r) => server.close(r)) };
}

/**
 * A page that records every request and every console error, and answers requests to any
 * origin other than `allowedOrigin` (or any non-file URL when allowedOrigin is 'file:') with an
 * abort, remembering them so a test can fail on them. `touch`: a phone's touch screen (tap());
 * `readyTimeout`: how long waitReady may wait for the whole page.
 */
export async function openPage(browser, url, { allowedOrigin, colorScheme = 'light', viewport = { width: 1100, height: 900 }, locale = 'en-US', bypassCSP = false, touch = false, readyTimeout } = {}) {
  const context = await browser.newContext({ colorScheme, viewport, locale, bypassCSP, hasTouch: touch, isMobile: touch });
  const foreign = [];
  const errors = [];
  await context.route('**/*', (route) => {
    const u = route.request().url();
    const ok = allowedOrigin === 'file:' ? u.startsWith('file:') || u.startsWith('data:') : u.startsWith(allowedOrigin) || u.startsWith('data:');
    if (ok) return route.continue();
    foreign.push(u);
    return route.abort();
  });
  const page = await context.newPage();
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  await page.goto(url);
  await waitReady(page, { timeout: readyTimeout });
  return { page, context, foreign, errors };
}

/**
 * Polls page.evaluate(fn, arg) from Node until it returns something truthy. (Playwright's
 * waitForFunction evaluates strings in the page, which the strict CSP forbids.)
 */
export async function until(page, fn, arg, { timeout = 15000, interval = 50 } = {}) {
  const end = Date.now() + timeout;
  for (;;) {
    const v = await page.evaluate(fn, arg);
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${String(fn).slice(0, 160)}`);
    await new Promise((r) => setTimeout(r, interval));
  }
}

/**
 * Runs one worker of roofline-measure-worker.js on `page` with the start message `start` (its
 * `type` added, and the module's URLs where `start` names none) and resolves with its first
 * `done` or `error` message. `team: { index, size, sharedBytes }` becomes a team with a
 * SharedArrayBuffer of that many bytes, made in the page.
 */
export function runWorker(page, start) {
  return page.evaluate((start) => new Promise((resolve) => {
    const at = (name) => new URL(name, location.href).href;
    const w = new Worker('roofline-measure-worker.js');
    w.onmessage = (e) => {
      if (e.data.type === 'done' || e.data.type === 'error') {
        w.terminate();
        resolve(e.data);
      }
    };
    const { team, ...rest } = start;
    w.postMessage({
      type: 'start',
      urls: { simd: at('roofline-measure.js'), scalar: at('roofline-measure-scalar.js') },
      ...rest,
      ...(team ? { team: { index: team.index, size: team.size, shared: new SharedArrayBuffer(team.sharedBytes) } } : {}),
    });
  }), start);
}

/** Waits until every calculator on the page has rendered, and its charts with it. */
export async function waitReady(page, { timeout = 20000 } = {}) {
  await until(page, () => {
    // the lesson's page renders its later sections in idle time: wait for all of them
    const lab = document.getElementById('lab');
    if (lab && lab.dataset.rendered !== 'all') return false;
    const els = [...document.querySelectorAll('roofline-calculator')];
    return els.length > 0 && els.every((el) => el.shadowRoot && el.shadowRoot.querySelector('.calc, .practice, .form-error'));
  }, null, { timeout });
  await idle(page);
}

/** Waits two animation frames: a chart is drawn in the frame after its inputs change. */
export async function frames(page) {
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

export const norm = (s) => String(s).replace(/[\u00a0\u202f]/g, ' ').replace(/\s+%/g, '%').trim();

/** { rowId: text } of a calculator's results. */
export async function rows(page, kind) {
  const out = await page.evaluate((k) => {
    const el = document.querySelector(`roofline-calculator[kind="${k}"]`);
    const o = {};
    el.shadowRoot.querySelectorAll('output[data-row]').forEach((x) => { o[x.dataset.row] = x.textContent; });
    return o;
  }, kind);
  for (const k of Object.keys(out)) out[k] = norm(out[k]);
  return out;
}

export function field(page, kind, id) {
  return page.locator(`roofline-calculator[kind="${kind}"] [data-field="${id}"] input[type="text"]`);
}

export function select(page, kind, id) {
  return page.locator(`roofline-calculator[kind="${kind}"] select[name="${id}"]`);
}

export async function fieldError(page, kind, id) {
  return norm(await page.locator(`roofline-calculator[kind="${kind}"] [data-field="${id}"] .error`).textContent());
}

export async function shadowText(page, kind) {
  return page.evaluate((k) => {
    const el = document.querySelector(`roofline-calculator[kind="${k}"]`);
    return el.shadowRoot.querySelector('.calc').innerText;
  }, kind);
}

/**
 * A journey's end as a person sees it, four times: on a phone (390 × 844) and a desktop
 * (1366 × 900), light and dark (the reader's setting, changed in place: nothing is reloaded).
 * `target` (a locator) is scrolled into view first; the screenshots are of the screen,
 * journey-<name>-{phone,desktop}-{light,dark}.png. The page's own viewport and scheme come back.
 */
export async function journeyEndShots(page, target, name) {
  const size = page.viewportSize();
  const paths = [];
  for (const [device, viewport] of [['phone', { width: 390, height: 844 }], ['desktop', { width: 1366, height: 900 }]]) {
    await page.setViewportSize(viewport);
    for (const colorScheme of ['light', 'dark']) {
      await page.emulateMedia({ colorScheme });
      if (target) await target.evaluate((el) => el.scrollIntoView({ block: 'start' }));
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      const path = shotPath(`journey-${name}-${device}-${colorScheme}.png`);
      await page.screenshot({ path });
      paths.push(path);
    }
  }
  await page.emulateMedia({ colorScheme: null });
  if (size) await page.setViewportSize(size);
  return paths;
}

export function shotPath(name) {
  mkdirSync(SHOTS, { recursive: true });
  return join(SHOTS, name);
}

/** Every UI string as the build bundles it: web/i18n/ui.json and its ui-*.json parts, merged. */
export function loadUi() {
  const dir = join(ROOT, 'web/i18n');
  const ui = JSON.parse(readFileSync(join(dir, 'ui.json'), 'utf8'));
  for (const name of readdirSync(dir).filter((f) => /^ui-[a-z0-9-]+\.json$/.test(f)).sort()) {
    Object.assign(ui, JSON.parse(readFileSync(join(dir, name), 'utf8')));
  }
  return ui;
}

/**
 * Lays out every section now. Sections off screen skip rendering (content-visibility: auto), and
 * a rendered text (innerText) of a skipped section is empty: call this before reading one.
 */
export async function renderAll(page) {
  await page.evaluate(() => {
    for (const s of document.querySelectorAll('.lesson-section')) s.style.contentVisibility = 'visible';
  });
}

/** Waits until the browser has been idle once (the diagrams follow the calculators then). */
export async function idle(page) {
  await page.evaluate(() => new Promise((resolve) => requestIdleCallback(() => resolve(), { timeout: 1000 })));
  await frames(page);
}


/**
 * Counts, in every page of `context`, the WebAssembly instances created (globalThis.__wasmInstances):
 * each module instance of Roofline Lab is one.
 */
export async function countWasmInstances(context) {
  await context.addInitScript(() => {
    globalThis.__wasmInstances = 0;
    for (const name of ['instantiate', 'instantiateStreaming']) {
      const f = WebAssembly[name];
      WebAssembly[name] = function counted(...args) {
        const p = f.apply(this, args);
        p.then(() => { globalThis.__wasmInstances += 1; }, () => {});
        return p;
      };
    }
  });
}

/**
 * Holds back every request of `context` that matches `pattern` until the returned function is
 * called (a page's script, say: the test sees what the page shows before it runs).
 */
export async function holdRequests(context, pattern) {
  let release;
  const held = new Promise((r) => {
    release = r;
  });
  await context.route(pattern, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

/**
 * Remembers (weakly) every <roofline-calculator> now in the page, to count later with
 * aliveCalculators() those that are still alive. Needs a browser from launch({ gc: true }).
 */
export async function rememberCalculators(page) {
  await page.evaluate(() => {
    globalThis.__calcRefs = (globalThis.__calcRefs || []).concat([...document.querySelectorAll('roofline-calculator')].map((el) => new WeakRef(el)));
  });
}

/**
 * How many remembered calculators outside the document are alive after garbage collections.
 * A collection does not always free everything unreachable at once (Blink's heap is scanned
 * conservatively from the stack, and a removed node's layout and paint data go with the next
 * frames), so it collects again, a frame and a timer apart, for up to 3 s before it counts: a
 * calculator something still holds stays alive through all of them.
 */
export async function aliveCalculators(page) {
  return page.evaluate(async () => {
    const alive = () => globalThis.__calcRefs.map((r) => r.deref()).filter((el) => el && !el.isConnected);
    const end = performance.now() + 3000;
    for (let i = 0; i < 4 || (alive().length && performance.now() < end); i += 1) {
      await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 50)));
      globalThis.gc();
    }
    globalThis.__alive = alive().map((el) => el.getAttribute('kind'));
    return globalThis.__alive.length;
  });
}

/** Types into a calculator's field as a person does: click it, select what is there, type. */
export async function typeInto(page, kind, id, text) {
  const input = field(page, kind, id);
  await input.click();
  await page.keyboard.press('ControlOrMeta+a');
  await input.pressSequentially(text);
}

/**
 * Waits (up to `timeout` ms) until what read() gives deep-equals `want`, then asserts it: a page
 * that stops updating fails with the difference.
 */
export async function expectSoon(read, want, what, { timeout = 5000 } = {}) {
  const end = Date.now() + timeout;
  let got;
  do {
    got = await read();
    if (isDeepStrictEqual(got, want)) return;
    await new Promise((r) => setTimeout(r, 50));
  } while (Date.now() < end);
  assert.deepEqual(got, want, what);
}

/** The same for a calculator's result rows: those named in `want` ({ row: text }). */
export function expectRows(page, kind, want, what) {
  const pick = (r) => Object.fromEntries(Object.keys(want).map((k) => [k, r[k]]));
  return expectSoon(async () => pick(await rows(page, kind)), want, what);
}
