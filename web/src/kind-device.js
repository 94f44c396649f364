// Calculator "device": your own machine on the roofline. A short WebAssembly benchmark
// (wasm/measure, in a Web Worker: one thread, a triad for the memory bandwidth, a register loop
// of multiply-adds for the FP32 peak) fills the two fields; where the page is cross-origin
// isolated (SharedArrayBuffer available), an option runs several such workers at once; the core then computes the ridge and
// what the device would do on the lesson's cases, and the chart puts its roof beside the
// catalog's GPUs. The fields can also be typed or come from a shared link (values only).
// The same measurement reads one array pair at working sets from 16 KiB to 256 MiB (a read-only
// dot): the device's cache against its memory, drawn as two more roofs, with why tiles pay.
// Test hooks: the panel has data-measure-state (idle, running, done, cancelled, error) and, when
// done, data-bytes-per-second, data-flops-per-second and data-levels (a JSON list of
// { workingSetBytes, bytesPerSecond }, smallest set first); the start button has data-measure.
import { caseArgs, caseValues, catalog, dtypeName, DECODE_CASE } from './catalog.js';
import { catalogName } from './i18n.js';
import { logFrame, marker, dataTable, fmtTick, scrollBox, chartLegend, roofSegments } from './charts.js';
import { loadedBench, binaryBytes, placeSlopeLabel } from './bench.js';
import { h, s, clear } from './dom.js';
import { format, DASH } from './format.js';
import { besideScript } from './load.js';

const ARRAY_BYTES = 2 ** 26;           // 64 MiB, each of the triad's three arrays: far beyond a last-level cache
const TEAM_BYTES = 2 ** 30;            // several workers: at most this much of triad arrays in all
const MAX_THREADS = 16;
const TEAM_SLOTS = 4;                  // numbers each worker shares in the team's buffer (worker.js's TEAM_SLOTS)
const STALL_MS = 20000;                // no progress for this long: the worker is stopped

const MATMUL_CASE = 'matmul-4096';
const LAYER_CASE = 'layer-4096';
const DTYPE = 'fp32';                  // what the register loop measures
// The hierarchy sweep's working sets (both arrays of the dot together), ×4 a step: 16 KiB fits in
// any L1 cache, 256 MiB in no last-level cache. Several workers keep to TEAM_BYTES in all.
const LEVEL_BYTES = [2 ** 14, 2 ** 16, 2 ** 18, 2 ** 20, 2 ** 22, 2 ** 24, 2 ** 26, 2 ** 28];
// The smallest set must read at least this many times as fast as the largest for the panel to
// call it the cache's speed; below that it says why the sweep may not show it.
const LEVEL_RATIO = 1.5;
const TILE_SECTION = 'tile';           // the lesson page's tiles section (page.js SECTIONS)

/**
 * The worker and the module's two builds: files beside this script on a served page; in the
 * single file, one blob: worker made of its text blocks (a blob worker from file:// has an opaque
 * origin of its own and cannot import another blob, so both builds come inside it, each in its
 * own scope, and the worker picks one).
 */
function workerSources() {
  const text = {};
  for (const key of ['simd', 'scalar', 'worker']) {
    const el = document.getElementById(`roofline-measure-${key}`);
    if (!el) {
      return { worker: besideScript('roofline-measure-worker.js'), simd: besideScript('roofline-measure.js'), scalar: besideScript('roofline-measure-scalar.js') };
    }
    text[key] = el.textContent;
  }
  const wrap = (key) => `(function () {\n${text[key]}\n;self.__rooflineMeasureFactories.${key} = createRooflineMeasure;\n})();\n`;
  const source = `self.__rooflineMeasureFactories = {};\n${wrap('simd')}${wrap('scalar')}${text.worker}`;
  return { worker: URL.createObjectURL(new Blob([source], { type: 'text/javascript' })), simd: null, scalar: null };
}

/**
 * How many threads this page may offer: 1 unless it is cross-origin isolated (the only way to a
 * SharedArrayBuffer, which the workers' barrier needs) on a machine with more than one.
 */
export function maxThreads() {
  const isolated = globalThis.crossOriginIsolated === true && typeof SharedArrayBuffer === 'function';
  const cores = Number(globalThis.navigator && navigator.hardwareConcurrency);
  return isolated && Number.isInteger(cores) && cores > 1 ? Math.min(cores, MAX_THREADS) : 1;
}

/** The sweep's working sets for `threads` workers: each worker's, at most TEAM_BYTES in all. */
function levelBytesFor(threads) {
  return LEVEL_BYTES.filter((b) => b * threads <= TEAM_BYTES);
}

/** Each triad array's size to try first: 64 MiB, less for many threads (≤ TEAM_BYTES in all). */
function arrayBytesFor(threads) {
  let bytes = ARRAY_BYTES;
  while (bytes > 2 ** 22 && 3 * bytes * threads > TEAM_BYTES) bytes /= 2;
  return bytes;
}

