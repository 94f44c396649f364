// Figure: the two clocks (compute and memory) of prefill and of one decode step — TTFT is set by
// FLOPs, TPOT by bytes, for the same model on the same GPUs (tensor parallel: each GPU does its
// share). Defaults: the core's case llama-l4-prefill; the peak is the GPU's for the model's format.
import { caseArgs, caseValues, deviceOrNull, format, gpu, gpuOptions, model } from './catalog.js';
import { catalogName } from './i18n.js';
import { dataTable, emptyChart, fmtTick, frameIn, showChart } from './charts.js';
import { h, s, clear } from './dom.js';
import { CONFIG, awaitingConfig, modelRef, modelSelect, renderConfig } from './model-config.js';

export const CLOCKS_CASE = 'llama-l4-prefill';

/** The GPU's peak for the model's format, or null (and a message) where the GPU has none. */
function peakFor(c, gpuId, modelId) {
  // the reader's own model is read in BF16 (modelFromConfig's format)
  const dtype = format(c.rl, modelId === CONFIG ? 'bf16' : model(c.rl, modelId).format).computeDtype;
  const dev = deviceOrNull(c.rl, gpuId, dtype);
  return { peak: dev ? dev.peakFlopsPerSecond : null, dtype };
}

function applyPeak(c) {
  const { gpu: g, model: m } = c.state.selects;
  if (g === 'custom' || m === 'custom') return;
  const p = peakFor(c, g, m);
  // no peak for this precision: the field is left empty, never filled with another precision's
  if (p.peak === null) c.state.fields.peak = '';
  else c.setField('peak', p.peak);
}

