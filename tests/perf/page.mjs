#!/usr/bin/env node
// The page benchmark (docs/performance.md): headless Chromium, the site served by web/serve.mjs
// (createSiteServer, strict CSP) on 127.0.0.1, and in one run, side by side:
//   - time to ready of a blank page, index.html?lang=en, roofline-lab.html (file://),
//     embed-example.html and the same page with its calculator's prerendered copy taken out (the
//     plain snippet), over fresh browser contexts;
//   - the embed example's host page alone (its calculators' elements and script taken out);
//   - every calculator's input handler, and the same until the next frame is painted, beside the
//     same change on a near-empty page (one field, one slider, a dozen numbers rewritten);
//   - phone class (with --phone, the default from the command line): a 4× CPU throttle through
//     CDP at 390 × 844 in Spanish, the blank page, index.html and the single file to ready and
//     every calculator's change with paint;
//   - the bytes index.html requests until ready (raw and gzip -9), and the module's sizes.
//
//   node tests/perf/page.mjs build-wasm/site [--json out.json] [--loads N] [--changes N] [--quick]
//
// Definitions (the same for every row; docs/performance.md repeats them):
//   ready    performance.now() (milliseconds since the navigation started) once the first frame
//            that shows the row's target has been rendered: the blank page's paragraph, the
//            matmul calculator's flops row reading 65,536,000, the embed example's decode total
//            (neither empty nor "—"). A script injected before the page's own (Playwright's
//            addInitScript, which the CSP does not govern) checks once per frame, in a
//            requestAnimationFrame callback, and reads the time in a user-blocking task posted
//            from it, which runs after that frame's style, layout and paint.
//   handler  for one input change: performance.now() around setting the value and dispatching
//            'input' (bubbling), plus the microtasks the handler queued, plus the work the page
//            deferred to the next animation frame (the time between a rAF callback registered
//            before the dispatch and one registered after it, minus the same on idle frames).
//   paint    the handler's synchronous part plus the whole next frame: from the first rAF
//            callback of that frame to a MessageChannel message posted from its last one, which
//            runs after the frame's style, layout and paint; minus the same on idle frames.
//            The wait between the dispatch and the frame's start is idle time, not counted.
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { createSiteServer } from '../../web/serve.mjs';
import { launch } from '../web/helpers.mjs'; // the page tests' Chromium and launch flags

const HERE = dirname(fileURLToPath(import.meta.url));
export const ROOT = resolve(HERE, '../..');
const VIEWPORT = { width: 1100, height: 900 };
const READY_MSG = '__roofline_perf_ready__';

// the calculators with a section of their own on the page, and the field each one's changes go
// to with the two valid values they alternate between (web/src/kinds.js)
import { KIND_CHANGES, PAGE_KINDS } from '../../web/src/kinds.js';
export const KINDS = PAGE_KINDS;
export const CHANGES = KIND_CHANGES;

// the two results the pages are timed to: the first calculator's FLOPs (the lesson's 65,536,000),
// and the embed example's decode total, whatever it reads
const MATMUL_FLOPS = { what: 'row', host: 'roofline-calculator[kind="matmul"]', row: 'flops', expect: '65,536,000' };
const DECODE_TOTAL = { what: 'row', host: 'roofline-calculator[kind="decode"]', row: 'total', expect: null };

/** The pages timed to ready: what each waits for. */
export const TARGETS = {
  blank: { label: 'blank page (first text)', what: 'text' },
  index: {
    label: '`index.html?lang=en` until the first calculator shows 65,536,000',
    ...MATMUL_FLOPS,
    // a second row: until the page's own code has built that calculator in place of its prerendered copy
    live: '`index.html?lang=en` until its own code has built that calculator (its inputs answer)',
  },
  lab: {
    label: 'single file `roofline-lab.html` (file://), the same',
    ...MATMUL_FLOPS,
  },
  embed: {
    label: 'embed example (its decode calculator prerendered in the HTML) until that calculator shows its total',
    ...DECODE_TOTAL,
    live: 'embed example until the element has built that calculator (its inputs answer)',
  },
  snippet: {
    label: 'the same page with the plain one-tag snippet (nothing prerendered), the same',
    ...DECODE_TOTAL,
  },
  host: {
    label: 'the embed example\'s host page alone (its calculators and their script taken out), first text',
    what: 'text',
  },
  // the first screens alone: what the machine takes to show the page's HTML and styles, with no
  // script of the page (a goal missed by these too is missed by the machine, not by the scripts)
  indexStatic: {
    label: '`index.html` without its scripts (the prerendered first screen, HTML and styles alone), the same',
    ...MATMUL_FLOPS,
  },
  labStatic: {
    label: 'the single file without its scripts (file://), the same',
    ...MATMUL_FLOPS,
  },
  embedStatic: {
    label: 'the embed example without its script (its prerendered calculator, HTML and styles alone), the same',
    ...DECODE_TOTAL,
  },
};

/** Phone class: the pages timed under the CPU throttle, in Spanish (index and the single file). */
export const PHONE = { throttle: 4, viewport: { width: 390, height: 844 }, lang: 'es' };
// Ready there is when the page's own code has built the first calculator in Spanish (its first
// screen is prerendered in Spanish too, and shows before that): the `live` time.
const PHONE_TARGETS = {
  blank: TARGETS.blank,
  // (without scripts the English screen shows, the same size as the Spanish one)
  indexStatic: TARGETS.indexStatic,
  labStatic: TARGETS.labStatic,
  index: { ...TARGETS.index, expect: null, live: 'live', label: '`index.html?lang=es` until its code has built the first calculator' },
  lab: { ...TARGETS.lab, expect: null, live: 'live', label: 'single file `roofline-lab.html?lang=es` (file://), the same' },
};

