// Regression check of the page's speed and size: the benchmark of tests/perf/page.mjs in a reduced
// form (5 loads per page, 10 changes per calculator), against bounds generous enough not to flake
// on a shared 2-core machine. docs/performance.md has the full run and the goals.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { runBenchmark, markdown, KINDS, ROOT } from './page.mjs';

const SITE_DIR = resolve(ROOT, process.env.SITE_DIR || 'build-wasm/site');

// Bounds. The regression bounds set with the goals (docs/performance.md) are ready ≤ 4× blank
// (index.html, roofline-lab.html), ≤ 3× (the embed example), every calculator's median ≤ 6 ms
// (≤ 12 ms with paint) and the served page ≤ 180 kB gzip. A blank page is ready in ≈ 40–60 ms
// here, so one slow load moves a ratio a lot: with one core kept busy by another job, a quick run
// read index.html 3.4×, the embed example 3.1× and up to 7.8 ms with paint (docs/performance.md,
// "The CI check"). The ready bounds sit above that, and still catch a page that renders
// everything up front again (5.0–5.4× before the progressive rendering, 9× at first); the
// served page's size does not depend on the machine, so its bound is the goal itself.
// (Single runs during another build have gone up to 18.7 ms per handler and 30.7 ms with paint
// under a load average of 7: hence the rerun.)
const BOUNDS = {
  ready: {
    index: 5, // × blank: measured 1.8–2.9× (Intel), 2.0–2.6× (AMD; 3.4× with one core busy); goal ≤ 2×
    lab: 5, // × blank: measured 1.5–2.6× (Intel), 1.9–2.5× (AMD; 1.7× with one core busy); goal ≤ 2×
    embed: 5, // × blank, its decode calculator prerendered: see docs/performance.md; goal ≤ 1.5×
    // × blank, the same page with the plain snippet: measured 3.1–5.2× (Intel), 3.2–3.9× (AMD), 5.8–6.9× on a day the
    // machine ran 2–3× slower, 7.0–8.3× on 2026-12-04 (AMD family 26: the snippet 744–981 ms, the blank page 79–149 ms)
    snippet: 10,
  },
  handlerMs: 6, // every calculator's median: measured up to 2.3 ms (Intel), 1.8 ms (AMD); goal ≤ 2 ms
  paintMs: 12, // the same with layout and paint: measured up to 6.25 ms (Intel), 5.65 ms (AMD; 7.8 with one core busy); goal ≤ 4 ms
  // kinds with a bound of their own. The step calculator redraws a table of every operator, its
  // roofline and its time bar after each change: 11.3–16.3 ms with paint here (decode 8.2–10.3 ms
  // in the same runs), over the budget its issue sets; the bound catches a regression, not the goal
  paintMsByKind: { step: 22 },
  // bytes index.html requests until its code has built the first calculator, gzip -9: measured 160.1 kB since the
  // catalog became data files, with the config.json reader, all argument errors at once, the typed API table and
  // rl.step (the wasm 65.6 → 105.3 kB gzip), 164.3 kB with the step calculator and the measurements (the wasm
  // 109.4 kB), 158.4 kB with the scripts and style sheets minified by esbuild and eight measurements (the wasm
  // 110.6 kB); 156.6 → 160.2 kB with the first screen prerendered in each language (index.html 3.5 → 6.7 kB gzip; a
  // reader in Spanish: 162.2 → 160.6 kB, the English texts no longer asked for); the goal of ≤ 120 kB is restated in
  // issue 31 (docs/performance.md)
  servedGzip: 162e3,
};

/** The measurements the bounds apply to, from one run. */
function medians(r) {
  const m = {};
  for (const key of Object.keys(BOUNDS.ready)) m[`${key} ready (× blank)`] = r.ready[key].ratio;
  for (const kind of KINDS) {
    m[`${kind} handler (ms)`] = r.calculators[kind]?.handler.median ?? Infinity;
    m[`${kind} with paint (ms)`] = r.calculators[kind]?.paint.median ?? Infinity;
  }
  return m;
}

function bound(name) {
  if (name.endsWith('ready (× blank)')) return BOUNDS.ready[name.split(' ')[0]];
  if (name.endsWith('handler (ms)')) return BOUNDS.handlerMs;
  return BOUNDS.paintMsByKind[name.split(' ')[0]] ?? BOUNDS.paintMs;
}

const over = (m) => Object.entries(m).filter(([name, v]) => !(v <= bound(name))).map(([name, v]) => `${name}: ${v.toFixed(2)}, bound ${bound(name)}`);

test('page speed and size stay within their regression bounds', { timeout: 240000 }, async (t) => {
  const run = async () => {
    const r = await runBenchmark({ siteDir: SITE_DIR, loads: 5, changes: 10, log: (s) => t.diagnostic(s) });
    console.log(markdown(r));
    assert.deepEqual(r.pageErrors, [], 'the pages load without errors');
    return r;
  };
  const r = await run();
  const served = r.sizes.servedUntilReady.gzip;
  assert.ok(served <= BOUNDS.servedGzip, `served page ${(served / 1000).toFixed(1)} kB gzip until ready, bound ${(BOUNDS.servedGzip / 1000).toFixed(1)} kB`);
  let m = medians(r);
  if (over(m).length) {
    // Another job on a shared machine mostly adds time: when something is over its bound, run
    // again and keep each measurement's better median of the two runs.
    t.diagnostic(`over a bound, running again: ${over(m).join('; ')}`);
    await new Promise((r) => setTimeout(r, 5000));
    const m2 = medians(await run());
    m = Object.fromEntries(Object.entries(m).map(([name, v]) => [name, Math.min(v, m2[name])]));
  }
  assert.deepEqual(over(m), [], 'every median within its bound');
});