/**
 * A running measurement on `threads` workers (1: the plain single worker): start(), cancel();
 * callbacks onProgress(phase, fraction), onDone(result), onError(code, detail). Several workers
 * share one SharedArrayBuffer for their barrier (see worker.js); worker 0 reports.
 */
class Measurement {
  constructor(handlers, threads = 1) {
    this.handlers = handlers;
    this.threads = threads;
    this.workers = [];
    this.timer = null;
  }

  get worker() {
    return this.workers.length ? this.workers[0] : null;
  }

  start() {
    let src;
    try {
      src = workerSources();
      for (let i = 0; i < this.threads; i += 1) this.workers.push(new Worker(src.worker));
    } catch (e) {
      this.stop();
      this.fail('worker', String(e && e.message ? e.message : e));
      return;
    }
    const shared = this.threads > 1 ? new SharedArrayBuffer(16 + this.threads * TEAM_SLOTS * 8) : null;
    this.workers.forEach((w, index) => {
      w.onmessage = (e) => {
        const m = e.data || {};
        this.watch();
        if (m.type === 'progress') this.handlers.onProgress(m.phase, m.fraction);
        else if (m.type === 'done') {
          this.stop();
          this.handlers.onDone(m.result);
        } else if (m.type === 'error') this.fail(m.code, m.detail);
      };
      w.onerror = (e) => {
        if (e && e.preventDefault) e.preventDefault();
        this.fail('worker', String((e && e.message) || 'worker failed to start'));
      };
      const msg = { type: 'start', urls: { simd: src.simd, scalar: src.scalar }, arrayBytes: arrayBytesFor(this.threads), levelBytes: levelBytesFor(this.threads) };
      if (shared) msg.team = { index, size: this.threads, shared };
      w.postMessage(msg);
    });
    this.watch();
  }

  watch() {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.fail('stalled', ''), STALL_MS);
  }

  stop() {
    clearTimeout(this.timer);
    for (const w of this.workers) w.terminate();
    this.workers = [];
  }

  cancel() {
    this.stop();
  }

  fail(code, detail) {
    if (!this.worker && code !== 'worker') return;
    this.stop();
    this.handlers.onError(code, detail);
  }
}

/** The state of the panel, kept across redraws (language changes) in the calculator's extra. */
function panel(c) {
  return c.state.extra;
}

/** A number in the calculator's language (the panel is also redrawn outside compute()). */
function fmt(c, value, kind) {
  return value === null || value === undefined ? DASH : format(value, kind, c.lang);
}