/** The embed example as its host page alone: every calculator element and the element's script taken out. */
function hostOnlyPage(embedHtml) {
  const out = embedHtml
    .replace(/<roofline-calculator\b[\s\S]*?<\/roofline-calculator>/g, '')
    .replace(/<script src="roofline-calculator\.js"[^>]*><\/script>/g, '');
  if (out === embedHtml || /roofline-calculator[ >]/.test(out.replace(/<!--[\s\S]*?-->/g, '').replace(/roofline-calculator\.css/g, ''))) {
    throw new Error('embed-example.html: its calculators could not be taken out for the host page');
  }
  return out;
}

/** A page without its scripts: every <script> and the preloads taken out, the rest as it is. */
function staticPage(html) {
  const out = html.replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, '').replace(/<link rel="preload"[^>]*>\n?/g, '');
  if (out === html || /<script\b/i.test(out)) throw new Error('a page\'s scripts could not be taken out for its static copy');
  return out;
}

/**
 * The near-empty page: one field and one slider whose change rewrites a dozen numbers, and
 * nothing else. A change there costs what any change's frame costs on this machine (event,
 * style, layout and paint of a few nodes): the calculators' goal is ≤ 2 ms more than it.
 */
const NEAR_EMPTY_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Near-empty</title>
<link rel="icon" href="favicon.svg">
<script src="near-empty.js" defer></script>
</head>
<body>
<p>A field, a slider and a dozen numbers: the benchmark's baseline for what a change costs.</p>
<roofline-calculator kind="near">
<div data-field="n"><input type="text" value="1000" aria-label="n"><input type="range" min="1" max="10000" value="1000" aria-label="n"></div>
<p>${Array.from({ length: 12 }, (_, i) => `<output data-row="r${i}"></output>`).join(' ')}</p>
</roofline-calculator>
</body>
</html>
`;
const NEAR_EMPTY_JS = `'use strict';
const host = document.querySelector('roofline-calculator[kind="near"]');
const [text, slider] = host.querySelectorAll('input');
const outs = host.querySelectorAll('output');
const nf = new Intl.NumberFormat('en');
function show() {
  const n = Number(text.value);
  slider.value = String(n);
  outs.forEach((o, i) => { o.textContent = Number.isFinite(n) ? nf.format(n * (i + 1) * 1.5) : '—'; });
}
host.addEventListener('input', (e) => { if (e.target === slider) text.value = slider.value; show(); });
show();
`;

/**
 * The embed example as an author's page with the plain snippet: the prerendered decode calculator
 * (its declarative shadow root) taken out of the element, nothing else changed.
 */
function plainSnippetPage(embedHtml) {
  const out = embedHtml.replace(/(<roofline-calculator kind="decode" lang="es">)<template shadowrootmode="open">[\s\S]*?<\/template>(<\/roofline-calculator>)/, '$1$2');
  if (out === embedHtml) throw new Error('embed-example.html: no prerendered decode calculator found to take out');
  return out;
}

const BLANK_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Blank</title>
<link rel="icon" href="favicon.svg">
</head>
<body>
<p>One paragraph of text on a page with nothing else: the benchmark's baseline for how long a page takes to show its first text.</p>
</body>
</html>
`;

// ---- statistics ------------------------------------------------------------------------------
export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  if (!s.length) return NaN;
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

export function stats(xs) {
  return { median: median(xs), min: Math.min(...xs), max: Math.max(...xs), n: xs.length };
}

const gzip = (buf) => gzipSync(buf, { level: 9 }).length;

// ---- in-page code (serialized by Playwright; the page's CSP does not apply to it) ------------

