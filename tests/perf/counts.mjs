#!/usr/bin/env node
// What the page does, counted, not timed (docs/performance.md, "The CI check"): counts are the
// same on a fast machine and a slow one, so a bound on them fails on a regression and on nothing
// else. In one headless Chromium, on index.html?lang=en served with the strict CSP:
//   - start-up: the bytes index.html requests until its first calculator is ready (gzip -9), and
//     the WebAssembly calls, DOM writes, layouts and style recalculations until the page has
//     built every section;
//   - every calculator (web/src/kinds.js) for each of `changes` input changes of one field
//     (tests/perf/page.mjs CHANGES, two values in turn), from the change until the page is quiet
//     again (no call and no write for QUIET_MS, every deferred task done):
//       wasm     calls into the WebAssembly core (its invoke export, one per API call)
//       writes   DOM mutation records (nodes added or removed, text and attributes changed), in
//                the document and in every shadow root
//       layouts  layouts Chromium ran (CDP Performance.getMetrics LayoutCount): one per frame
//                that shows the change, plus one per layout the code forced
//       styles   style recalculations (RecalcStyleCount)
//   Each is the largest over the changes. Waiting for quiet takes longer on a slow machine; what
//   is counted does not.
//
//   node tests/perf/counts.mjs build-wasm/site [--changes N] [--throttle K] [--json out.json]
import { existsSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch } from '../web/helpers.mjs';
import { CHANGES, KINDS, TARGETS, calculatorInView, listen, loadOnce, transfer } from './page.mjs';

const QUIET_MS = 300;

/** In the page, before its scripts: counters of WebAssembly calls and DOM writes. */
function countProbe() {
  const counts = { writes: 0, calls: {} };
  Object.defineProperty(window, '__rooflineCounts', { value: counts });
  // Every call into the core goes through one export (wasm/api.js: roofline_invoke(function,
  // bytes)), whose name the release build minifies: every two-argument export is counted by
  // name here, and the Node side takes the one the start-up calls most (hundreds of API calls;
  // Emscripten's own two-argument exports run once, if at all).
  const wrap = (instance) => {
    const exports = {};
    for (const [name, value] of Object.entries(instance.exports)) {
      exports[name] = typeof value === 'function' && value.length === 2
        ? function counted(...args) { counts.calls[name] = (counts.calls[name] || 0) + 1; return value.apply(this, args); }
        : value;
    }
    return new Proxy(instance, { get: (target, key) => (key === 'exports' ? exports : Reflect.get(target, key, target)) });
  };
  const instantiate = WebAssembly.instantiate;
  WebAssembly.instantiate = function (source, imports) {
    return instantiate.call(this, source, imports).then((r) =>
      (r instanceof WebAssembly.Instance ? wrap(r) : { module: r.module, instance: wrap(r.instance) }));
  };
  if (WebAssembly.instantiateStreaming) {
    const streaming = WebAssembly.instantiateStreaming;
    WebAssembly.instantiateStreaming = function (source, imports) {
      return streaming.call(this, source, imports).then((r) => ({ module: r.module, instance: wrap(r.instance) }));
    };
  }
  const observer = new MutationObserver((records) => { counts.writes += records.length; });
  const watch = (root) => observer.observe(root, { subtree: true, childList: true, characterData: true, attributes: true });
  const attachShadow = Element.prototype.attachShadow;
  Element.prototype.attachShadow = function (init) {
    const root = attachShadow.call(this, init);
    watch(root);
    return root;
  };
  watch(document);
}