export const deviceKind = {
  kind: 'device',
  // blank until measured, typed or read from a link: there is no default device
  fields: [
    { id: 'bw', def: Number.NaN, step: 1, unit: 'gbps', unitLabel: 'GB/s', term: 'bandwidth' },
    { id: 'peak', def: Number.NaN, step: 1, unit: 'giga', unitLabel: 'GFLOPS', term: 'tflops' },
  ],
  initExtra: () => ({ state: 'idle', phase: null, fraction: 0, result: null, error: null, measurement: null, threads: 1 }),
  rows: [
    { id: 'ridge', term: 'roofline' },
    { id: 'decode', term: 'memory-bound' },
    { id: 'matmul', term: 'compute-bound' },
    { id: 'batch', term: 'intensity' },
  ],
  renderFigure(c, el) {
    const p = panel(c);
    const status = h('p', { class: 'measure-status', 'aria-live': 'polite' });
    const bar = h('progress', { class: 'measure-progress', max: 1, value: p.fraction, 'aria-label': c.tr('device.progress') });
    const start = h('button', { type: 'button', class: 'measure-start', 'data-measure': '', onclick: () => startMeasure(c) }, c.tr('device.measure'));
    const cancel = h('button', { type: 'button', class: 'measure-cancel', onclick: () => cancelMeasure(c) }, c.tr('device.cancel'));
    // several threads only where the page is cross-origin isolated; otherwise no option at all
    const most = maxThreads();
    let threads = null;
    if (most > 1) {
      p.threads = Math.min(Math.max(1, p.threads || 1), most);
      const options = Array.from({ length: most }, (_, i) => h('option', { value: String(i + 1) }, fmt(c, i + 1, 'integer')));
      threads = h('select', { class: 'measure-threads', onchange: (e) => { p.threads = Number(e.target.value) || 1; } }, options);
      threads.value = String(p.threads);
    } else p.threads = 1;
    const box = h('div', { class: 'measure', 'data-measure-state': p.state },
      h('div', { class: 'measure-controls' }, start, cancel, threads && h('label', { class: 'measure-threads-label' }, `${c.tr('device.threads.label')} `, threads), bar), status,
      h('p', { class: 'hint measure-why' }, c.tr(threads ? 'device.why.threads' : 'device.why')));
    c.parts.measureEls = { box, status, bar, start, cancel, threads };
    c.parts.resultBox = h('div', { class: 'measure-result' });
    c.parts.chartBox = h('div', { class: 'chart-box' });
    c.parts.nativeBox = h('div', { class: 'measure-native' });
    el.append(box, c.parts.resultBox, c.parts.chartBox, c.parts.nativeBox);
    if (!c.parts.benchListener) {
      // a file loaded in the overlay changes what the calculator compares with, not its inputs
      c.parts.benchListener = () => c.update({ changed: false });
      document.addEventListener('roofline-bench-loaded', c.parts.benchListener);
    }
    syncPanel(c);
  },
  // removed from the page (a single-page site navigating away): stop listening and measuring;
  // inserted again: listen again (a measurement that was cancelled can be started again)
  connect(c) {
    if (c.parts.benchListener) document.addEventListener('roofline-bench-loaded', c.parts.benchListener);
  },
  disconnect(c) {
    if (c.parts.benchListener) document.removeEventListener('roofline-bench-loaded', c.parts.benchListener);
    cancelMeasure(c);
  },
  compute(c) {
    const { v } = c;
    const p = panel(c);
    syncPanel(c);
    const blank = !String(c.state.fields.bw ?? '').trim() && !String(c.state.fields.peak ?? '').trim();
    if (blank) {
      for (const id of ['ridge', 'decode', 'matmul', 'batch']) c.row(id, null, null);
      c.summary(c.t(p.state === 'running' ? 'device.summary.running' : 'device.summary.none'));
      c.later(() => drawDevice(c, null));
      return;
    }
    const map = { peakFlopsPerSecond: 'peak', bytesPerSecond: 'bw' };
    const r = c.call('roofline', { peakFlopsPerSecond: v.peak, bytesPerSecond: v.bw, flopsPerByte: 1 }, map);
    const ridge = r && r.ridgeFlopsPerByte;
    c.row('ridge', r && `${c.n('peak', 'giga')} ÷ ${c.n('bw', 'gbps')}`, ridge, 'ridgeFlopsPerByte');

    const dc = caseArgs(c.rl, DECODE_CASE, 'decode');
    const d = c.call('decode', {
      weightBytes: dc.weightBytes, kvBytesPerSequence: dc.kvBytesPerSequence, batch: dc.batch, gpus: dc.gpus,
      flopsPerToken: dc.flopsPerToken, bytesPerSecond: v.bw, peakFlopsPerSecond: v.peak,
    }, map);
    const cv = caseValues(c.rl, DECODE_CASE);
    const model = catalogName('model', cv.model, c.lang);
    const wf = catalogName('format', cv.format, c.lang);
    // a device whose peak is below its bandwidth (a ridge under decode's intensity) decodes at the
    // pace of its arithmetic: the row says so rather than dividing the bandwidth
    const decodeHow = d && (d.bound === 'compute'
      ? c.t('device.how.decodeCompute', { model, format: wf, flops: c.fmt(dc.flopsPerToken, 'flops'), peak: c.n('peak', 'giga') })
      : c.t('device.how.decode', { model, format: wf, bytes: c.fmt(dc.weightBytes, 'bytes'), bw: c.n('bw', 'gbps') }));
    c.row('decode', decodeHow, d && d.tokensPerSecond, 'number');
    c.rowTerm('decode', d && d.bound === 'compute' ? 'compute-bound' : 'memory-bound');

    const mm = c.rl.matmul(caseArgs(c.rl, MATMUL_CASE, 'matmul', { dtype: DTYPE }));
    const k = c.call('clocks', { flops: mm.flops, bytes: mm.bytes, peakFlopsPerSecond: v.peak, bytesPerSecond: v.bw }, map);
    const fp = dtypeName(c.rl, DTYPE);
    c.row('matmul', k && c.t('device.how.matmul', { n: c.fmt(mm.rows, 'integer'), dtype: fp, flops: c.fmt(mm.flops, 'flops'), peak: c.n('peak', 'giga'), bytes: c.fmt(mm.bytes, 'bytes'), bw: c.n('bw', 'gbps') }), k && k.seconds, 'seconds');

    const lc = caseArgs(c.rl, LAYER_CASE, 'minBatchForRidge', { dtype: DTYPE });
    const b = r ? c.call('minBatchForRidge', { inputs: lc.inputs, outputs: lc.outputs, dtype: lc.dtype, ridgeFlopsPerByte: ridge }) : null;
    c.row('batch', b && c.t('device.how.batch', { n: c.fmt(lc.inputs, 'integer'), m: c.fmt(lc.outputs, 'integer'), dtype: fp, ridge: c.fmt(ridge, 'ridge') }), b && b.batch, 'integer');

    c.summary(r && d && k
      ? c.t('device.summary', { bw: c.fmt(v.bw, 'bytesPerSecond'), peak: c.fmt(v.peak, 'flopsPerSecond'), ridge: c.fmt(ridge, 'ridge'), tps: c.fmt(d.tokensPerSecond, 'number'), model, seconds: c.fmt(k.seconds, 'seconds'), n: c.fmt(mm.rows, 'integer') })
      : c.t('calc.summary.invalid'));
    c.later(() => drawDevice(c, r ? { peak: v.peak, bw: v.bw, ridge } : null));
  },
};

