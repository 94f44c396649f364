// The browser benchmark's Web Worker (copied into the site as roofline-measure-worker.js): loads
// the measure module, runs the triad and the register loop, verifying each before timing it,
// and posts progress and the result. One thread; the page stays responsive meanwhile.
//
// page → worker: { type: 'start', urls: { simd, scalar }, arrayBytes, forceScalar }
//   urls: where roofline-measure.js and roofline-measure-scalar.js are (same-origin files on a
//   served page; null in the single file, whose blob worker defines both builds before this
//   script as self.__rooflineMeasureFactories); arrayBytes: the size of each of the triad's
//   three arrays to try first (halved while the browser refuses the memory).
// worker → page: { type: 'progress', phase, fraction }          phase: load, memory, triad, peak
//                { type: 'done', result }                         (see result() below)
//                { type: 'error', code, detail }                  code: load, memory, verify, timer
// Cancelling is the page's worker.terminate().
/* eslint-env worker */
/* global createRooflineMeasure */
'use strict';

// The smallest module that uses a SIMD128 instruction: valid only where SIMD128 is supported.
const SIMD_PROBE = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11]);
const MIN_ARRAY_BYTES = 2 ** 22;  // 4 MiB: below this the arrays fit in many caches: no longer a memory test
const TRIAD = { kernel: 0, maxRuns: 20, minRuns: 3, seconds: 2.5 };
const PEAK = { kernel: 1, maxRuns: 20, minRuns: 3, seconds: 1.5, runSeconds: 0.05, verifyIterations: 1000, probeIterations: 100000 };

class MeasureError extends Error {
  constructor(code, detail) {
    super(detail);
    this.code = code;
  }
}

function progress(phase, fraction) {
  postMessage({ type: 'progress', phase, fraction: Math.min(1, Math.max(0, fraction)) });
}

async function loadModule(urls, forceScalar) {
  const simd = !forceScalar && WebAssembly.validate(SIMD_PROBE);
  try {
    // the single file's blob worker carries both builds (self.__rooflineMeasureFactories)
    const inline = self.__rooflineMeasureFactories;
    if (inline) return await inline[simd ? 'simd' : 'scalar']();
    importScripts(simd ? urls.simd : urls.scalar);
    return await createRooflineMeasure();
  } catch (e) {
    throw new MeasureError('load', String(e && e.message ? e.message : e));
  }
}

/** Times `run` until maxRuns runs or `seconds` have passed (at least minRuns), after one warm-up. */
function repeat(m, spec, run, phase, from, to) {
  run();
  m._measure_times_clear(spec.kernel);
  const t0 = performance.now();
  for (let i = 0; i < spec.maxRuns; i += 1) {
    if (run() < 0) throw new MeasureError('timer', `${phase}: no valid time`);
    const elapsed = (performance.now() - t0) / 1000;
    progress(phase, from + (to - from) * Math.max((i + 1) / spec.maxRuns, elapsed / spec.seconds));
    if (i + 1 >= spec.minRuns && elapsed > spec.seconds) break;
  }
}

function summary(m, kernel, amount) {
  const seconds = { min: m._measure_summary(kernel, 0, amount), median: m._measure_summary(kernel, 1, amount), max: m._measure_summary(kernel, 2, amount) };
  const rate = m._measure_summary(kernel, 3, amount);
  if (!(rate > 0) || !Number.isFinite(rate)) throw new MeasureError('timer', 'the runs were shorter than the timer can resolve');
  return { runs: m._measure_times_count(kernel), seconds, rate };
}

async function measure(msg) {
  progress('load', 0);
  const m = await loadModule(msg.urls, msg.forceScalar);
  progress('memory', 0.05);
  // Memory bandwidth: three arrays far beyond the last-level cache, sized down while refused.
  let arrayBytes = Math.max(MIN_ARRAY_BYTES, Math.floor(Number(msg.arrayBytes) || 2 ** 26));
  const requested = arrayBytes;
  while (!m._measure_alloc(arrayBytes / 4)) {
    arrayBytes /= 2;
    if (arrayBytes < MIN_ARRAY_BYTES) throw new MeasureError('memory', `${requested} bytes per array refused, and every smaller size down to ${MIN_ARRAY_BYTES}`);
  }
  progress('triad', 0.15);
  if (!m._measure_triad_verify()) throw new MeasureError('verify', 'triad: a wrong element');
  repeat(m, TRIAD, () => m._measure_triad_seconds(), 'triad', 0.15, 0.6);
  if (!m._measure_triad_check()) throw new MeasureError('verify', 'triad: a wrong element after the timed runs');
  const bytes = m._measure_triad_bytes();
  const flops = m._measure_triad_flops();
  const flopsPerByte = m._measure_triad_intensity();
  const triad = summary(m, TRIAD.kernel, bytes);
  m._measure_release();

  // Compute peak: the register loop, verified, then sized to about runSeconds per run.
  progress('peak', 0.6);
  if (!m._measure_peak_verify(PEAK.verifyIterations)) throw new MeasureError('verify', 'register loop: result differs from its scalar reference');
  const probe = m._measure_peak_seconds(PEAK.probeIterations);
  const iterations = probe > 0 ? Math.min(5e8, Math.max(PEAK.probeIterations, Math.round(PEAK.probeIterations * PEAK.runSeconds / probe))) : PEAK.probeIterations * 10;
  repeat(m, PEAK, () => m._measure_peak_seconds(iterations), 'peak', 0.6, 1);
  const peakFlops = m._measure_peak_flops(iterations);
  const peak = summary(m, PEAK.kernel, peakFlops);
  return {
    simd: Boolean(m._measure_simd()),
    threads: 1,
    arrayBytes,
    sizedDown: arrayBytes < requested,
    triad: { elements: arrayBytes / 4, bytes, flops, flopsPerByte, runs: triad.runs, seconds: triad.seconds, bytesPerSecond: triad.rate },
    peak: { iterations, flops: peakFlops, runs: peak.runs, seconds: peak.seconds, flopsPerSecond: peak.rate },
    bytesPerSecond: triad.rate,
    flopsPerSecond: peak.rate,
  };
}

self.onmessage = (e) => {
  const msg = e.data || {};
  if (msg.type !== 'start') return;
  measure(msg).then((result) => {
    progress('peak', 1);
    postMessage({ type: 'done', result });
  }, (err) => {
    postMessage({ type: 'error', code: err instanceof MeasureError ? err.code : 'internal', detail: String(err && err.message ? err.message : err) });
  });
};