export const clocksKind = {
  kind: 'clocks',
  fields: [
    { id: 'params', step: 0.01, unit: 'billion', unitLabel: '× 10⁹' },
    { id: 'weights', step: 0.01, unit: 'gb', unitLabel: 'GB' },
    { id: 'peak', step: 1, unit: 'tflops', unitLabel: 'TFLOPS', slider: { min: 1, max: 5000, log: true }, term: 'tflops' },
    { id: 'bw', step: 10, unit: 'gbps', unitLabel: 'GB/s', slider: { min: 10, max: 10000, log: true }, term: 'bandwidth' },
    { id: 'tokens', step: 100, int: true, slider: { min: 1, max: 100000, log: true } },
    { id: 'gpus', int: true, slider: { min: 1, max: 8, log: false } },
  ],
  defaults(rl) {
    const p = caseArgs(rl, CLOCKS_CASE, 'prefill');
    const cv = caseValues(rl, CLOCKS_CASE);
    return {
      fields: { params: p.params, weights: p.weightBytes, peak: p.peakFlopsPerSecond, bw: p.bytesPerSecond, tokens: p.tokens, gpus: p.gpus },
      selects: { model: cv.model, gpu: cv.gpu },
    };
  },
  // the text of the reader's own config.json (never sent anywhere, not kept in a link)
  initExtra: () => ({ config: '' }),
  // the reader's own model: the parameters a token multiplies, and its weights in BF16
  fillFromConfig: (c, m) => {
    c.setField('params', m.activeParams);
    c.setField('weights', m.residentBytes);
  },
  selects: [
    modelSelect({
      fields: ['params', 'weights'],
      apply: (c, v) => {
        const w = c.rl.modelWeights({ model: v });
        // the parameters a token multiplies: all of them by the lesson's rule, an MoE's active ones
        const m = model(c.rl, v);
        c.setField('params', !m.lesson && m.activeParams ? m.activeParams : w.params);
        c.setField('weights', w.bytes);
      },
      after: applyPeak,
    }),
    {
      id: 'gpu', fields: ['peak', 'bw'], options: (rl, lang) => gpuOptions(rl, lang),
      apply: (c, v) => {
        c.setField('bw', gpu(c.rl, v).bytesPerSecond);
        applyPeak(c);
      },
    },
  ],
  rows: [
    { id: 'prefillFlops', term: 'flop' },
    { id: 'prefillIntensity', term: 'intensity' },
    { id: 'prefillCompute' },
    { id: 'prefillMemory', term: 'bandwidth' },
    { id: 'ttft', term: 'compute-bound' },
    { id: 'decodeFlops' },
    { id: 'decodeIntensity' },
    { id: 'decodeCompute' },
    { id: 'decodeMemory' },
    { id: 'tpot', term: 'memory-bound' },
  ],
  renderInputsExtra(c, form) {
    renderConfig(c, form);
  },
  renderFigure(c, el) {
    c.parts.chartBox = h('div', { class: 'chart-box' });
    el.append(c.parts.chartBox);
  },
  compute(c) {
    const { v } = c;
    if (awaitingConfig(c)) {
      clear(c.parts.chartBox);
      return;
    }
    const { gpu: g, model: m } = c.state.selects;
    if (g !== 'custom' && m !== 'custom' && c.state.fields.peak === '') {
      const p = peakFor(c, g, m);
      if (p.peak === null) c.fail(c.t('calc.noPeak', { gpu: catalogName('gpu', g, c.lang), dtype: p.dtype.toUpperCase() }));
    }
    const map = { params: 'params', tokens: 'tokens', weightBytes: 'weights', peakFlopsPerSecond: 'peak', bytesPerSecond: 'bw', gpus: 'gpus' };
    const p = c.call('prefill', { params: v.params, tokens: v.tokens, weightBytes: v.weights, peakFlopsPerSecond: v.peak, bytesPerSecond: v.bw, gpus: v.gpus }, map);
    const fr = c.call('flopsPerToken', { params: v.params }, { params: 'params' });
    const fpt = fr ? fr.flops : null;
    // one decode step on the same GPUs: each reads its share of the weights and does its share of the FLOPs
    const share = fpt !== null && c.call('decode', { weightBytes: v.weights, kvBytesPerSequence: 0, batch: 1, bytesPerSecond: v.bw, gpus: v.gpus, flopsPerToken: fpt, peakFlopsPerSecond: v.peak, ...readArgs(c) }, map);
    const intensity = share && c.call('clocks', { flops: fpt, bytes: v.weights, peakFlopsPerSecond: v.peak, bytesPerSecond: v.bw }, map);
    const d = share && intensity && { ...share, seconds: share.stepSeconds, flopsPerByte: intensity.flopsPerByte };
    // with several GPUs each does its share: say so in the arithmetic
    const many = Number.isFinite(v.gpus) && v.gpus > 1;
    const perGpu = (x) => (many ? `(${x} ÷ ${c.n('gpus')})` : x);
    const fl = (x) => c.fmt(x, 'flops');
    c.row('prefillFlops', p && `2 × ${c.n('params', 'number')} × 10⁹ × ${c.n('tokens')}`, p && p.flops, 'flops');
    c.row('prefillIntensity', p && `${fl(p.flops)} ÷ ${c.n('weights', 'gb')}`, p && p.flopsPerByte, 'flopsPerByte');
    c.row('prefillCompute', p && `${perGpu(fl(p.flops))} ÷ ${c.n('peak', 'tflops')}`, p && p.computeSeconds, 'seconds');
    c.row('prefillMemory', p && `${perGpu(c.n('weights', 'gb'))} ÷ ${c.n('bw', 'gbps')}`, p && p.memorySeconds, 'seconds');
    c.row('ttft', p && c.t(`clocks.how.${p.bound}`), p && `${c.fmt(p.seconds, 'seconds')} · ${c.t(`verdict.${p.bound}`)}`);
    c.row('decodeFlops', d && `2 × ${c.n('params', 'number')} × 10⁹`, d && fpt, 'flops');
    c.row('decodeIntensity', d && `${fl(fpt)} ÷ ${c.n('weights', 'gb')}`, d && d.flopsPerByte, 'flopsPerByte');
    c.row('decodeCompute', d && `${perGpu(fl(fpt))} ÷ ${c.n('peak', 'tflops')}`, d && d.computeSeconds, 'seconds');
    c.row('decodeMemory', d && `${perGpu(c.n('weights', 'gb'))} ÷ ${c.n('bw', 'gbps')}`, d && d.memorySeconds, 'seconds');
    c.row('tpot', d && c.t(`clocks.how.${d.bound}`), d && `${c.fmt(d.seconds, 'seconds')} · ${c.t(`verdict.${d.bound}`)}`);
    c.summary(p && d
      ? c.t('clocks.summary', { ttft: c.fmt(p.seconds, 'seconds'), tpot: c.fmt(d.seconds, 'seconds') })
      : c.t('calc.summary.invalid'));
    c.later(() => draw(c, p, d));
  },
};