function syncPanel(c) {
  const p = panel(c);
  const els = c.parts.measureEls;
  if (!els) return;
  // keyboard focus follows the one button that can act: cancel while running, start otherwise
  const focused = c.root && c.root.activeElement;
  els.box.setAttribute('data-measure-state', p.state);
  const done = p.state === 'done' && p.result;
  if (done) {
    els.box.setAttribute('data-bytes-per-second', String(p.result.bytesPerSecond));
    els.box.setAttribute('data-flops-per-second', String(p.result.flopsPerSecond));
    els.box.setAttribute('data-levels', JSON.stringify(levelsOf(p.result).map((l) => ({ workingSetBytes: l.workingSetBytes, bytesPerSecond: l.bytesPerSecond }))));
  } else {
    els.box.removeAttribute('data-bytes-per-second');
    els.box.removeAttribute('data-flops-per-second');
    els.box.removeAttribute('data-levels');
  }
  const running = p.state === 'running';
  els.start.disabled = running;
  if (els.threads) els.threads.disabled = running;
  els.cancel.hidden = !running;
  if (running && focused === els.start) els.cancel.focus();
  else if (!running && focused === els.cancel) els.start.focus();
  els.bar.hidden = !running;
  els.bar.value = p.fraction;
  let text = '';
  if (running) text = c.tr('device.running', { phase: c.tr(`device.phase.${p.phase || 'load'}`), percent: fmt(c, p.fraction, 'percent') });
  else if (p.state === 'cancelled') text = c.tr('device.cancelled');
  else if (p.state === 'error') text = c.tr(`device.error.${p.error.code}`, { detail: String(p.error.detail || '').slice(0, 160) }); // not a catalog figure
  else if (done) text = c.tr('device.done');
  els.status.textContent = text;
  els.status.classList.toggle('form-error', p.state === 'error');
  if (p.state === 'error') els.status.setAttribute('role', 'alert');
  else els.status.removeAttribute('role');
  renderResult(c);
}

function startMeasure(c) {
  const p = panel(c);
  if (p.state === 'running') return;
  const threads = Math.min(Math.max(1, p.threads || 1), maxThreads());
  Object.assign(p, { state: 'running', phase: 'load', fraction: 0, result: null, error: null });
  p.measurement = new Measurement({
    onProgress: (phase, fraction) => {
      Object.assign(p, { phase, fraction });
      syncPanel(c);
    },
    onDone: (result) => {
      Object.assign(p, { state: 'done', fraction: 1, result, measurement: null });
      c.setField('bw', result.bytesPerSecond);
      c.setField('peak', result.flopsPerSecond);
      c.syncFields();
      c.update();
    },
    onError: (code, detail) => {
      Object.assign(p, { state: 'error', error: { code: ['load', 'memory', 'verify', 'timer', 'worker', 'stalled'].includes(code) ? code : 'internal_error', detail }, measurement: null });
      c.update({ changed: false });
    },
  }, threads);
  // starting, failing and cancelling change the panel, not the inputs (nor the address)
  c.update({ changed: false });
  p.measurement.start();
}

function cancelMeasure(c) {
  const p = panel(c);
  if (p.state !== 'running' || !p.measurement) return;
  p.measurement.cancel();
  Object.assign(p, { state: 'cancelled', measurement: null, fraction: 0 });
  c.update({ changed: false });
}

/** The measurement's details: min / median / max of each kernel, the build, download. */
function renderResult(c) {
  const p = panel(c);
  const box = c.parts.resultBox;
  if (!box) return;
  clear(box);
  const r = p.state === 'done' && p.result;
  if (!r) return;
  const ms = (x) => fmt(c, x, 'seconds');
  const rows = [
    [triadName(c, r), String(r.triad.runs), ms(r.triad.seconds.min), ms(r.triad.seconds.median), ms(r.triad.seconds.max), fmt(c, r.triad.bytesPerSecond, 'bytesPerSecond')],
    [c.tr('device.kernel.peak'), String(r.peak.runs), ms(r.peak.seconds.min), ms(r.peak.seconds.median), ms(r.peak.seconds.max), fmt(c, r.peak.flopsPerSecond, 'flopsPerSecond')],
  ];
  box.append(h('table', { class: 'measure-table' },
    h('caption', {}, c.tr('device.table.caption', { build: c.tr(r.simd ? 'device.build.simd' : 'device.build.scalar'), threads: threadsText(c, r.threads) })),
    h('thead', {}, h('tr', {}, ['kernel', 'runs', 'min', 'median', 'max', 'rate'].map((x) => h('th', { scope: 'col' }, c.tr(`device.col.${x}`))))),
    h('tbody', {}, rows.map((row) => h('tr', {}, row.map((x, i) => (i === 0 ? h('th', { scope: 'row' }, x) : h('td', {}, x))))))));
  if (r.sizedDown) box.append(h('p', { class: 'hint' }, c.tr('device.sizedDown', { size: fmt(c, r.arrayBytes, 'bytes') })));
  renderLevels(c, r, box);
  const download = h('button', { type: 'button', class: 'measure-download', onclick: () => downloadResult(c, r) }, c.tr('device.download'));
  box.append(h('p', {}, download));
}