/** Init script: polls the target once per animation frame and reports the first frame it shows. */
function readyProbe(t) {
  const norm = (s) => String(s || '').replace(/[\u00a0\u202f\u2009]/g, ' ').trim();
  const shown = () => {
    if (t.what === 'text') {
      const p = document.body && document.body.querySelector('p');
      return Boolean(p && norm(p.textContent));
    }
    const host = document.querySelector(t.host);
    if (!host) return false;
    const out = (host.shadowRoot || host).querySelector(`output[data-row="${t.row}"]`);
    if (!out || (out.checkVisibility && !out.checkVisibility())) return false;
    const text = norm(out.textContent);
    return t.expect ? text.includes(t.expect) : text !== '' && text !== '—';
  };
  // (targets with `live`) the page's code has built the calculator in place of the copy
  // prerendered into the HTML: its inputs answer
  const live = () => {
    const host = document.querySelector(t.host);
    const root = host && host.shadowRoot;
    const lab = document.getElementById('lab');
    return Boolean(root && root.querySelector('.calc') && !root.querySelector('[data-prerendered]') && !(lab && lab.hasAttribute('data-prerendered')));
  };
  // Checked in an animation frame's callback, before that frame's style, layout and paint; the
  // time taken is that of a task posted from the callback at the highest priority, which runs
  // as soon as the frame has been rendered (on the main thread), before the page's own tasks
  // queued meanwhile: what the reader waits for includes drawing the page. Nothing is timed
  // inside the check, which may itself compute styles.
  const state = { ready: null, live: null };
  Object.defineProperty(window, '__rooflinePerf', { value: state });
  const report = () => {
    if (typeof state.ready !== 'number' || (t.live && typeof state.live !== 'number')) return;
    // console.debug reaches Playwright as an event: nothing polls the page from outside
    console.debug(t.msg, JSON.stringify(state));
  };
  const afterFrame = (key) => {
    state[key] = 'pending';
    scheduler.postTask(() => {
      state[key] = performance.now();
      report();
    }, { priority: 'user-blocking' });
  };
  const frame = () => {
    if (state.ready === null && shown()) afterFrame('ready');
    if (t.live && state.ready !== null && state.live === null && live()) afterFrame('live');
    if (state.ready !== null && (!t.live || state.live !== null)) return;
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
}

/**
 * In the page: `changes` input changes of one field, alternating two values, each after an idle
 * frame measured the same way. Returns raw samples (milliseconds).
 */
export async function measureChanges({ kind, spec, changes }) {
  const host = document.querySelector(`roofline-calculator[kind="${kind}"]`);
  const root = host.shadowRoot || host;
  const input = spec.cell
    ? (root.querySelector(`input.cell-${spec.cell}[data-row="0"][data-col="0"]`) || root.querySelector('input.cell'))
    : root.querySelector(`[data-field="${spec.field}"] input[type="text"]`) || root.querySelector(`input[name="${spec.field}"]`);
  if (!input) return { error: `no input for ${kind}` };
  const raf = () => new Promise((r) => requestAnimationFrame(r));
  const channel = new MessageChannel();
  let onMessage = null;
  channel.port1.onmessage = () => onMessage && onMessage();
  const afterPaint = () => new Promise((r) => { onMessage = () => r(performance.now()); });
  const outputs = () => [...root.querySelectorAll('output, .c-value')].map((o) => o.textContent).join('|');

  // One frame: `act` (or nothing) between a rAF registered before it and one registered after.
  async function frame(act) {
    await raf();
    await new Promise((r) => { onMessage = r; channel.port2.postMessage(0); }); // a fresh task after a painted frame
    let tFirst = 0;
    let tLast = 0;
    const first = new Promise((r) => requestAnimationFrame(() => { tFirst = performance.now(); r(); }));
    const t0 = performance.now();
    if (act) act();
    const t1 = performance.now();
    await Promise.resolve(); // the microtasks the handler queued run before this continuation
    const t1m = performance.now();
    const painted = afterPaint();
    requestAnimationFrame(() => { tLast = performance.now(); channel.port2.postMessage(0); });
    await first;
    const tEnd = await painted;
    return { sync: t1m - t0, syncOnly: t1 - t0, raf: tLast - tFirst, frame: tEnd - tFirst, wall: tEnd - t0 };
  }

  const samples = [];
  const idles = [];
  const seen = new Set();
  for (let i = 0; i < changes; i += 1) {
    idles.push(await frame(null));
    const value = spec.values[i % 2];
    samples.push(await frame(() => {
      input.value = value;
      input.dispatchEvent(new Event('input', { bubbles: true }));
    }));
    seen.add(outputs());
  }
  return { samples, idles, distinctOutputs: seen.size };
}

/** In the page, before its scripts: every animation frame over 50 ms (Long Animation Frames API). */
function longFrameProbe() {
  const frames = [];
  Object.defineProperty(window, '__rooflineLongFrames', { value: frames });
  if (!PerformanceObserver.supportedEntryTypes.includes('long-animation-frame')) return;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) frames.push({ start: e.startTime, duration: e.duration, blocking: e.blockingDuration });
  }).observe({ type: 'long-animation-frame', buffered: true });
}

// ---- Node side -------------------------------------------------------------------------------

