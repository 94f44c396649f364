#!/usr/bin/env node
// Where an input change's time goes (docs/performance.md): for each calculator, a Chromium trace
// of N changes of the benchmark's field (page.mjs's CHANGES, two frames apart) and one of N idle
// frames, and per change the main thread's time in each rendering phase (style, layout,
// pre-paint, paint, layerize, commit) and in script, the idle frames' subtracted. Tracing slows
// the page, script most, so compare these figures with each other, not with the benchmark's.
// With --invalidations, also what the changes invalidated in layout (node and reason), counted.
//
//   node tests/perf/trace-changes.mjs SITE_DIR [--kinds roofline,decode] [--changes 15] [--invalidations]
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launch, serve } from '../web/helpers.mjs';
import { CHANGES, KINDS } from './page.mjs';

const PHASES = ['UpdateLayoutTree', 'Layout', 'PrePaint', 'Paint', 'Layerize', 'Commit', 'FunctionCall'];
const LABELS = { UpdateLayoutTree: 'style', Layout: 'layout', PrePaint: 'pre-paint', Paint: 'paint', Layerize: 'layerize', Commit: 'commit', FunctionCall: 'script' };

function parseArgs(argv) {
  const o = { dir: null, kinds: KINDS, changes: 15, invalidations: false };
  for (let i = 0; i < argv.length; i += 1) {
    if (argv[i] === '--kinds') o.kinds = argv[++i].split(',');
    else if (argv[i] === '--changes') o.changes = Number(argv[++i]);
    else if (argv[i] === '--invalidations') o.invalidations = true;
    else o.dir = argv[i];
  }
  if (!o.dir || !(o.changes >= 1) || o.kinds.some((k) => !CHANGES[k])) {
    console.error('usage: node tests/perf/trace-changes.mjs SITE_DIR [--kinds roofline,decode] [--changes N] [--invalidations]');
    process.exit(2);
  }
  return o;
}

/** In the page: n frames, each two animation frames after the last, changing the field or not. */
async function frames({ kind, spec, n, change }) {
  const root = document.querySelector(`roofline-calculator[kind="${kind}"]`).shadowRoot;
  const input = spec.cell
    ? root.querySelector('input.cell')
    : root.querySelector(`[data-field="${spec.field}"] input[type="text"]`) || root.querySelector(`input[name="${spec.field}"]`);
  const raf = () => new Promise((r) => requestAnimationFrame(r));
  for (let i = 0; i < n; i += 1) {
    await raf();
    await raf();
    if (change) {
      input.value = spec.values[i % 2];
      input.dispatchEvent(new Event('input', { bubbles: true }));
    }
  }
  await raf();
  await raf();
}

/** Sums of the phases' durations (ms) on the renderer's main thread, and layout invalidations. */
function summarize(path) {
  const events = JSON.parse(readFileSync(path, 'utf8')).traceEvents;
  const calls = new Map();
  for (const e of events) if (e.name === 'FunctionCall') calls.set(`${e.pid}:${e.tid}`, (calls.get(`${e.pid}:${e.tid}`) || 0) + 1);
  const main = [...calls].sort((a, b) => b[1] - a[1])[0][0];
  const ms = Object.fromEntries(PHASES.map((p) => [p, 0]));
  const invalidated = new Map();
  for (const e of events) {
    if (`${e.pid}:${e.tid}` !== main) continue;
    if (e.ph === 'X' && e.name in ms) ms[e.name] += e.dur / 1000;
    if (e.name === 'LayoutInvalidationTracking') {
      const k = `${e.args.data.nodeName || '?'}: ${e.args.data.reason || '?'}`;
      invalidated.set(k, (invalidated.get(k) || 0) + 1);
    }
  }
  return { ms, invalidated };
}

const o = parseArgs(process.argv.slice(2));
const site = await serve(o.dir);
const browser = await launch();
const tmp = mkdtempSync(join(tmpdir(), 'roofline-trace-'));
const categories = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8'];
if (o.invalidations) categories.push('disabled-by-default-devtools.timeline.invalidationTracking');
try {
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 }, locale: 'en-US' });
  const page = await context.newPage();
  await page.goto(`${site.url}index.html?lang=en`, { waitUntil: 'load' });
  await page.waitForTimeout(1500);
  console.log(`| calculator (ms per change) | ${PHASES.map((p) => LABELS[p]).join(' | ')} |`);
  console.log(`| --- |${PHASES.map(() => ' ---: |').join('')}`);
  const notes = [];
  for (const kind of o.kinds) {
    await page.evaluate((k) => document.querySelector(`roofline-calculator[kind="${k}"]`).scrollIntoView({ block: 'center' }), kind);
    await page.waitForTimeout(800); // rendered, and whatever the scroll started has settled
    const runs = {};
    for (const mode of ['idle', 'change']) {
      const path = join(tmp, `${kind}-${mode}.json`);
      await browser.startTracing(page, { path, categories });
      await page.evaluate(frames, { kind, spec: CHANGES[kind], n: o.changes, change: mode === 'change' });
      await browser.stopTracing();
      runs[mode] = summarize(path);
    }
    const per = (p) => ((runs.change.ms[p] - runs.idle.ms[p]) / o.changes).toFixed(2);
    console.log(`| ${kind} | ${PHASES.map(per).join(' | ')} |`);
    if (o.invalidations) {
      const top = [...runs.change.invalidated].sort((a, b) => b[1] - a[1]).slice(0, 8);
      notes.push(`${kind}, layout invalidations in ${o.changes} changes: ${top.map(([k, n]) => `${n} × ${k}`).join('; ')}`);
    }
  }
  for (const n of notes) console.log(`\n${n}`);
  await context.close();
} finally {
  await browser.close();
  await site.close();
  rmSync(tmp, { recursive: true, force: true });
}