/** The sweep's points with a rate (finite, > 0), smallest working set first; [] without a sweep. */
function levelsOf(r) {
  const ok = (x) => typeof x === 'number' && Number.isFinite(x) && x > 0;
  return (Array.isArray(r && r.levels) ? r.levels : []).filter((l) => l && ok(l.workingSetBytes) && ok(l.bytesPerSecond))
    .slice().sort((a, b) => a.workingSetBytes - b.workingSetBytes);
}

/**
 * Your cache against your memory: the sweep's fastest point (a set that stays in a cache) and its
 * largest set (read from memory), the second's share of the first from the core; null with fewer
 * than two points.
 */
function cacheAndMemory(c, r) {
  const ls = levelsOf(r);
  if (ls.length < 2) return null;
  const memory = ls[ls.length - 1];
  const cache = ls.reduce((best, l) => (l.bytesPerSecond > best.bytesPerSecond ? l : best), ls[0]);
  const smallest = ls[0];
  // how many times the smallest set's rate is the largest's: a "utilization" of one bandwidth by the other
  const times = (a, b) => c.rl.utilization({ achievedFlopsPerSecond: a.bytesPerSecond, peakFlopsPerSecond: b.bytesPerSecond }).fraction;
  return { cache, memory, smallest, ratio: times(cache, memory), smallestRatio: times(smallest, memory) };
}

/** The sweep's table, and what it says: why tiles pay, or why this run does not show the cache. */
function renderLevels(c, r, box) {
  const ls = levelsOf(r);
  const skipped = (Array.isArray(r.levelsSkippedBytes) ? r.levelsSkippedBytes : []).filter((b) => Number.isFinite(b) && b > 0);
  const ms = (x) => fmt(c, x, 'seconds');
  if (ls.length) {
    // four columns, to fit a phone's width; the table scrolls on its own where they do not
    const rows = ls.map((l) => [binaryBytes(l.workingSetBytes, c.lang), fmt(c, l.passes, 'integer'), ms(l.seconds.min), fmt(c, l.bytesPerSecond, 'bytesPerSecond')]);
    const most = Math.max(...ls.map((l) => l.runs));
    const caption = c.tr('device.levels.caption', { threads: threadsText(c, r.threads), runs: fmt(c, most, 'integer') });
    box.append(scrollBox(h('table', { class: 'measure-levels' },
      h('caption', {}, caption),
      h('thead', {}, h('tr', {}, ['size', 'passes', 'min', 'rate'].map((x) => h('th', { scope: 'col' }, c.tr(`device.levels.col.${x}`))))),
      h('tbody', {}, rows.map((row) => h('tr', {}, row.map((x, i) => (i === 0 ? h('th', { scope: 'row' }, x) : h('td', {}, x))))))), caption));
  }
  if (skipped.length) {
    box.append(h('p', { class: 'hint measure-levels-skipped' }, c.tr('device.levels.skipped', { sizes: skipped.map((b) => binaryBytes(b, c.lang)).join(', ') })));
  }
  const cm = cacheAndMemory(c, r);
  if (!cm) return;
  // the triad's rate (the summary's, the calculators') and the sweep's read-only memory roof
  // differ: each is named, and why, so the two numbers on one screen are not one quantity
  if (r.triad && Number.isFinite(r.triad.bytesPerSecond)) {
    box.append(h('p', { class: 'hint measure-two-rates' }, c.tr('device.levels.twoRates', { triad: fmt(c, r.triad.bytesPerSecond, 'bytesPerSecond'), read: fmt(c, cm.memory.bytesPerSecond, 'bytesPerSecond') })));
  }
  const sizes = { small: binaryBytes(cm.smallest.workingSetBytes, c.lang), large: binaryBytes(cm.memory.workingSetBytes, c.lang) };
  if (cm.smallestRatio >= LEVEL_RATIO) {
    const text = c.tr('device.levels.pays', { ...sizes, cacheSize: binaryBytes(cm.cache.workingSetBytes, c.lang), fast: fmt(c, cm.cache.bytesPerSecond, 'bytesPerSecond'), slow: fmt(c, cm.memory.bytesPerSecond, 'bytesPerSecond'), ratio: fmt(c, cm.ratio, 'ratio') });
    // on the lesson's page, a link to its tiles section; an embedded calculator has none to go to
    const calc = c.calc || c;
    const link = calc.linkTerms ? h('a', { class: 'levels-tiles', href: `#${TILE_SECTION}` }, c.tr('device.levels.link')) : null;
    box.append(h('p', { class: 'measure-levels-pays' }, text, link ? ' ' : null, link));
  } else {
    box.append(h('p', { class: 'hint measure-levels-flat' }, c.tr('device.levels.flat', {
      ...sizes, fast: fmt(c, cm.smallest.bytesPerSecond, 'bytesPerSecond'), slow: fmt(c, cm.memory.bytesPerSecond, 'bytesPerSecond'), ratio: fmt(c, LEVEL_RATIO, 'number'),
    })));
  }
}