export async function listen(dir) {
  const server = createSiteServer(dir);
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${server.address().port}/`, close: () => new Promise((r) => server.close(r)) };
}

async function newContext(browser, { viewport = VIEWPORT, locale = 'en-US' } = {}) {
  return browser.newContext({ viewport, locale, colorScheme: 'light' });
}

/** A new page in `context`, its CPU slowed `throttle` times (CDP) before anything loads. */
async function newPage(context, throttle) {
  const page = await context.newPage();
  if (throttle > 1) {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: throttle });
  }
  return page;
}

/**
 * One load in a fresh context (nothing cached): navigation start to the first frame that shows
 * the target. `onRequest` sees every request with whether it came before ready.
 */
export async function loadOnce(browser, url, target, { timeout = 30000, lazyGraceMs = 5000, recordRequests = false, phone = false } = {}) {
  const context = await newContext(browser, phone ? { viewport: PHONE.viewport, locale: 'es-ES' } : {});
  try {
    await context.addInitScript(readyProbe, { ...target, msg: READY_MSG });
    const page = await newPage(context, phone ? PHONE.throttle : 1);
    const errors = [];
    const requests = [];
    let isReady = false;
    let scrolled = false;
    page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    if (recordRequests) page.on('request', (r) => requests.push({ url: r.url(), beforeReady: !isReady }));
    const ready = new Promise((resolveReady) => {
      page.on('console', (m) => {
        if (m.type() === 'debug' && m.text().startsWith(READY_MSG)) {
          isReady = true;
          resolveReady();
        }
      });
    });
    const started = Date.now();
    await page.goto(url, { waitUntil: 'commit', timeout });
    // A page that renders its calculators only near the viewport: if the target has not shown
    // lazyGraceMs after the page loaded, bring it into view (the run says so).
    let timer;
    const grace = page.waitForLoadState('load', { timeout })
      .then(() => (isReady ? null : new Promise((r) => { timer = setTimeout(r, lazyGraceMs); })))
      .catch(() => {});
    const first = await Promise.race([ready.then(() => 'ready'), grace.then(() => 'grace')]);
    clearTimeout(timer);
    if (first === 'grace' && target.host) {
      scrolled = true;
      await page.evaluate((sel) => { const el = document.querySelector(sel); if (el) el.scrollIntoView(); }, target.host);
    }
    const left = Math.max(1000, timeout - (Date.now() - started));
    let limit;
    const late = new Promise((r) => { limit = setTimeout(() => r('late'), left); });
    const outcome = await Promise.race([ready.then(() => 'ready'), late]);
    clearTimeout(limit);
    if (outcome === 'late') throw new Error(`${url}: not ready within ${timeout} ms (${errors.join('; ') || 'no page errors'})`);
    const probe = await page.evaluate(() => ({ ready: window.__rooflinePerf.ready, live: window.__rooflinePerf.live }));
    let after = null;
    if (recordRequests) {
      await page.waitForLoadState('load', { timeout }).catch(() => {});
      await page.waitForTimeout(500);
      after = requests.map((r) => r.url);
    }
    return {
      ready: probe.ready, live: probe.live, scrolled, errors,
      requestsUntilReady: recordRequests ? requests.filter((r) => r.beforeReady).map((r) => r.url) : null,
      requestsAfterLoad: after,
    };
  } finally {
    await context.close();
  }
}

/** The site files a list of request URLs maps to, with raw and gzip -9 sizes. */
export function transfer(urls, siteUrl, siteDir) {
  const files = [];
  const skipped = [];
  for (const u of [...new Set(urls)]) {
    if (!u.startsWith(siteUrl)) {
      if (!u.startsWith('data:')) skipped.push(u);
      continue;
    }
    let path = join(siteDir, decodeURIComponent(new URL(u).pathname));
    if (existsSync(path) && statSync(path).isDirectory()) path = join(path, 'index.html');
    if (!existsSync(path)) { skipped.push(u); continue; }
    const buf = readFileSync(path);
    files.push({ file: path.slice(siteDir.length + 1), raw: buf.length, gzip: gzip(buf) });
  }
  files.sort((a, b) => b.gzip - a.gzip);
  return {
    files, skipped,
    raw: files.reduce((s, f) => s + f.raw, 0),
    gzip: files.reduce((s, f) => s + f.gzip, 0),
  };
}

async function waitFor(page, fn, arg, { timeout = 20000, interval = 50 } = {}) {
  const end = Date.now() + timeout;
  for (;;) {
    if (await page.evaluate(fn, arg)) return;
    if (Date.now() > end) throw new Error(`timed out waiting for ${JSON.stringify(arg)}`);
    await new Promise((r) => setTimeout(r, interval));
  }
}

/**
 * Brings a calculator into view and waits for the input `spec` changes: calculators may render
 * only near the viewport, and the page adds its later sections while it is idle.
 */
export async function calculatorInView(page, kind, spec) {
  await waitFor(page, (k) => Boolean(document.querySelector(`roofline-calculator[kind="${k}"]`)), kind);
  await page.evaluate((k) => document.querySelector(`roofline-calculator[kind="${k}"]`).scrollIntoView({ block: 'center' }), kind);
  await waitFor(page, ({ k, s }) => {
    const host = document.querySelector(`roofline-calculator[kind="${k}"]`);
    const root = host && (host.shadowRoot || host);
    if (!root) return false;
    return Boolean(s.cell ? root.querySelector('input.cell') : root.querySelector(`[data-field="${s.field}"] input[type="text"], input[name="${s.field}"]`));
  }, { k: kind, s: spec });
}

/** One calculator's (or the near-empty page's) samples as the report gives them. */
export function summarize(r, spec, changes) {
  const idleRaf = median(r.idles.map((x) => x.raf));
  const idleFrame = median(r.idles.map((x) => x.frame));
  const idleWall = median(r.idles.map((x) => x.wall));
  const handler = r.samples.map((x) => x.sync + x.raf - idleRaf);
  const paint = r.samples.map((x) => x.sync + x.frame - idleFrame);
  return {
    field: spec.field || `${spec.cell.toUpperCase()} cell`, values: spec.values, changes,
    handler: stats(handler), paint: stats(paint), samples: { handler, paint },
    syncOnly: stats(r.samples.map((x) => x.syncOnly)),
    wallToPaint: stats(r.samples.map((x) => x.wall - idleWall)),
    idle: { raf: idleRaf, frame: idleFrame, wall: idleWall },
  };
}

/** The near-empty page's change (NEAR_EMPTY_HTML), measured like a calculator's. */
async function measureNearEmpty(browser, url, changes, { phone = false } = {}) {
  const context = await newContext(browser, phone ? { viewport: PHONE.viewport, locale: 'es-ES' } : {});
  try {
    const page = await newPage(context, phone ? PHONE.throttle : 1);
    await page.goto(url, { waitUntil: 'load' });
    await page.waitForTimeout(300);
    const spec = { field: 'n', values: ['1000', '2000'] };
    const r = await page.evaluate(measureChanges, { kind: 'near', spec, changes });
    if (r.error) throw new Error(r.error);
    if (r.distinctOutputs < 2) throw new Error('near-empty page: a change did not change its numbers');
    return summarize(r, spec, changes);
  } finally {
    await context.close();
  }
}

/**
 * The near-empty page measured before and after `during` (the calculators), its samples pooled:
 * measured once, its median moved by more than a goal's 2 ms from run to run with the machine.
 * `runs` keeps each measurement's medians.
 */
async function nearEmptyAround(browser, url, changes, opts, during) {
  const before = await measureNearEmpty(browser, url, changes, opts);
  const result = await during();
  const after = await measureNearEmpty(browser, url, changes, opts);
  const handler = [...before.samples.handler, ...after.samples.handler];
  const paint = [...before.samples.paint, ...after.samples.paint];
  const nearEmpty = {
    field: before.field, values: before.values, changes: 2 * changes,
    handler: stats(handler), paint: stats(paint), samples: { handler, paint },
    runs: [before, after].map((x) => ({ handler: x.handler.median, paint: x.paint.median })),
  };
  return { nearEmpty, result };
}

/** Every calculator on index.html (English, or phone class in Spanish): `changes` input changes each. */
async function measureCalculators(browser, siteUrl, changes, log, { phone = false } = {}) {
  const context = await newContext(browser, phone ? { viewport: PHONE.viewport, locale: 'es-ES' } : {});
  try {
    await context.addInitScript(readyProbe, { ...(phone ? PHONE_TARGETS.index : TARGETS.index), msg: READY_MSG });
    await context.addInitScript(longFrameProbe);
    const page = await newPage(context, phone ? PHONE.throttle : 1);
    const errors = [];
    page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    await page.goto(`${siteUrl}index.html?lang=${phone ? PHONE.lang : 'en'}`, { waitUntil: 'load' });
    await waitFor(page, () => typeof window.__rooflinePerf.ready === 'number', null);
    // The input changes are timed once the page has settled: every section and calculator built.
    // Until then the page builds the rest in idle time; how long the main thread was held at a
    // time meanwhile (what a reader typing that early waits for) is measured here, apart.
    await waitFor(page, () => document.getElementById('lab')?.dataset.rendered === 'all' && !document.querySelector('roofline-calculator[data-pending]'), null);
    const settled = await page.evaluate(() => performance.now());
    await page.waitForTimeout(500); // the last build's frame and whatever it scheduled
    const settling = await page.evaluate((at) => {
      const { ready } = window.__rooflinePerf;
      const after = window.__rooflineLongFrames.filter((f) => f.start + f.duration > ready);
      const max = (key) => (after.length ? Math.max(...after.map((f) => f[key])) : 0);
      return { ready, settled: at, longFrames: after.length, longest: max('duration'), longestBlocking: max('blocking') };
    }, settled);
    log(`  after ready: ${settling.longFrames} frames over 50 ms until the page had settled, the longest ${fmt(settling.longest)} ms, blocking ${fmt(settling.longestBlocking)} ms`);
    const out = {};
    for (const kind of KINDS) {
      // in Spanish a decimal point is written as a comma
      const spec = phone ? { ...CHANGES[kind], values: CHANGES[kind].values.map((v) => v.replace('.', ',')) } : CHANGES[kind];
      await calculatorInView(page, kind, spec);
      await page.waitForTimeout(300); // let whatever scrolling started (lazy neighbours) settle
      const r = await page.evaluate(measureChanges, { kind, spec, changes });
      if (r.error) throw new Error(r.error);
      if (r.distinctOutputs < 2) throw new Error(`${kind}: changing ${spec.field || 'a cell'} did not change any result: nothing was measured`);
      out[kind] = summarize(r, spec, changes);
      log(`  ${kind.padEnd(8)} handler ${fmt(out[kind].handler.median, 2)} ms, with paint ${fmt(out[kind].paint.median, 2)} ms`);
    }
    return { calculators: out, settling, errors };
  } finally {
    await context.close();
  }
}

const fmt = (v, d = 0) => (v === null || v === undefined || Number.isNaN(v) ? '—' : v.toFixed(d));
const kB = (b) => `${(b / 1000).toFixed(1)} kB`;

/**
 * Runs the whole benchmark. Options: siteDir, loads (≥ 1), changes, warmup (rounds not
 * counted), log (a function for progress lines).
 */
export async function runBenchmark({ siteDir = 'build-wasm/site', loads = 7, changes = 20, warmup = 1, phone = false, log = () => {} } = {}) {
  const dir = resolve(siteDir);
  for (const f of ['index.html', 'roofline-lab.html', 'embed-example.html', 'roofline.mjs']) {
    if (!existsSync(join(dir, f))) throw new Error(`${join(dir, f)} is missing: build the site first (node web/build.mjs --module-dir build-wasm/site --out build-wasm/site)`);
  }
  const blankDir = mkdtempSync(join(tmpdir(), 'roofline-perf-'));
  writeFileSync(join(blankDir, 'blank.html'), BLANK_HTML);
  // the same icon as the site's pages, so that no page's load includes a 404
  if (existsSync(join(dir, 'favicon.svg'))) writeFileSync(join(blankDir, 'favicon.svg'), readFileSync(join(dir, 'favicon.svg')));
  // the embed example with the plain snippet, and the files an author copies beside it
  writeFileSync(join(blankDir, 'snippet.html'), plainSnippetPage(readFileSync(join(dir, 'embed-example.html'), 'utf8')));
  for (const f of ['embed-example.css', 'roofline-calculator.js', 'roofline.js']) writeFileSync(join(blankDir, f), readFileSync(join(dir, f)));
  // the same page without its calculators, and the near-empty page
  writeFileSync(join(blankDir, 'host.html'), hostOnlyPage(readFileSync(join(dir, 'embed-example.html'), 'utf8')));
  writeFileSync(join(blankDir, 'near-empty.html'), NEAR_EMPTY_HTML);
  writeFileSync(join(blankDir, 'near-empty.js'), NEAR_EMPTY_JS);
  // the first screens alone, with the style sheets index.html links
  writeFileSync(join(blankDir, 'static.html'), staticPage(readFileSync(join(dir, 'index.html'), 'utf8')));
  writeFileSync(join(blankDir, 'lab-static.html'), staticPage(readFileSync(join(dir, 'roofline-lab.html'), 'utf8')));
  writeFileSync(join(blankDir, 'embed-static.html'), staticPage(readFileSync(join(dir, 'embed-example.html'), 'utf8')));
  for (const f of ['roofline-lab.css', 'roofline-calculator.css']) writeFileSync(join(blankDir, f), readFileSync(join(dir, f)));
  const site = await listen(dir);
  const blankSite = await listen(blankDir);
  const browser = await launch();
  const load0 = loadavg()[0];
  const startedAt = new Date();
  try {
    const urls = {
      blank: `${blankSite.url}blank.html`,
      index: `${site.url}index.html?lang=en`,
      lab: pathToFileURL(join(dir, 'roofline-lab.html')).href,
      embed: `${site.url}embed-example.html`,
      snippet: `${blankSite.url}snippet.html`,
      host: `${blankSite.url}host.html`,
      indexStatic: `${blankSite.url}static.html`,
      labStatic: pathToFileURL(join(blankDir, 'lab-static.html')).href,
      embedStatic: `${blankSite.url}embed-static.html`,
    };
    const times = Object.fromEntries(Object.keys(urls).map((k) => [k, []]));
    const live = Object.fromEntries(Object.keys(urls).filter((k) => TARGETS[k].live).map((k) => [k, []]));
    const scrolled = Object.fromEntries(Object.keys(urls).map((k) => [k, 0]));
    const pageErrors = [];
    let requests = null;
    // round robin: each round loads every page once, so a noisy moment hits all rows alike
    for (let round = -warmup; round < loads; round += 1) {
      for (const key of Object.keys(urls)) {
        const wantRequests = key === 'index' && round === 0;
        const r = await loadOnce(browser, urls[key], TARGETS[key], { recordRequests: wantRequests });
        if (wantRequests) requests = r;
        pageErrors.push(...r.errors.map((e) => `${key}: ${e}`));
        if (round < 0) continue;
        times[key].push(r.ready);
        if (live[key]) live[key].push(r.live);
        if (r.scrolled) scrolled[key] += 1;
      }
      if (round >= 0) log(`round ${round + 1}/${loads}: ${Object.keys(urls).map((k) => `${k} ${fmt(times[k].at(-1))} ms`).join(', ')}`);
    }
    const ready = {};
    const blankMedian = median(times.blank);
    for (const key of Object.keys(urls)) {
      ready[key] = {
        label: TARGETS[key].label, url: key === 'lab' || key === 'labStatic' ? `file://…/${urls[key].split('/').pop()}` : urls[key].replace(/^http:\/\/127\.0\.0\.1:\d+\//, ''),
        ...stats(times[key]), ratio: median(times[key]) / blankMedian, samples: times[key],
        scrolledIntoView: scrolled[key],
      };
      if (live[key]) {
        ready[`${key}Live`] = {
          label: TARGETS[key].live, url: ready[key].url,
          ...stats(live[key]), ratio: median(live[key]) / blankMedian, samples: live[key], scrolledIntoView: scrolled[key],
        };
      }
    }
    log('calculators (index.html?lang=en):');
    const { nearEmpty, result: calc } = await nearEmptyAround(browser, `${blankSite.url}near-empty.html`, changes, {},
      () => measureCalculators(browser, site.url, changes, log));
    pageErrors.push(...calc.errors.map((e) => `calculators: ${e}`));
    log(`  near-empty page (before and after the calculators): handler ${fmt(nearEmpty.handler.median, 2)} ms, with paint ${fmt(nearEmpty.paint.median, 2)} ms (${nearEmpty.runs.map((x) => fmt(x.paint, 2)).join(', ')})`);
    let phoneRun = null;
    if (phone) {
      log(`phone class: ${PHONE.throttle}× CPU throttle, ${PHONE.viewport.width} × ${PHONE.viewport.height}, ${PHONE.lang}`);
      const purls = {
        blank: urls.blank,
        indexStatic: urls.indexStatic,
        labStatic: urls.labStatic,
        index: `${site.url}index.html?lang=${PHONE.lang}`,
        lab: `${pathToFileURL(join(dir, 'roofline-lab.html')).href}?lang=${PHONE.lang}`,
      };
      const ptimes = Object.fromEntries(Object.keys(purls).map((k) => [k, []]));
      for (let round = -warmup; round < loads; round += 1) {
        for (const key of Object.keys(purls)) {
          const r = await loadOnce(browser, purls[key], PHONE_TARGETS[key], { phone: true, timeout: 60000 });
          pageErrors.push(...r.errors.map((e) => `phone ${key}: ${e}`));
          if (round >= 0) ptimes[key].push(PHONE_TARGETS[key].live ? r.live : r.ready);
        }
        if (round >= 0) log(`phone round ${round + 1}/${loads}: ${Object.keys(purls).map((k) => `${k} ${fmt(ptimes[k].at(-1))} ms`).join(', ')}`);
      }
      const pblank = median(ptimes.blank);
      const pready = Object.fromEntries(Object.keys(purls).map((k) => [k, {
        label: PHONE_TARGETS[k].label, ...stats(ptimes[k]), ratio: median(ptimes[k]) / pblank, samples: ptimes[k],
      }]));
      const { nearEmpty: pnear, result: pcalc } = await nearEmptyAround(browser, `${blankSite.url}near-empty.html`, changes, { phone: true },
        () => measureCalculators(browser, site.url, changes, log, { phone: true }));
      pageErrors.push(...pcalc.errors.map((e) => `phone calculators: ${e}`));
      log(`  near-empty page: handler ${fmt(pnear.handler.median, 2)} ms, with paint ${fmt(pnear.paint.median, 2)} ms`);
      phoneRun = { ...PHONE, ready: pready, calculators: pcalc.calculators, nearEmpty: pnear };
    }
    const untilReady = transfer(requests.requestsUntilReady, site.url, dir);
    const afterLoad = transfer(requests.requestsAfterLoad, site.url, dir);
    const lab = readFileSync(join(dir, 'roofline-lab.html'));
    const sizes = {
      servedUntilReady: untilReady,
      servedAfterLoad: afterLoad,
      rooflineMjs: { raw: statSync(join(dir, 'roofline.mjs')).size, gzip: gzip(readFileSync(join(dir, 'roofline.mjs'))) },
      labHtml: { raw: lab.length, gzip: gzip(lab) },
    };
    return {
      date: startedAt.toISOString(),
      machine: { cores: cpus().length, cpu: cpus()[0]?.model || null, loadavg1Start: load0, loadavg1End: loadavg()[0], node: process.version },
      chromium: browser.version(),
      options: { loads, changes, warmupRounds: warmup, viewport: VIEWPORT },
      ready, calculators: calc.calculators, nearEmpty, settling: calc.settling, phone: phoneRun, sizes, pageErrors,
      goals: goals({ ready, calculators: calc.calculators, nearEmpty, phone: phoneRun, sizes }),
    };
  } finally {
    await browser.close();
    await site.close();
    await blankSite.close();
    rmSync(blankDir, { recursive: true, force: true });
  }
}