function draw(c, p, d) {
  const box = c.parts.chartBox;
  if (!p || !d) {
    emptyChart(c, box);
    return;
  }
  const bars = [
    { id: 'prefillCompute', phase: 'prefill', clock: 'compute', v: p.computeSeconds },
    { id: 'prefillMemory', phase: 'prefill', clock: 'memory', v: p.memorySeconds },
    { id: 'decodeCompute', phase: 'decode', clock: 'compute', v: d.computeSeconds },
    { id: 'decodeMemory', phase: 'decode', clock: 'memory', v: d.memorySeconds },
  ];
  const all = bars.map((b) => b.v).filter((x) => x > 0);
  const lo = 10 ** Math.floor(Math.log10(Math.min(...all)) - 0.5);
  const hi = 10 ** Math.ceil(Math.log10(Math.max(...all)) + 0.2);
  const f = frameIn(box, {
    title: c.t('chart.clocks.title'),
    desc: c.t('chart.clocks.desc', { ttft: c.fmt(p.seconds, 'seconds'), tpot: c.fmt(d.seconds, 'seconds') }),
    x: [lo, hi], y: [1, 10],
    xLabel: c.t('chart.clocks.x'), yLabel: '',
    xFormat: fmtTick('seconds', c.lang), yFormat: () => '', lang: c.lang, compact: c.compact,
  });
  const rowH = 58;
  bars.forEach((b, i) => {
    const y = f.PAD.t + 22 + i * rowH + (i >= 2 ? 30 : 0);
    const slower = (b.phase === 'prefill' ? p.bound : d.bound) === b.clock;
    f.plot.append(s('rect', { class: ['bar', b.clock, slower ? 'slower' : ''], x: f.X(lo), y, width: Math.max(2, f.X(b.v) - f.X(lo)), height: rowH - 22 }));
    f.plot.append(s('text', { class: 'bar-label', x: f.X(lo) + 6, y: y - 4 }, `${c.t(`clocks.phase.${b.phase}`)} · ${c.t(`clocks.clock.${b.clock}`)}: ${c.fmt(b.v, 'seconds')}`));
  });
  showChart(box, f, dataTable(c.t('chart.clocks.tableCaption'), c.t('chart.data'),
    [c.t('chart.col.phase'), c.t('clocks.clock.compute'), c.t('clocks.clock.memory'), c.t('chart.col.bound')],
    [[c.t('clocks.phase.prefill'), c.fmt(p.computeSeconds, 'seconds'), c.fmt(p.memorySeconds, 'seconds'), c.t(`verdict.${p.bound}`)],
      [c.t('clocks.phase.decode'), c.fmt(d.computeSeconds, 'seconds'), c.fmt(d.memorySeconds, 'seconds'), c.t(`verdict.${d.bound}`)]]));
}

/**
 * The weights one decode step reads where the chosen model reads fewer than it holds (an MoE's
 * untouched experts, the input table's rows): {bytesReadPerStep} while the weights are the
 * model's own (typing them makes the select "custom"), else {} (every weight is read).
 */
function readArgs(c) {
  const ref = modelRef(c);
  if (!ref || (typeof ref === 'string' && (model(c.rl, ref).lesson || !model(c.rl, ref).architecture))) return {};
  return { bytesReadPerStep: c.rl.modelWeights({ model: ref, batch: 1 }).bytesReadPerStep };
}