/** "one thread", "2 threads" in the calculator's language. */
function threadsText(c, n) {
  return n > 1 ? c.tr('device.threads.many', { n: fmt(c, n, 'integer') }) : c.tr('device.threads.one');
}

/** The triad's name: over three arrays of a size (in each thread, for several). */
function triadName(c, r) {
  return c.tr(r.threads > 1 ? 'device.kernel.triad.each' : 'device.kernel.triad', { size: fmt(c, r.arrayBytes, 'bytes') });
}

/** The triad's point: its intensity (kernel_costs) at the rate the measured bandwidth gives it. */
function triadPoint(c, r) {
  const q = c.rl.roofline({ peakFlopsPerSecond: r.flopsPerSecond, bytesPerSecond: r.bytesPerSecond, flopsPerByte: r.triad.flopsPerByte });
  return { flopsPerByte: r.triad.flopsPerByte, flopsPerSecond: q.memoryFlopsPerSecond };
}

/** The measurement as a roofline-bench/1 file, which the benchmark overlay loads. */
export function benchJson(c, r) {
  const tp = triadPoint(c, r);
  return {
    schema: 'roofline-bench/1',
    date: new Date().toISOString(),
    machine: { name: c.tr('device.machineName', { build: c.tr(r.simd ? 'device.build.simd' : 'device.build.scalar'), threads: threadsText(c, r.threads) }), slug: 'browser', threads: String(r.threads), isa: r.simd ? 'wasm-simd128' : 'wasm-scalar' },
    backend: 'cpu',
    quick: false,
    allVerified: true,
    ceilings: {
      measured: { bytesPerSecond: r.bytesPerSecond, peakFlopsPerSecond: { fp32: r.flopsPerSecond }, bandwidthFrom: 'browser_triad', peakFrom: { fp32: 'browser_peak_fp32' } },
      datasheet: null,
    },
    // the native file's field names; the register loop has no bytes, so it is a ceiling, not a point
    kernels: [{
      id: 'browser_triad', name: triadName(c, r), family: 'stream', dtype: DTYPE, computeDtype: DTYPE,
      shape: { n: r.triad.elements, k: 0, m: 0 }, flops: r.triad.flops, bytes: r.triad.bytes, flopsPerByte: tp.flopsPerByte,
      verified: true, repetitions: r.triad.runs, timeSeconds: r.triad.seconds, flopsPerSecond: tp.flopsPerSecond, bytesPerSecond: r.triad.bytesPerSecond,
    }],
    peak: { id: 'browser_peak_fp32', flops: r.peak.flops, repetitions: r.peak.runs, timeSeconds: r.peak.seconds, flopsPerSecond: r.peak.flopsPerSecond },
    // the hierarchy sweep's points, as the native file's levelSweep (working sets per thread)
    levelSweep: levelsOf(r).map((l) => ({
      id: `browser_dot_${l.workingSetBytes}`, kernel: 'dot', workingSetBytes: l.workingSetBytes, bytes: l.workingSetBytes * l.passes * r.threads,
      verified: true, verification: 'sum exact against a double-precision reference, before and after timing', repetitions: l.runs, timeSeconds: l.seconds, bytesPerSecond: l.bytesPerSecond,
    })),
  };
}

