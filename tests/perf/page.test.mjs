// Regression check of the page's speed and size: the benchmark of tests/perf/page.mjs in a reduced
// form (5 loads per page, 10 changes per calculator), against bounds generous enough not to flake
// on a shared 2-core machine. docs/performance.md has the full run and the goals.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { runBenchmark, markdown, KINDS, ROOT } from './page.mjs';

const SITE_DIR = resolve(ROOT, process.env.SITE_DIR || 'build-wasm/site');

// Bounds. Each timing is taken as a ratio to a page measured in the same run, so that what the
// machine is doing at that moment (a shared 2-core guest, other jobs) moves both sides: ready as
// × the blank page (index.html, the single file, the plain snippet) or × the embed example's host
// page alone (the embed example); a calculator's change, its handler and its change with paint,
// as × the near-empty page's change with paint (one field, one slider, a dozen numbers). Each
// bound is 1.5× what this check measured on a quiet machine (QUIET below, the larger of three
// runs): a regression of half again fails, and a slow moment does not, as the check runs a second
// time when something is over and keeps each measurement's better median. The served page's size
// does not depend on the machine: its bound is what it measures now, plus 2 kB.
// (docs/performance.md, "The CI check")
// measured 2026-12-04 on a quiet 2-core AMD EPYC guest (family 26), three runs of this check
const QUIET = {
  ready: { index: 2.55, lab: 2.92, embed: 2.99, snippet: 7.83 },
  handler: { matmul: 0.28, byhand: 0.35, utilization: 0.26, roofline: 0.87, decode: 0.81, step: 1.14, batching: 0.56, clocks: 0.52, tile: 0.55, quant: 0.68 },
  paint: { matmul: 1.73, byhand: 1.36, utilization: 1.32, roofline: 2.34, decode: 2.96, step: 4.48, batching: 1.79, clocks: 1.86, tile: 1.68, quant: 2.21 },
};
const BOUNDS = {
  ready: Object.fromEntries(Object.entries(QUIET.ready).map(([k, v]) => [k, 1.5 * v])),
  handler: Object.fromEntries(Object.entries(QUIET.handler).map(([k, v]) => [k, 1.5 * v])),
  paint: Object.fromEntries(Object.entries(QUIET.paint).map(([k, v]) => [k, 1.5 * v])),
  // bytes index.html requests until its code has built the first calculator, gzip -9: 156.0 kB with esbuild bundling
  // and the module's classic scripts minified (the wasm alone 108.8 kB); the goal of ≤ 120 kB is not met
  // (docs/performance.md)
  servedGzip: 158e3,
};

/** The measurements the bounds apply to, from one run: ratios to the run's own baselines. */
function ratios(r) {
  const m = {};
  m['index ready (× blank)'] = r.ready.index.ratio;
  m['lab ready (× blank)'] = r.ready.lab.ratio;
  m['snippet ready (× blank)'] = r.ready.snippet.ratio;
  m['embed ready (× host page)'] = r.ready.embed.median / r.ready.host.median;
  const base = r.nearEmpty.paint.median;
  for (const kind of KINDS) {
    m[`${kind} handler (× near-empty change)`] = (r.calculators[kind]?.handler.median ?? Infinity) / base;
    m[`${kind} with paint (× near-empty change)`] = (r.calculators[kind]?.paint.median ?? Infinity) / base;
  }
  return m;
}

function bound(name) {
  const [key] = name.split(' ');
  if (name.includes(' ready ')) return BOUNDS.ready[key];
  if (name.includes(' handler ')) return BOUNDS.handler[key];
  return BOUNDS.paint[key];
}

const over = (m) => Object.entries(m).filter(([name, v]) => !(v <= bound(name))).map(([name, v]) => `${name}: ${v.toFixed(2)}, bound ${bound(name)?.toFixed(2)}`);

test('page speed and size stay within their regression bounds', { timeout: 240000 }, async (t) => {
  const run = async () => {
    const r = await runBenchmark({ siteDir: SITE_DIR, loads: 5, changes: 10, log: (s) => t.diagnostic(s) });
    console.log(markdown(r));
    if (process.env.PERF_RATIOS) console.log(JSON.stringify(ratios(r)));
    assert.deepEqual(r.pageErrors, [], 'the pages load without errors');
    return r;
  };
  const r = await run();
  const served = r.sizes.servedUntilReady.gzip;
  assert.ok(served <= BOUNDS.servedGzip, `served page ${(served / 1000).toFixed(1)} kB gzip until ready, bound ${(BOUNDS.servedGzip / 1000).toFixed(1)} kB`);
  let m = ratios(r);
  if (over(m).length) {
    // Another job on a shared machine mostly adds time: when something is over its bound, run
    // again and keep each measurement's better median of the two runs.
    t.diagnostic(`over a bound, running again: ${over(m).join('; ')}`);
    await new Promise((r) => setTimeout(r, 5000));
    const m2 = ratios(await run());
    m = Object.fromEntries(Object.entries(m).map(([name, v]) => [name, Math.min(v, m2[name])]));
  }
  assert.deepEqual(over(m), [], 'every median within its bound');
});
