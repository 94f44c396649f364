// The browser benchmark's Web Worker (copied into the site as roofline-measure-worker.js): loads
// the measure module, runs the triad, a read-only dot over working sets from 16 KiB to 256 MiB
// (the memory hierarchy: caches against memory) and the register loop, verifying each before
// timing it, and posts progress and the result. One thread by default; the page stays responsive meanwhile.
//
// page → worker: { type: 'start', urls: { simd, scalar }, arrayBytes, forceScalar, team }
//   urls: where roofline-measure.js and roofline-measure-scalar.js are (same-origin files on a
//   served page; null in the single file, whose blob worker defines both builds before this
//   script as self.__rooflineMeasureFactories); arrayBytes: the size of each of the triad's
//   three arrays to try first (halved while the browser refuses the memory); levelBytes
//   (optional): the working sets of the sweep, in bytes (default LEVELS.sizes).
//   team (optional, only where the page is cross-origin isolated): { index, size, shared }, one of
//   `size` workers measuring at once, each with its own module and arrays; `shared` is a
//   SharedArrayBuffer of 16 + size × TEAM_SLOTS × 8 bytes, the same for all. The workers agree on
//   the array size and the register loop's length, and start every timed repetition together (a
//   barrier with Atomics.wait); a repetition's aggregate rate is the bytes (FLOPs) of all the
//   workers over the repetition's span (see repeat()). Only worker 0 posts progress and the
//   result; a worker that fails posts its error and stops the others.
// worker → page: { type: 'progress', phase, fraction }          phase: load, memory, triad, levels, peak
//                { type: 'done', result }                         (see measure() below)
//                { type: 'error', code, detail }                  code: load, memory, verify, timer
//                { type: 'stopped' }        (a team's worker, when another one failed)
// Cancelling is the page's worker.terminate().
/* global createRooflineMeasure */
'use strict';

// The smallest module that uses a SIMD128 instruction: valid only where SIMD128 is supported.
const SIMD_PROBE = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11]);
const MIN_ARRAY_BYTES = 2 ** 22;  // 4 MiB: below this the arrays fit in many caches: no longer a memory test
const TRIAD = { kernel: 0, maxRuns: 20, minRuns: 3, seconds: 2.5 };
const PEAK = { kernel: 1, maxRuns: 20, minRuns: 3, seconds: 1.5, runSeconds: 0.05, verifyIterations: 1000, probeIterations: 100000 };
// The hierarchy sweep: a read-only dot over two arrays whose bytes together are the working set,
// 16 KiB (in any L1 cache) to 256 MiB (beyond any last-level cache), ×4 a step. After a warm-up,
// each size gets
// about 0.15 s: passes over the set enough to make a run of ≈ runSeconds (a small set is read
// many times per run, so the browser's coarse timer does not decide its rate), then up to
// maxRuns runs. Sizes the browser refuses the memory for are left out, and said so.
const LEVELS = {
  kernel: 2, maxRuns: 12, minRuns: 3, seconds: 0.15, runSeconds: 0.004, maxPasses: 2 ** 20, warmSeconds: 0.06,
  sizes: [2 ** 14, 2 ** 16, 2 ** 18, 2 ** 20, 2 ** 22, 2 ** 24, 2 ** 26, 2 ** 28],
};

const TEAM_SLOTS = 4;             // numbers each worker of a team shares at once (see makeTeam)
const TEAM_WAIT_MS = 30000;       // a barrier that waits longer than this: another worker is gone

class MeasureError extends Error {
  constructor(code, detail) {
    super(detail);
    this.code = code;
  }
}

/** Thrown in a team's worker when another worker failed (and posted its own error). */
class Aborted extends Error {}

/**
 * The workers measuring together. sync(): a barrier; agree(values, op): every worker's values
 * combined slot by slot with op (Math.max, Math.min), the same array in every worker; abort():
 * stops the others at their next barrier. For one worker, sync does nothing and agree returns
 * the worker's own values.
 * The shared buffer: three Int32 (barrier generation, workers arrived, aborted) and one padding,
 * then size × TEAM_SLOTS Float64.
 */