// ---- report ----------------------------------------------------------------------------------
const GOALS = { blank: '—', index: '≤ 2× blank', indexLive: '—', lab: '≤ 2× blank', embed: '≤ 1.5× host page', embedLive: '—', snippet: '—', host: '—', indexStatic: '—', labStatic: '—', embedStatic: '—' };

/**
 * The page-speed goals (docs/performance.md), each with what this run measured and whether it is
 * met: { goal, measured, limit, unit, met }. Phone-class goals only where the run had --phone.
 */
export function goals(r) {
  const out = [];
  // `alone`: the same measured on what the page is compared with or built on, without the page's
  // scripts (its first screen alone, the near-empty page): where that alone misses the limit, the
  // machine does
  const add = (goal, measured, limit, unit, alone = null) => out.push({ goal, measured, limit, unit, met: measured <= limit, alone });
  const firstScreen = (ready, key) => ready[key] && { what: 'its first screen without scripts', value: ready[key].ratio };
  add('index.html ready, × blank', r.ready.index.ratio, 2, '×', firstScreen(r.ready, 'indexStatic'));
  add('single file ready, × blank', r.ready.lab.ratio, 2, '×', firstScreen(r.ready, 'labStatic'));
  add('embed example ready, × its host page alone', r.ready.embed.median / r.ready.host.median, 1.5, '×',
    r.ready.embedStatic && { what: 'its calculator without the script', value: r.ready.embedStatic.median / r.ready.host.median });
  for (const [k, v] of Object.entries(r.calculators)) {
    add(`${k}: change with paint, ms more than the near-empty page's`, v.paint.median - r.nearEmpty.paint.median, 2, 'ms');
    add(`${k}: handler alone, ms`, v.handler.median, 2, 'ms');
  }
  add('served page until ready, kB gzip', r.sizes.servedUntilReady.gzip / 1000, 120, 'kB');
  if (r.phone) {
    add('phone class: index.html ready, × blank (same throttle)', r.phone.ready.index.ratio, 1.5, '×', firstScreen(r.phone.ready, 'indexStatic'));
    add('phone class: single file ready, × blank (same throttle)', r.phone.ready.lab.ratio, 1.5, '×', firstScreen(r.phone.ready, 'labStatic'));
    for (const [k, v] of Object.entries(r.phone.calculators)) {
      add(`phone class: ${k}: change with paint, ms`, v.paint.median, 8, 'ms', { what: 'the near-empty page', value: r.phone.nearEmpty.paint.median });
    }
  }
  return out;
}

