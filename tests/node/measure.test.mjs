// The browser benchmark's module (roofline-measure.js with SIMD128, roofline-measure-scalar.js
// without), run under Node: each kernel verifies on small arrays, its costs are kernel_costs',
// the summary is min / median / max with the rate from the best time, and bad input is refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { siteDir } from './helpers.mjs';

const require = createRequire(import.meta.url);
const BUILDS = { simd: 'roofline-measure.js', scalar: 'roofline-measure-scalar.js' };

for (const [build, file] of Object.entries(BUILDS)) {
  test(`${build} build: the triad verifies on small arrays of every length, tails included`, async () => {
    const m = await require(join(siteDir, file))();
    assert.equal(m._measure_simd(), build === 'simd' ? 1 : 0);
    for (const n of [1, 3, 7, 8, 9, 16, 37, 1000]) {
      assert.equal(m._measure_alloc(n), 1, `alloc ${n}`);
      assert.equal(m._measure_triad_verify(), 1, `verify ${n}`);
      assert.ok(m._measure_triad_seconds() >= 0);
      assert.equal(m._measure_triad_check(), 1, `check after a timed run, ${n}`);
      // stream_triad_cost: 12 bytes and 2 FLOPs per element
      assert.equal(m._measure_triad_bytes(), 12 * n);
      assert.equal(m._measure_triad_flops(), 2 * n);
      assert.equal(m._measure_triad_intensity(), 2 / 12);
    }
    m._measure_release();
    assert.equal(m._measure_triad_verify(), 0, 'no arrays: nothing verified');
    assert.equal(m._measure_triad_seconds(), -1);
    assert.equal(m._measure_triad_bytes(), 0);
  });

  test(`${build} build: the register loop verifies against its scalar reference; FLOPs are fma_flops`, async () => {
    const m = await require(join(siteDir, file))();
    for (const it of [1, 10, 1000]) assert.equal(m._measure_peak_verify(it), 1, `${it} iterations`);
    // 12 chains × 4 lanes, one multiply-add (2 FLOPs) each per iteration
    assert.equal(m._measure_peak_flops(1000), 1000 * 48 * 2);
    for (const bad of [0, -1, 2.5, NaN, Infinity]) {
      assert.equal(m._measure_peak_verify(bad), 0, `verify ${bad}`);
      assert.equal(m._measure_peak_seconds(bad), -1, `seconds ${bad}`);
      assert.equal(m._measure_peak_flops(bad), 0, `flops ${bad}`);
    }
  });
}

test('the summary: min, median and max of the recorded runs, the rate from the best time', async () => {
  const m = await require(join(siteDir, BUILDS.simd))();
  assert.equal(m._measure_alloc(1 << 16), 1);
  for (let i = 0; i < 5; i += 1) m._measure_triad_seconds();
  const runs = m._measure_times_count(0);
  assert.ok(runs >= 1 && runs <= 5);
  const [min, median, max] = [0, 1, 2].map((w) => m._measure_summary(0, w, 1));
  assert.ok(min > 0 && min <= median && median <= max, `${min} ${median} ${max}`);
  const bytes = m._measure_triad_bytes();
  assert.equal(m._measure_summary(0, 3, bytes), bytes / min, 'bytes/s from the best time');
  m._measure_times_clear(0);
  assert.equal(m._measure_times_count(0), 0);
  assert.equal(m._measure_summary(0, 3, bytes), -1, 'no runs: no rate');
  assert.equal(m._measure_summary(3, 0, 1), -1, 'no such kernel (0 triad, 1 the register loop, 2 the sweep dot)');
  assert.equal(m._measure_summary(-1, 0, 1), -1, 'no such kernel');
  assert.equal(m._measure_summary(1, 3, NaN), -1);
});

test('recorded times (several workers: each run’s longest time) feed the same summary', async () => {
  const m = await require(join(siteDir, BUILDS.simd))();
  m._measure_times_clear(1);
  for (const t of [0.3, 0.1, 0.2, 0.4]) assert.equal(m._measure_times_add(1, t), 1, String(t));
  for (const bad of [0, -1, NaN, Infinity]) assert.equal(m._measure_times_add(1, bad), 0, `time ${bad}`);
  assert.equal(m._measure_times_add(3, 0.1), 0, 'no such kernel');
  assert.equal(m._measure_times_add(2, 0.1), 0, 'the dot before a working set is verified');
  assert.equal(m._measure_times_count(1), 4);
  assert.deepEqual([0, 1, 2].map((w) => m._measure_summary(1, w, 1)), [0.1, 0.25, 0.4]);
  assert.equal(m._measure_summary(1, 3, 2e9), 2e10, '2 workers × 1e9 FLOPs over the best run, 0.1 s');
});

test('memory the browser refuses is reported, not a crash; the module stays usable', async () => {
  const m = await require(join(siteDir, BUILDS.simd))();
  assert.equal(m._measure_alloc(9e8), 0, '3 × 3.6 GB is beyond wasm32');
  assert.equal(m._measure_alloc(4e8), 0, '3 × 1.6 GB: 4.8 GB, which a 32-bit size would wrap to 505 MB');
  assert.equal(m._measure_alloc(2 ** 26), 0, '3 × 256 MiB: beyond the module’s 512 MB maximum');
  assert.equal(m._measure_alloc(2 ** 25), 1, '3 × 128 MiB fits');
  for (const bad of [0, -1, 1.5, NaN, Infinity]) assert.equal(m._measure_alloc(bad), 0, String(bad));
  assert.equal(m._measure_alloc(1024), 1);
  assert.equal(m._measure_triad_verify(), 1);
});
