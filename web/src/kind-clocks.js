// Figure: the two clocks (compute and memory) of prefill and of one decode step — TTFT is set by
// FLOPs, TPOT by bytes, for the same model on the same GPU.
import { gpu, gpuId, gpuOptions, llms, model, modelId } from './catalog.js';
import { logFrame, dataTable, fmtTick } from './charts.js';
import { h, s, clear } from './dom.js';

export const clocksKind = {
  kind: 'clocks',
  fields: [
    { id: 'params', step: 0.01, unit: 'billion', unitLabel: '× 10⁹', def: 8.03 },
    { id: 'weights', step: 0.01, unit: 'gb', unitLabel: 'GB', def: 16.06 },
    { id: 'peak', step: 1, unit: 'tflops', unitLabel: 'TFLOP/s', def: 121, slider: { min: 1, max: 5000, log: true }, term: 'tflops' },
    { id: 'bw', step: 10, unit: 'gbps', unitLabel: 'GB/s', def: 300, slider: { min: 10, max: 10000, log: true }, term: 'bandwidth' },
    { id: 'tokens', step: 100, int: true, def: 2000, slider: { min: 1, max: 100000, log: true } },
  ],
  selects: [
    {
      id: 'model', def: (rl) => modelId(rl, 'llama-3-8b'), fields: ['params', 'weights'],
      options: (rl) => llms(rl).map((m) => ({ value: m.id, label: m.name })),
      apply: (c, v) => {
        const m = model(c.rl, v);
        if (!m) return;
        c.setField('params', m.params);
        c.setField('weights', m.weightBytes);
      },
    },
    {
      id: 'gpu', def: (rl) => gpuId(rl, 'l4'), fields: ['peak', 'bw'], options: (rl) => gpuOptions(rl),
      apply: (c, v) => {
        const g = gpu(c.rl, v);
        const m = model(c.rl, c.state.selects.model);
        if (!g) return;
        c.setField('bw', g.bytesPerSecond);
        const p = g.peakFlopsPerSecond[(m && m.dtype) || 'fp16'] ?? g.peakFlopsPerSecond.fp16;
        if (typeof p === 'number') c.setField('peak', p);
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
  renderFigure(c, el) {
    c.chartBox = h('div', { class: 'chart-box' });
    el.append(c.chartBox);
  },
  compute(c) {
    const { v } = c;
    const p = c.call('prefill', { params: v.params, tokens: v.tokens, weightBytes: v.weights, peakFlopsPerSecond: v.peak, bytesPerSecond: v.bw },
      { params: 'params', tokens: 'tokens', weightBytes: 'weights', peakFlopsPerSecond: 'peak', bytesPerSecond: 'bw' });
    let fpt = c.call('flopsPerToken', { params: v.params }, { params: 'params' });
    if (fpt && typeof fpt === 'object') fpt = fpt.flops;
    const d = fpt !== null && c.call('clocks', { flops: fpt, bytes: v.weights, peakFlopsPerSecond: v.peak, bytesPerSecond: v.bw },
      { bytes: 'weights', peakFlopsPerSecond: 'peak', bytesPerSecond: 'bw' });
    const fl = (x) => c.fmt(x, 'flops');
    c.row('prefillFlops', p && `2 × ${c.n('params', 'number')} × 10⁹ × ${c.n('tokens')}`, p && p.flops, 'flops');
    c.row('prefillIntensity', p && `${fl(p.flops)} ÷ ${c.n('weights', 'gb')}`, p && p.flopsPerByte, 'flopsPerByte');
    c.row('prefillCompute', p && `${fl(p.flops)} ÷ ${c.n('peak', 'tflops')}`, p && p.computeSeconds, 'seconds');
    c.row('prefillMemory', p && `${c.n('weights', 'gb')} ÷ ${c.n('bw', 'gbps')}`, p && p.memorySeconds, 'seconds');
    c.row('ttft', p && c.t(`clocks.how.${p.bound}`), p && `${c.fmt(p.seconds, 'seconds')} · ${c.t(`verdict.${p.bound}`)}`);
    c.row('decodeFlops', d && `2 × ${c.n('params', 'number')} × 10⁹`, d && fpt, 'flops');
    c.row('decodeIntensity', d && `${fl(fpt)} ÷ ${c.n('weights', 'gb')}`, d && d.flopsPerByte, 'flopsPerByte');
    c.row('decodeCompute', d && `${fl(fpt)} ÷ ${c.n('peak', 'tflops')}`, d && d.computeSeconds, 'seconds');
    c.row('decodeMemory', d && `${c.n('weights', 'gb')} ÷ ${c.n('bw', 'gbps')}`, d && d.memorySeconds, 'seconds');
    c.row('tpot', d && c.t(`clocks.how.${d.bound}`), d && `${c.fmt(d.seconds, 'seconds')} · ${c.t(`verdict.${d.bound}`)}`);
    c.summary(p && d
      ? c.t('clocks.summary', { ttft: c.fmt(p.seconds, 'seconds'), tpot: c.fmt(d.seconds, 'seconds') })
      : c.t('calc.summary.invalid'));
    draw(c, p, d);
  },
};

function draw(c, p, d) {
  const box = c.chartBox;
  clear(box);
  if (!p || !d) {
    box.append(h('p', { class: 'chart-empty' }, c.t('chart.unavailable')));
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
  const f = logFrame({
    title: c.t('chart.clocks.title'),
    desc: c.t('chart.clocks.desc', { ttft: c.fmt(p.seconds, 'seconds'), tpot: c.fmt(d.seconds, 'seconds') }),
    x: [lo, hi], y: [1, 10],
    xLabel: c.t('chart.clocks.x'), yLabel: '',
    xFormat: fmtTick('seconds', c.lang), yFormat: () => '', lang: c.lang, compact: c.compact, compact: c.compact,
  });
  const rowH = 58;
  bars.forEach((b, i) => {
    const y = f.PAD.t + 22 + i * rowH + (i >= 2 ? 30 : 0);
    const slower = (b.phase === 'prefill' ? p.bound : d.bound) === b.clock;
    f.plot.append(s('rect', { class: ['bar', b.clock, slower ? 'slower' : ''], x: f.X(lo), y, width: Math.max(2, f.X(b.v) - f.X(lo)), height: rowH - 22 }));
    f.plot.append(s('text', { class: 'bar-label', x: f.X(lo) + 6, y: y - 4 }, `${c.t(`clocks.phase.${b.phase}`)} · ${c.t(`clocks.clock.${b.clock}`)}: ${c.fmt(b.v, 'seconds')}`));
  });
  box.append(f.svg, dataTable(c.t('chart.clocks.tableCaption'), c.t('chart.data'),
    [c.t('chart.col.phase'), c.t('clocks.clock.compute'), c.t('clocks.clock.memory'), c.t('chart.col.bound')],
    [[c.t('clocks.phase.prefill'), c.fmt(p.computeSeconds, 'seconds'), c.fmt(p.memorySeconds, 'seconds'), c.t(`verdict.${p.bound}`)],
      [c.t('clocks.phase.decode'), c.fmt(d.computeSeconds, 'seconds'), c.fmt(d.memorySeconds, 'seconds'), c.t(`verdict.${d.bound}`)]]));
}