export function markdown(r) {
  const L = [];
  L.push(`Chromium ${r.chromium}, ${r.machine.cores} cores (${r.machine.cpu}), ${r.options.loads} loads per page (after ${r.options.warmupRounds} warm-up round), ${r.options.changes} changes per calculator; load average ${r.machine.loadavg1Start.toFixed(2)} → ${r.machine.loadavg1End.toFixed(2)}.`);
  L.push('');
  L.push('| ready (ms since navigation start) | median | min | max | × blank | goal |');
  L.push('| --- | ---: | ---: | ---: | ---: | --- |');
  for (const [k, v] of Object.entries(r.ready)) {
    const note = v.scrolledIntoView ? ` (scrolled into view in ${v.scrolledIntoView} loads)` : '';
    L.push(`| ${v.label}${note} | ${fmt(v.median)} | ${fmt(v.min)} | ${fmt(v.max)} | ${k === 'blank' ? '1.0×' : `${v.ratio.toFixed(1)}×`} | ${GOALS[k]} |`);
  }
  L.push('');
  L.push('| calculator (field changed), ms | handler median | min | max | with paint median | min | max | goal |');
  L.push('| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |');
  for (const [k, v] of Object.entries(r.calculators)) {
    L.push(`| ${k} (${v.field}) | ${fmt(v.handler.median, 2)} | ${fmt(v.handler.min, 2)} | ${fmt(v.handler.max, 2)} | ${fmt(v.paint.median, 2)} | ${fmt(v.paint.min, 2)} | ${fmt(v.paint.max, 2)} | ≤ 2 ms, ≤ 4 ms with paint |`);
  }
  if (r.nearEmpty) {
    const v = r.nearEmpty;
    L.push(`| near-empty page (one field, one slider, 12 numbers; before and after the calculators, pooled: with paint ${v.runs.map((x) => fmt(x.paint, 2)).join(' and ')}) | ${fmt(v.handler.median, 2)} | ${fmt(v.handler.min, 2)} | ${fmt(v.handler.max, 2)} | ${fmt(v.paint.median, 2)} | ${fmt(v.paint.min, 2)} | ${fmt(v.paint.max, 2)} | the baseline |`);
  }
  L.push('');
  if (r.phone) {
    const p = r.phone;
    L.push(`Phone class: ${p.throttle}× CPU throttle (CDP), ${p.viewport.width} × ${p.viewport.height}, lang=${p.lang}.`);
    L.push('');
    L.push('| phone class, ready (ms) | median | min | max | × blank | goal |');
    L.push('| --- | ---: | ---: | ---: | ---: | --- |');
    for (const [k, v] of Object.entries(p.ready)) L.push(`| ${v.label} | ${fmt(v.median)} | ${fmt(v.min)} | ${fmt(v.max)} | ${k === 'blank' ? '1.0×' : `${v.ratio.toFixed(2)}×`} | ${k === 'blank' ? '—' : '≤ 1.5× blank'} |`);
    L.push('');
    L.push('| phone class, calculator, ms | handler median | with paint median | min | max | goal |');
    L.push('| --- | ---: | ---: | ---: | ---: | --- |');
    for (const [k, v] of Object.entries(p.calculators)) L.push(`| ${k} (${v.field}) | ${fmt(v.handler.median, 2)} | ${fmt(v.paint.median, 2)} | ${fmt(v.paint.min, 2)} | ${fmt(v.paint.max, 2)} | ≤ 8 ms with paint |`);
    L.push(`| near-empty page | ${fmt(p.nearEmpty.handler.median, 2)} | ${fmt(p.nearEmpty.paint.median, 2)} | ${fmt(p.nearEmpty.paint.min, 2)} | ${fmt(p.nearEmpty.paint.max, 2)} | the baseline |`);
    L.push('');
  }
  if (r.goals) {
    const met = r.goals.filter((g) => g.met).length;
    L.push(`Goals: ${met} of ${r.goals.length} met in this run.`);
    L.push('');
    L.push('| goal | measured | limit | met, or by how much missed | the same without the page\'s scripts |');
    L.push('| --- | ---: | ---: | --- | --- |');
    for (const g of r.goals) {
      const d = g.unit === '×' ? 2 : 1;
      const miss = g.met ? 'met' : `missed by ${fmt(g.measured - g.limit, d)} ${g.unit}`;
      const alone = g.alone ? `${g.alone.what}: ${fmt(g.alone.value, d)} ${g.unit}${g.alone.value > g.limit ? ' (over the limit too)' : ''}` : '';
      L.push(`| ${g.goal} | ${fmt(g.measured, d)} ${g.unit} | ${g.limit} ${g.unit} | ${miss} | ${alone} |`);
    }
    L.push('');
  }
  const st = r.settling;
  if (st) {
    L.push(`Timed once the page had settled (every section and calculator built, ${fmt(st.settled)} ms after navigation; one load). Between ready (${fmt(st.ready)} ms) and then, ${st.longFrames} frames took over 50 ms, the longest ${fmt(st.longest)} ms; the most blocking time in one frame (its tasks' time past 50 ms each, its rendering included), ${fmt(st.longestBlocking)} ms: an input that falls into a long task waits for it.`);
    L.push('');
  }
  const s = r.sizes;
  L.push('| size | raw | gzip -9 | goal |');
  L.push('| --- | ---: | ---: | --- |');
  L.push(`| served course page: the ${s.servedUntilReady.files.length} files index.html requests until its code has built the first calculator | ${kB(s.servedUntilReady.raw)} | ${kB(s.servedUntilReady.gzip)} | ≤ 120 kB gzip |`);
  for (const f of s.servedUntilReady.files) L.push(`| · ${f.file} | ${kB(f.raw)} | ${kB(f.gzip)} | |`);
  if (s.servedAfterLoad.gzip !== s.servedUntilReady.gzip) {
    L.push(`| served course page, everything requested by load + 0.5 s (${s.servedAfterLoad.files.length} files) | ${kB(s.servedAfterLoad.raw)} | ${kB(s.servedAfterLoad.gzip)} | |`);
  }
  L.push(`| roofline.mjs | ${kB(s.rooflineMjs.raw)} | ${kB(s.rooflineMjs.gzip)} | ≤ 220 kB raw |`);
  L.push(`| roofline-lab.html (single file, three languages) | ${kB(s.labHtml.raw)} | ${kB(s.labHtml.gzip)} | — |`);
  if (r.pageErrors.length) {
    L.push('');
    L.push(`Page errors: ${r.pageErrors.slice(0, 5).join('; ')}`);
  }
  return L.join('\n');
}