/** In the page: resolves once nothing has been called or written for `quietMs`, after idle. */
function settle(quietMs) {
  const c = window.__rooflineCounts;
  const idle = () => new Promise((r) => (window.requestIdleCallback ? requestIdleCallback(() => r(), { timeout: 2000 }) : setTimeout(r, 50)));
  const frame = () => new Promise((r) => requestAnimationFrame(() => r()));
  const state = () => `${JSON.stringify(c.calls)}/${c.writes}`;
  return (async () => {
    let last = state();
    let since = performance.now();
    for (;;) {
      await frame();
      await idle();
      const now = state();
      if (now !== last) { last = now; since = performance.now(); }
      if (performance.now() - since >= quietMs) return;
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
}

async function metrics(cdp) {
  const { metrics: list } = await cdp.send('Performance.getMetrics');
  const get = (name) => list.find((m) => m.name === name)?.value ?? 0;
  return { layouts: get('LayoutCount'), styles: get('RecalcStyleCount') };
}

async function snapshot(page, cdp, invoke) {
  const c = await page.evaluate(() => ({ writes: window.__rooflineCounts.writes, calls: { ...window.__rooflineCounts.calls } }));
  return { wasm: c.calls[invoke] || 0, writes: c.writes, ...(await metrics(cdp)) };
}

/** The export that is roofline_invoke: the start-up's most called two-argument export. */
async function findInvoke(page) {
  const calls = await page.evaluate(() => window.__rooflineCounts.calls);
  const ranked = Object.entries(calls).sort((a, b) => b[1] - a[1]);
  if (!ranked.length || ranked[0][1] < 20 || (ranked[1] && ranked[1][1] * 10 > ranked[0][1]))
    throw new Error(`no export stands out as the core's invoke: ${JSON.stringify(calls)}`);
  return ranked[0][0];
}

const diff = (a, b) => Object.fromEntries(Object.keys(b).map((k) => [k, b[k] - a[k]]));

/**
 * Counts everything above. Options: siteDir, changes per calculator (even: each value as often),
 * throttle (a CDP CPU slow-down, to show the counts do not move with speed), log.
 */
export async function countPage({ siteDir = 'build-wasm/site', changes = 4, throttle = 1, log = () => {} } = {}) {
  const dir = resolve(siteDir);
  const site = await listen(dir);
  const browser = await launch();
  try {
    const load = await loadOnce(browser, `${site.url}index.html?lang=en`, TARGETS.index, { recordRequests: true });
    const servedUntilReady = transfer(load.requestsUntilReady, site.url, dir);
    const context = await browser.newContext({ viewport: { width: 1100, height: 900 }, locale: 'en-US', colorScheme: 'light' });
    await context.addInitScript(countProbe);
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable');
    if (throttle > 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: throttle });
    await page.goto(`${site.url}index.html?lang=en`, { waitUntil: 'load' });
    // start-up: until every section is built and the page is quiet
    // (polled with evaluate: waitForFunction evaluates a string, which the page's CSP refuses)
    for (const end = Date.now() + 60000 * throttle; ;) {
      if (await page.evaluate(() => document.getElementById('lab')?.dataset.rendered === 'all'
        && !document.querySelector('roofline-calculator[data-pending]'))) break;
      if (Date.now() > end) throw new Error('the page did not build every section');
      await new Promise((r) => setTimeout(r, 100));
    }
    await page.evaluate(settle, QUIET_MS);
    const invoke = await findInvoke(page);
    const startup = await snapshot(page, cdp, invoke);
    log(`start-up: ${(servedUntilReady.gzip / 1000).toFixed(1)} kB gzip until ready; ${startup.wasm} wasm calls, ${startup.writes} DOM writes, ${startup.layouts} layouts, ${startup.styles} style recalculations`);
    const calculators = {};
    for (const kind of KINDS) {
      const spec = CHANGES[kind];
      await calculatorInView(page, kind, spec);
      await page.evaluate(settle, QUIET_MS);
      const worst = { wasm: 0, writes: 0, layouts: 0, styles: 0 };
      const seen = new Set();
      for (let i = 0; i < changes; i += 1) {
        const before = await snapshot(page, cdp, invoke);
        const shown = await page.evaluate(({ kind: k, spec: s, value }) => {
          const host = document.querySelector(`roofline-calculator[kind="${k}"]`);
          const root = host.shadowRoot || host;
          const input = s.cell
            ? (root.querySelector(`input.cell-${s.cell}[data-row="0"][data-col="0"]`) || root.querySelector('input.cell'))
            : root.querySelector(`[data-field="${s.field}"] input[type="text"]`) || root.querySelector(`input[name="${s.field}"]`);
          input.value = value;
          input.dispatchEvent(new Event('input', { bubbles: true }));
          return true;
        }, { kind, spec, value: spec.values[i % 2] });
        if (!shown) throw new Error(`${kind}: no input`);
        await page.evaluate(settle, QUIET_MS);
        const d = diff(before, await snapshot(page, cdp, invoke));
        for (const k of Object.keys(worst)) worst[k] = Math.max(worst[k], d[k]);
        seen.add(await page.evaluate((k) => {
          const host = document.querySelector(`roofline-calculator[kind="${k}"]`);
          return [...(host.shadowRoot || host).querySelectorAll('output, .c-value')].map((o) => o.textContent).join('|');
        }, kind));
      }
      if (seen.size < 2) throw new Error(`${kind}: changing ${spec.field || 'a cell'} changed no result: nothing was counted`);
      calculators[kind] = worst;
      log(`${kind.padEnd(12)} ${worst.wasm} wasm calls, ${worst.writes} DOM writes, ${worst.layouts} layouts, ${worst.styles} style recalculations`);
    }
    await context.close();
    return { servedUntilReadyGzip: servedUntilReady.gzip, startup, calculators, errors: [...load.errors, ...errors], throttle, changes };
  } finally {
    await browser.close();
    await site.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const opt = (name, fallback) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : fallback; };
  const siteDir = args.find((a, i) => !a.startsWith('--') && !(i > 0 && args[i - 1].startsWith('--'))) || 'build-wasm/site';
  if (!existsSync(resolve(siteDir, 'index.html'))) throw new Error(`${siteDir}: no index.html (build the site first)`);
  const r = await countPage({ siteDir, changes: Number(opt('--changes', 4)), throttle: Number(opt('--throttle', 1)), log: console.log });
  if (opt('--json')) writeFileSync(opt('--json'), `${JSON.stringify(r, null, 2)}\n`);
  if (r.errors.length) console.log(`page errors: ${r.errors.join('; ')}`);
}