function makeTeam(spec) {
  if (!spec) return { index: 0, size: 1, sync() {}, agree: (values) => values, abort() {} };
  const { index, size, shared } = spec;
  const ok = Number.isInteger(size) && size >= 2 && size <= 64 && Number.isInteger(index) && index >= 0 && index < size
    && typeof SharedArrayBuffer === 'function' && shared instanceof SharedArrayBuffer && shared.byteLength >= 16 + size * TEAM_SLOTS * 8;
  if (!ok) throw new MeasureError('internal_error', 'a team needs { index, size: 2…64, shared: SharedArrayBuffer }');
  const ctl = new Int32Array(shared, 0, 4);
  const slots = new Float64Array(shared, 16, size * TEAM_SLOTS);
  const GEN = 0;
  const ARRIVED = 1;
  const ABORTED = 2;
  function sync() {
    const gen = Atomics.load(ctl, GEN);
    if (Atomics.load(ctl, ABORTED)) throw new Aborted();
    if (Atomics.add(ctl, ARRIVED, 1) === size - 1) {
      Atomics.store(ctl, ARRIVED, 0);
      Atomics.add(ctl, GEN, 1);
      Atomics.notify(ctl, GEN);
      return;
    }
    const t0 = performance.now();
    while (Atomics.load(ctl, GEN) === gen) {
      if (Atomics.load(ctl, ABORTED)) throw new Aborted();
      if (performance.now() - t0 > TEAM_WAIT_MS) throw new MeasureError('timer', 'another worker stopped answering');
      Atomics.wait(ctl, GEN, gen, 100);
    }
  }
  function agree(values, op) {
    values.forEach((v, j) => { slots[index * TEAM_SLOTS + j] = v; });
    sync();
    const out = values.map((_, j) => {
      let r = slots[j];
      for (let w = 1; w < size; w += 1) r = op(r, slots[w * TEAM_SLOTS + j]);
      return r;
    });
    sync();  // nobody writes the slots again before every worker has read them
    return out;
  }
  function abort() {
    Atomics.store(ctl, ABORTED, 1);
    Atomics.notify(ctl, GEN);
  }
  return { index, size, sync, agree, abort };
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

/**
 * Times `run` until maxRuns runs or `seconds` have passed (at least minRuns), after one warm-up.
 * In a team, every run starts together (a barrier), and what is recorded is each run's span:
 * from the first worker's start to the last worker's end, on the clock the workers share
 * (performance.timeOrigin + now()), and never less than the longest worker's own time. The
 * barrier does not wake every worker at the same instant; the span keeps a worker that ran
 * alone for part of the run from inflating the aggregate rate. Every worker stops after the
 * same run (the longest elapsed time decides).
 */
function repeat(m, team, spec, run, phase, from, to) {
  run();
  m._measure_times_clear(spec.kernel);
  const spans = [];
  const t0 = performance.now();
  for (let i = 0; i < spec.maxRuns; i += 1) {
    team.sync();
    const begin = performance.timeOrigin + performance.now();
    const t = run();
    const end = performance.timeOrigin + performance.now();
    if (t < 0) throw new MeasureError('timer', `${phase}: no valid time`);
    const [wall, ms, first, last] = team.agree([t, performance.now() - t0, -begin, end], Math.max);
    spans.push(Math.max(wall, (last + first) / 1000));
    const elapsed = ms / 1000;
    if (team.index === 0) progress(phase, from + (to - from) * Math.max((i + 1) / spec.maxRuns, elapsed / spec.seconds));
    if (i + 1 >= spec.minRuns && elapsed > spec.seconds) break;
  }
  if (team.size > 1) {
    m._measure_times_clear(spec.kernel);
    for (const span of spans) m._measure_times_add(spec.kernel, span);
  }
}

function summary(m, kernel, amount) {
  const seconds = { min: m._measure_summary(kernel, 0, amount), median: m._measure_summary(kernel, 1, amount), max: m._measure_summary(kernel, 2, amount) };
  const rate = m._measure_summary(kernel, 3, amount);
  if (!(rate > 0) || !Number.isFinite(rate)) throw new MeasureError('timer', 'the runs were shorter than the timer can resolve');
  return { runs: m._measure_times_count(kernel), seconds, rate };
}

/**
 * The sweep: one allocation for the largest working set that fits (halved while refused), every
 * size a prefix of both arrays; each size verified (its sum exact against a double reference),
 * then timed in runs of several passes, then its timed sums checked. In a team every worker reads
 * its own arrays at once: working sets are per worker, rates the bytes of all over the span.
 */
function sweep(m, team, sizes, from, to) {
  const lead = team.index === 0;
  const wanted = sizes.filter((b) => Number.isFinite(b) && b >= 64).map((b) => Math.floor(b / 64) * 8).sort((a, b) => a - b);
  if (!wanted.length) return { levels: [], skipped: [], flopsPerByte: m._measure_dot_intensity() };
  // elements of each array: a working set of 8·n bytes
  let n = wanted[wanted.length - 1];
  while (n >= wanted[0] && !m._measure_dot_alloc(n)) n = Math.floor(n / 2);
  const [most] = team.agree([n >= wanted[0] ? n : 0], Math.min);
  if (most < n && most >= wanted[0] && !m._measure_dot_alloc(most)) throw new MeasureError('memory', `${most * 8} bytes of dot arrays refused`);
  const fits = wanted.filter((x) => x <= most);
  const skipped = wanted.filter((x) => x > most).map((x) => m._measure_dot_bytes(x));
  const levels = [];
  // the engine compiles a hot function again, optimized, a while after its first calls: the dot
  // runs for warmSeconds before anything is timed, so that no size is timed in the first code
  if (fits.length && m._measure_dot_verify(fits[0])) {
    const t0 = performance.now();
    while (performance.now() - t0 < LEVELS.warmSeconds * 1000) m._measure_dot_seconds(Math.max(1, Math.round(2 ** 20 / m._measure_dot_bytes(fits[0]))));
  }
  fits.forEach((count, k) => {
    const at = from + ((to - from) * k) / fits.length;
    if (lead) progress('levels', at);
    if (!m._measure_dot_verify(count)) throw new MeasureError('verify', `dot over ${count} elements: its sum differs from the reference`);
    const bytes = m._measure_dot_bytes(count);
    // passes per run: from a probe, enough for about runSeconds (the slowest worker's probe). A
    // probe is the better of two runs: the first read of a set that has just left the caches, or
    // of pages touched for the first time, is slower than the rest, and would make runs too short
    let passes = Math.max(1, Math.round(2 ** 22 / bytes));
    for (;;) {
      const first = m._measure_dot_seconds(passes);
      const second = m._measure_dot_seconds(passes);
      if (first < 0 || second < 0) throw new MeasureError('timer', 'dot: no valid time');
      const [probe] = team.agree([Math.min(first, second)], Math.max);
      if (probe >= LEVELS.runSeconds / 2 || passes >= LEVELS.maxPasses) {
        passes = Math.min(LEVELS.maxPasses, Math.max(1, Math.round((passes * LEVELS.runSeconds) / Math.max(probe, 1e-9))));
        break;
      }
      passes = Math.min(LEVELS.maxPasses, passes * 4);
    }
    repeat(m, team, LEVELS, () => m._measure_dot_seconds(passes), 'levels', at, at + (to - from) / fits.length);
    if (!m._measure_dot_check()) throw new MeasureError('verify', `dot over ${count} elements: a timed sum differs from the reference`);
    const s = summary(m, LEVELS.kernel, bytes * passes * team.size);
    levels.push({ workingSetBytes: bytes, bytesPerSecond: s.rate, passes, runs: s.runs, seconds: s.seconds });
  });
  m._measure_dot_release();
  return { levels, skipped, flopsPerByte: m._measure_dot_intensity() };
}

async function measure(msg, team) {
  const lead = team.index === 0;
  if (lead) progress('load', 0);
  const m = await loadModule(msg.urls, msg.forceScalar);
  if (lead) progress('memory', 0.05);
  // The memory hierarchy first: the same read-only kernel from a cache-sized set to one beyond
  // every cache. Its arrays are the largest the benchmark takes; given back, they leave the
  // module's memory grown, and the triad's arrays fit where they were.
  const sizes = Array.isArray(msg.levelBytes) ? msg.levelBytes.map(Number) : LEVELS.sizes;
  const hierarchy = sweep(m, team, sizes, 0.05, 0.4);

  // Memory bandwidth: three arrays far beyond the last-level cache, sized down while refused.
  let arrayBytes = Math.max(MIN_ARRAY_BYTES, Math.floor(Number(msg.arrayBytes) || 2 ** 26));
  const requested = arrayBytes;
  while (!m._measure_alloc(arrayBytes / 4)) {
    arrayBytes /= 2;
    if (arrayBytes < MIN_ARRAY_BYTES) throw new MeasureError('memory', `${requested} bytes per array refused, and every smaller size down to ${MIN_ARRAY_BYTES}`);
  }
  // a team measures arrays of one size: the smallest any worker got
  const [agreed] = team.agree([arrayBytes], Math.min);
  if (agreed < arrayBytes) {
    arrayBytes = agreed;
    if (!m._measure_alloc(arrayBytes / 4)) throw new MeasureError('memory', `${arrayBytes} bytes per array refused`);
  }
  if (lead) progress('triad', 0.4);
  if (!m._measure_triad_verify()) throw new MeasureError('verify', 'triad: a wrong element');
  repeat(m, team, TRIAD, () => m._measure_triad_seconds(), 'triad', 0.4, 0.8);
  if (!m._measure_triad_check()) throw new MeasureError('verify', 'triad: a wrong element after the timed runs');
  // in a team, the bytes and FLOPs of all the workers (each moves the same arrays)
  const bytes = m._measure_triad_bytes() * team.size;
  const flops = m._measure_triad_flops() * team.size;
  const flopsPerByte = m._measure_triad_intensity();
  const triad = summary(m, TRIAD.kernel, bytes);
  m._measure_release();

  // Compute peak: the register loop, verified, then sized to about runSeconds per run (in a
  // team, from the slowest worker's probe: every worker runs the same loop).
  if (lead) progress('peak', 0.8);
  if (!m._measure_peak_verify(PEAK.verifyIterations)) throw new MeasureError('verify', 'register loop: result differs from its scalar reference');
  const [probe] = team.agree([m._measure_peak_seconds(PEAK.probeIterations)], Math.max);
  const iterations = probe > 0 ? Math.min(5e8, Math.max(PEAK.probeIterations, Math.round(PEAK.probeIterations * PEAK.runSeconds / probe))) : PEAK.probeIterations * 10;
  repeat(m, team, PEAK, () => m._measure_peak_seconds(iterations), 'peak', 0.8, 1);
  const peakFlops = m._measure_peak_flops(iterations) * team.size;
  const peak = summary(m, PEAK.kernel, peakFlops);
  return {
    simd: Boolean(m._measure_simd()),
    threads: team.size,
    arrayBytes,
    sizedDown: arrayBytes < requested,
    triad: { elements: (arrayBytes / 4) * team.size, bytes, flops, flopsPerByte, runs: triad.runs, seconds: triad.seconds, bytesPerSecond: triad.rate },
    peak: { iterations, flops: peakFlops, runs: peak.runs, seconds: peak.seconds, flopsPerSecond: peak.rate },
    // per worker's working set, ascending; skippedBytes: the sizes the browser refused the memory for
    levels: hierarchy.levels,
    levelsSkippedBytes: hierarchy.skipped,
    levelsFlopsPerByte: hierarchy.flopsPerByte,
    bytesPerSecond: triad.rate,
    flopsPerSecond: peak.rate,
  };
}

self.onmessage = (e) => {
  const msg = e.data || {};
  if (msg.type !== 'start') return;
  let team = null;
  Promise.resolve().then(() => {
    team = makeTeam(msg.team);
    return measure(msg, team);
  }).then((result) => {
    if (team.index !== 0) return;
    progress('peak', 1);
    postMessage({ type: 'done', result });
  }, (err) => {
    if (err instanceof Aborted) {  // the worker that failed has posted its error
      postMessage({ type: 'stopped' });
      return;
    }
    postMessage({ type: 'error', code: err instanceof MeasureError ? err.code : 'internal_error', detail: String(err && err.message ? err.message : err) });
    if (team) team.abort();
  });
};
