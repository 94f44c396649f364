// Regression check of the page's speed and size: the benchmark of tests/perf/page.mjs in a reduced
// form (5 loads per page, 10 changes per calculator), against bounds generous enough not to flake
// on a shared 2-core machine. docs/performance.md has the full run and the goals.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { runBenchmark, markdown, KINDS, ROOT } from './page.mjs';

const SITE_DIR = resolve(ROOT, process.env.SITE_DIR || 'build-wasm/site');

// Bounds: 1.5× the median of six runs of this check on a quiet machine (QUIET below; 2026-12-04, the
// 2-core AMD EPYC guest of family 26, nothing else running), so that a regression of half again
// fails. Ready is a ratio to a page of the same run: × the blank page (index.html, the single file,
// the plain snippet) or × the embed example's host page alone (the embed example). A calculator's
// handler and change with paint are in milliseconds: as ratios to the near-empty page's change
// they spread more between quiet runs (that small change is the noisier of the two). Quiet runs
// themselves spread up to 1.57× the median (step's change: 9.9–17.3 ms), so when something is over
// its bound the check runs again, up to three times in all, and keeps each measurement's best
// median: a slow moment of a shared machine passes, a page slower every time fails. The served
// page's size does not depend on the machine: its bound is what it measures now, plus 2 kB.
// The step calculator's two were measured again the same way on 2026-12-05, after its table of
// operators got fixed columns (its change with paint: 6.65–9.9 ms, median 8.70; was 10.98).
// (docs/performance.md, "The CI check")
const QUIET = {
  ready: { index: 2.60, lab: 2.95, embed: 2.28, snippet: 7.61 },
  handlerMs: { matmul: 0.96, byhand: 1.08, utilization: 0.89, roofline: 2.33, decode: 2.67, step: 2.65, batching: 1.81, clocks: 1.60, tile: 1.68, quant: 2.02 },
  paintMs: { matmul: 5.79, byhand: 3.98, utilization: 4.25, roofline: 7.58, decode: 8.22, step: 8.70, batching: 5.29, clocks: 5.23, tile: 5.05, quant: 6.28 },
};
const times = (o, k) => Object.fromEntries(Object.entries(o).map(([name, v]) => [name, k * v]));
const BOUNDS = {
  ready: times(QUIET.ready, 1.5),
  handlerMs: times(QUIET.handlerMs, 1.5),
  paintMs: times(QUIET.paintMs, 1.5),
  // bytes index.html requests until its code has built the first calculator, gzip -9: 156.0 kB with esbuild bundling
  // and the module's classic scripts minified (the wasm alone 108.8 kB); the goal of ≤ 120 kB is not met
  // (docs/performance.md)
  servedGzip: 158e3,
};
const RUNS = 3;

/** The measurements the bounds apply to, from one run. */
function measurements(r) {
  const m = {};
  m['index ready (× blank)'] = r.ready.index.ratio;
  m['lab ready (× blank)'] = r.ready.lab.ratio;
  m['snippet ready (× blank)'] = r.ready.snippet.ratio;
  m['embed ready (× host page)'] = r.ready.embed.median / r.ready.host.median;
  for (const kind of KINDS) {
    m[`${kind} handler (ms)`] = r.calculators[kind]?.handler.median ?? Infinity;
    m[`${kind} with paint (ms)`] = r.calculators[kind]?.paint.median ?? Infinity;
  }
  return m;
}

function bound(name) {
  const [key] = name.split(' ');
  if (name.includes(' ready ')) return BOUNDS.ready[key];
  if (name.includes(' handler ')) return BOUNDS.handlerMs[key];
  return BOUNDS.paintMs[key];
}

const over = (m) => Object.entries(m).filter(([name, v]) => !(v <= bound(name))).map(([name, v]) => `${name}: ${v.toFixed(2)}, bound ${bound(name)?.toFixed(2)}`);

test('page speed and size stay within their regression bounds', { timeout: 480000 }, async (t) => {
  const run = async () => {
    const r = await runBenchmark({ siteDir: SITE_DIR, loads: 5, changes: 10, log: (s) => t.diagnostic(s) });
    console.log(markdown(r));
    assert.deepEqual(r.pageErrors, [], 'the pages load without errors');
    return r;
  };
  const r = await run();
  const served = r.sizes.servedUntilReady.gzip;
  assert.ok(served <= BOUNDS.servedGzip, `served page ${(served / 1000).toFixed(1)} kB gzip until ready, bound ${(BOUNDS.servedGzip / 1000).toFixed(1)} kB`);
  let m = measurements(r);
  for (let n = 2; n <= RUNS && over(m).length; n += 1) {
    // Another job on a shared machine mostly adds time: when something is over its bound, run
    // again and keep each measurement's best median of the runs.
    t.diagnostic(`over a bound, run ${n} of at most ${RUNS}: ${over(m).join('; ')}`);
    await new Promise((r) => setTimeout(r, 5000));
    const next = measurements(await run());
    m = Object.fromEntries(Object.entries(m).map(([name, v]) => [name, Math.min(v, next[name])]));
  }
  assert.deepEqual(over(m), [], 'every median within its bound');
});
