// Figure: the two clocks (compute and memory) of prefill and of one decode step — TTFT is set by
// FLOPs, TPOT by bytes, for the same model on the same GPUs (tensor parallel: each GPU does its
// share). Defaults: the core's case llama-l4-prefill; the peak is the GPU's for the model's format.
// Prefix caching: a share of the prompt already cached prefills only the rest (rl.prefixCache);
// at 0 % (the default) nothing changes and no call is made. Decode does not read the share.
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
    // the cached share of the prompt, 0 to 100 % (the core refuses the rest: out_of_range, negative)
    { id: 'cached', step: 1, min: 0, unit: 'percent', unitLabel: '%', slider: { min: 0, max: 100, log: false }, range: () => ({ min: 0, max: 100, why: '' }) },
  ],
  defaults(rl) {
    const p = caseArgs(rl, CLOCKS_CASE, 'prefill');
    const cv = caseValues(rl, CLOCKS_CASE);
    return {
      fields: { params: p.params, weights: p.weightBytes, peak: p.peakFlopsPerSecond, bw: p.bytesPerSecond, tokens: p.tokens, gpus: p.gpus, cached: 0 },
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
    { id: 'prefixTokens' },
    { id: 'prefixTtft' },
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
    // each call's result is kept while what it reads stays (and while no field's text is
    // unreadable, whose error the call reports: the results stay "—" meanwhile, as they did): a
    // change of the cached share makes one call, of the prompt's tokens one or two
    const kept = (memo, name, args) => c.callOnce(memo, JSON.stringify([args, Object.keys(c.calc.localErrors)]), () => c.call(name, args, map));
    const p = kept('prefill', 'prefill', { params: v.params, tokens: v.tokens, weightBytes: v.weights, peakFlopsPerSecond: v.peak, bytesPerSecond: v.bw, gpus: v.gpus });
    // a decode step's arithmetic is one token's prefill: 2 × params FLOPs against the weights read
    // once (its FLOPs and intensity); then the step itself on the same GPUs, each reading its share
    // of the weights and doing its share of the FLOPs. Neither reads the prompt.
    const one = kept('oneToken', 'prefill', { params: v.params, tokens: 1, weightBytes: v.weights, peakFlopsPerSecond: v.peak, bytesPerSecond: v.bw, gpus: v.gpus });
    const fpt = one ? one.flops : null;
    const share = fpt !== null && kept('decode', 'decode', { weightBytes: v.weights, kvBytesPerSequence: 0, batch: 1, bytesPerSecond: v.bw, gpus: v.gpus, flopsPerToken: fpt, peakFlopsPerSecond: v.peak, ...readArgs(c) });
    const d = share && { ...share, seconds: share.stepSeconds, flopsPerByte: one.flopsPerByte };
    // the cached share: at 0 the uncached tokens are the prompt and the time to first token is the
    // prefill's (no call); any other text goes to the core, which judges it
    const cachedMap = { ...map, promptTokens: 'tokens', cachedShare: 'cached' };
    const pc = v.cached === 0
      ? p && { cachedTokens: 0, uncachedTokens: v.tokens, timeToFirstTokenSeconds: p.seconds, bound: p.bound, uncachedTimeToFirstTokenSeconds: p.seconds }
      : c.call('prefixCache', { params: v.params, promptTokens: v.tokens, cachedShare: v.cached, weightBytes: v.weights, peakFlopsPerSecond: v.peak, bytesPerSecond: v.bw, gpus: v.gpus }, cachedMap);
    // with several GPUs each does its share: say so in the arithmetic
    const many = Number.isFinite(v.gpus) && v.gpus > 1;
    const perGpu = (x) => (many ? `(${x} ÷ ${c.n('gpus')})` : x);
    const fl = (x) => c.fmt(x, 'flops');
    c.row('prefillFlops', p && `2 × ${c.n('params', 'number')} × 10⁹ × ${c.n('tokens')}`, p && p.flops, 'flops');
    c.row('prefillIntensity', p && `${fl(p.flops)} ÷ ${c.n('weights', 'gb')}`, p && p.flopsPerByte, 'flopsPerByte');
    c.row('prefillCompute', p && `${perGpu(fl(p.flops))} ÷ ${c.n('peak', 'tflops')}`, p && p.computeSeconds, 'seconds');
    c.row('prefillMemory', p && `${perGpu(c.n('weights', 'gb'))} ÷ ${c.n('bw', 'gbps')}`, p && p.memorySeconds, 'seconds');
    c.row('ttft', p && c.t(`clocks.how.${p.bound}`), p && `${c.fmt(p.seconds, 'seconds')} · ${c.t(`verdict.${p.bound}`)}`);
    c.row('prefixTokens', pc && c.t('clocks.prefixTokens.how', { tokens: c.n('tokens'), cached: c.fmt(pc.cachedTokens, 'number') }), pc && pc.uncachedTokens, 'number');
    c.row('prefixTtft', pc && c.t('clocks.prefixTtft.how', { uncached: c.fmt(pc.uncachedTimeToFirstTokenSeconds, 'seconds'), how: c.t(`clocks.how.${pc.bound}`) }),
      pc && `${c.fmt(pc.timeToFirstTokenSeconds, 'seconds')} · ${c.t(`verdict.${pc.bound}`)}`);
    c.row('decodeFlops', d && `2 × ${c.n('params', 'number')} × 10⁹`, d && fpt, 'flops');
    c.row('decodeIntensity', d && `${fl(fpt)} ÷ ${c.n('weights', 'gb')}`, d && d.flopsPerByte, 'flopsPerByte');
    c.row('decodeCompute', d && `${perGpu(fl(fpt))} ÷ ${c.n('peak', 'tflops')}`, d && d.computeSeconds, 'seconds');
    c.row('decodeMemory', d && `${perGpu(c.n('weights', 'gb'))} ÷ ${c.n('bw', 'gbps')}`, d && d.memorySeconds, 'seconds');
    c.row('tpot', d && c.t(`clocks.how.${d.bound}`), d && `${c.fmt(d.seconds, 'seconds')} · ${c.t(`verdict.${d.bound}`)}`);
    let summary = c.t('calc.summary.invalid');
    if (p && d && pc && pc.cachedTokens > 0) {
      summary = c.t('clocks.summary.cached', { share: c.fmt(v.cached, 'percent'), ttft: c.fmt(pc.timeToFirstTokenSeconds, 'seconds'), uncached: c.fmt(p.seconds, 'seconds'), tpot: c.fmt(d.seconds, 'seconds') });
    } else if (p && d && pc) {
      summary = c.t('clocks.summary', { ttft: c.fmt(p.seconds, 'seconds'), tpot: c.fmt(d.seconds, 'seconds') });
    }
    c.summary(summary);
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
  // kept per model: a change of any field leaves what the model reads as it was
  return c.memo('read', JSON.stringify(ref), () => ({ bytesReadPerStep: c.rl.modelWeights({ model: ref, batch: 1 }).bytesReadPerStep }));
}