function parseArgs(argv) {
  const o = { siteDir: null, json: null, loads: 7, changes: 20, phone: true };
  for (let i = 0; i < argv.length; i += 1) {
    const a = argv[i];
    const num = () => {
      const v = Number(argv[++i]);
      if (!Number.isInteger(v) || v < 1) throw new Error(`${a} needs a positive whole number`);
      return v;
    };
    if (a === '--json') o.json = argv[++i];
    else if (a === '--loads') o.loads = num();
    else if (a === '--changes') o.changes = num();
    else if (a === '--quick') { o.loads = 3; o.changes = 5; }
    else if (a === '--phone') o.phone = true;
    else if (a === '--no-phone') o.phone = false;
    else if (a === '--help' || a === '-h') o.help = true;
    else if (!a.startsWith('--') && !o.siteDir) o.siteDir = a;
    else throw new Error(`unknown argument ${a}`);
  }
  o.siteDir = o.siteDir || 'build-wasm/site';
  return o;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const o = parseArgs(process.argv.slice(2));
  if (o.help) {
    console.log('node tests/perf/page.mjs [SITE_DIR] [--json out.json] [--loads N (7)] [--changes N (20)] [--quick (3 loads, 5 changes)] [--no-phone]');
    process.exit(0);
  }
  const r = await runBenchmark({ siteDir: o.siteDir, loads: o.loads, changes: o.changes, phone: o.phone, log: (s) => console.error(s) });
  console.log(markdown(r));
  if (o.json) {
    writeFileSync(o.json, `${JSON.stringify(r, null, 2)}\n`);
    console.error(`wrote ${o.json}`);
  }
}