function downloadResult(c, r) {
  const blob = new Blob([JSON.stringify(benchJson(c, r), null, 2)], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const a = h('a', { href: url, download: 'roofline-bench-browser.json', hidden: true });
  c.parts.resultBox.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

function drawDevice(c, dev) {
  const box = c.parts.chartBox;
  if (!box) return;
  clear(box);
  drawNative(c, dev);
  const gpus = catalog(c.rl).gpus.filter((g) => g.peakFlopsPerSecond[DTYPE]);
  const peaks = gpus.map((g) => g.peakFlopsPerSecond[DTYPE]);
  const lows = dev ? [dev.bw * 0.01, dev.peak] : [];
  const yTop = 10 ** Math.ceil(Math.log10(Math.max(...peaks)) + 0.3);
  const yMin = 10 ** Math.floor(Math.log10(Math.min(yTop / 1e5, ...lows.filter((x) => x > 0))));
  const you = c.tr('device.chart.you');
  const f = logFrame({
    title: c.tr('device.chart.title'),
    desc: dev ? c.tr('device.chart.desc', { bw: fmt(c, dev.bw, 'bytesPerSecond'), peak: fmt(c, dev.peak, 'flopsPerSecond'), ridge: fmt(c, dev.ridge, 'ridge'), n: String(gpus.length) }) : c.tr('device.chart.descNone', { n: String(gpus.length) }),
    x: [0.01, 10000], y: [yMin, yTop],
    xLabel: c.tr('chart.roofline.x'), yLabel: c.tr('chart.roofline.y'),
    xFormat: fmtTick('number', c.lang), yFormat: fmtTick('flopsPerSecond', c.lang),
    lang: c.lang, compact: c.compact,
  });
  const rows = [];
  // the lesson's GPUs in colour, the catalog's others as thin grey roofs (all of them are in the
  // data table): a legend under the chart names them, instead of 19 names stacked on the roofs
  const legend = [];
  const ridgeOf = new Map();
  let k = 0;
  // the catalog's others first, so that the coloured roofs are drawn over them
  for (const g of [...gpus.filter((x) => !x.lesson), ...gpus.filter((x) => x.lesson)]) {
    const cls = g.lesson ? `gpu-${k % 6}` : 'other';
    const seg = roofSegments(c.rl, f, g.peakFlopsPerSecond[DTYPE], g.bytesPerSecond, `roof gpu ${cls}`);
    f.plot.append(seg.line);
    ridgeOf.set(g.id, seg.ridge);
    if (g.lesson) {
      legend.push({ swatch: cls, label: catalogName('gpu', g.id, c.lang) });
      k += 1;
    }
  }
  // the table in the catalog's order
  for (const g of gpus) {
    rows.push([catalogName('gpu', g.id, c.lang), fmt(c, g.bytesPerSecond, 'bytesPerSecond'), fmt(c, g.peakFlopsPerSecond[DTYPE], 'flopsPerSecond'), fmt(c, ridgeOf.get(g.id), 'ridge')]);
  }
  const others = gpus.filter((x) => !x.lesson).length;
  if (others) legend.push({ swatch: 'other', label: c.tr('device.chart.others', { n: String(others) }) });
  if (dev) legend.unshift({ swatch: 'device', label: you });
  if (dev) {
    const seg = roofSegments(c.rl, f, dev.peak, dev.bw, 'roof device');
    f.plot.append(seg.line);
    f.plot.append(s('text', { class: 'roof-label device', x: f.X(f.X.max) - 4, y: f.Y(seg.peakY) + 16, 'text-anchor': 'end' }, you));
    if (seg.ridge > f.X.min && seg.ridge < f.X.max) {
      f.plot.append(marker(f.X(seg.ridge), f.Y(dev.peak), c.tr('device.chart.ridge'), 'you device-point', 'above'));
    }
    // the measured triad, while the fields still hold the measurement (6 significant digits)
    const p = panel(c);
    const same = (a, b) => Math.abs(a - b) <= 1e-5 * b;
    const levelRows = [];
    if (p.state === 'done' && p.result && same(dev.bw, p.result.bytesPerSecond) && same(dev.peak, p.result.flopsPerSecond)) {
      const tp = triadPoint(c, p.result);
      f.plot.append(marker(f.X(tp.flopsPerByte), f.Y(tp.flopsPerSecond), c.tr('device.chart.triad'), 'you triad-point', 'right'));
      levelRows.push(...drawLevels(c, f, dev, p.result, tp));
    }
    rows.unshift([you, fmt(c, dev.bw, 'bytesPerSecond'), fmt(c, dev.peak, 'flopsPerSecond'), fmt(c, dev.ridge, 'ridge')], ...levelRows);
  }
  box.append(f.svg, chartLegend(legend), dataTable(c.tr('device.chart.tableCaption'), c.tr('chart.data'),
    ['point', 'bw', 'peak', 'ridge'].map((x) => c.tr(`device.chart.col.${x}`)), rows));
}

/**
 * Your cache against your memory on the chart: the sweep's fastest set and its largest as two
 * roofs under the measured peak, each named along its slope (the cache's above its line, the
 * memory's below, clear of the triad's point). Returns their rows for the chart's table.
 */
function drawLevels(c, f, dev, r, tp) {
  const cm = cacheAndMemory(c, r);
  if (!cm) return [];
  f.descEl.textContent += ` ${c.tr('device.levels.desc', { fast: fmt(c, cm.cache.bytesPerSecond, 'bytesPerSecond'), cacheSize: binaryBytes(cm.cache.workingSetBytes, c.lang), slow: fmt(c, cm.memory.bytesPerSecond, 'bytesPerSecond'), large: binaryBytes(cm.memory.workingSetBytes, c.lang) })}`;
  const plot = { x0: f.PAD.l, x1: f.W - f.PAD.r, y0: f.PAD.t, y1: f.H - f.PAD.b };
  // the triad's point and name, and the ridge's name above its point (charts.js: marker)
  const taken = [
    { x0: f.X(tp.flopsPerByte) - 8, x1: f.X(tp.flopsPerByte) + 110, y0: f.Y(tp.flopsPerSecond) - 14, y1: f.Y(tp.flopsPerSecond) + 8 },
    { x0: f.X(dev.ridge) - 55, x1: f.X(dev.ridge) + 55, y0: f.Y(dev.peak) - 26, y1: f.Y(dev.peak) + 8 },
  ];
  const rows = [];
  const roofs = [
    { l: cm.cache, cls: 'hier hier-cache', key: 'device.levels.cache', row: 'device.levels.rowCache', gap: 4 },
    { l: cm.memory, cls: 'hier hier-memory', key: 'device.levels.memory', row: 'device.levels.rowMemory', gap: -5 },
  ];
  for (const roof of roofs) {
    const seg = roofSegments(c.rl, f, dev.peak, roof.l.bytesPerSecond, `roof ${roof.cls}`);
    f.plot.append(seg.line);
    const lx0 = Math.log10(f.X.min);
    const lx1 = Math.log10(Math.min(Math.max(seg.ridge, f.X.min * 10), f.X.max));
    const along = [0.45, 0.3, 0.6, 0.15, 0.75].map((q) => 10 ** (lx0 + q * (lx1 - lx0)));
    // a phone's narrow chart has room for the name alone (the table below gives the rate)
    const text = c.tr(c.compact ? `${roof.key}Short` : roof.key, { bw: fmt(c, roof.l.bytesPerSecond, 'bytesPerSecond') });
    const at = placeSlopeLabel(f, roof.l.bytesPerSecond, along, text, `hier-label ${roof.cls}`, taken, plot, { fontSize: 11.5, gap: roof.gap });
    f.plot.append(at.el);
    taken.push(...at.boxes);
    rows.push([c.tr(roof.row, { size: binaryBytes(roof.l.workingSetBytes, c.lang) }), fmt(c, roof.l.bytesPerSecond, 'bytesPerSecond'), fmt(c, dev.peak, 'flopsPerSecond'), fmt(c, seg.ridge, 'ridge')]);
  }
  return rows;
}

/** Browser against native on the same machine, when a native result is loaded in the overlay. */
function drawNative(c, dev) {
  const box = c.parts.nativeBox;
  clear(box);
  const nat = loadedBench();
  const p = panel(c);
  if (!nat || !dev) return;
  const nPeak = nat.measured.peakFlopsPerSecond[DTYPE];
  // Each bandwidth as the FLOPS it allows at 1 FLOP per byte (the memory roof: independent of
  // the peak), so that the core's utilization gives the browser's share of the native figure.
  const bwShare = c.rl.utilization({ achievedFlopsPerSecond: c.rl.roofline({ peakFlopsPerSecond: dev.peak, bytesPerSecond: dev.bw, flopsPerByte: 1 }).memoryFlopsPerSecond,
    peakFlopsPerSecond: c.rl.roofline({ peakFlopsPerSecond: nPeak || dev.peak, bytesPerSecond: nat.measured.bytesPerSecond, flopsPerByte: 1 }).memoryFlopsPerSecond });
  const peakShare = nPeak ? c.rl.utilization({ achievedFlopsPerSecond: dev.peak, peakFlopsPerSecond: nPeak }) : null;
  const share = (u) => (u ? fmt(c, u.fraction, 'percent') : '—');
  box.append(h('table', { class: 'measure-table' },
    h('caption', {}, c.tr('device.native.caption', { machine: nat.machine.name, threads: threadsText(c, p.result ? p.result.threads : 1) })),
    h('thead', {}, h('tr', {}, ['what', 'browser', 'native', 'share'].map((x) => h('th', { scope: 'col' }, c.tr(`device.native.col.${x}`))))),
    h('tbody', {},
      h('tr', {}, h('th', { scope: 'row' }, c.tr('device.native.bw')), h('td', {}, fmt(c, dev.bw, 'bytesPerSecond')), h('td', {}, fmt(c, nat.measured.bytesPerSecond, 'bytesPerSecond')), h('td', {}, share(bwShare))),
      h('tr', {}, h('th', { scope: 'row' }, c.tr('device.native.peak')), h('td', {}, fmt(c, dev.peak, 'flopsPerSecond')), h('td', {}, nPeak ? fmt(c, nPeak, 'flopsPerSecond') : '—'), h('td', {}, share(peakShare))))));
  box.append(h('p', { class: 'hint' }, c.tr('device.native.note')));
}

