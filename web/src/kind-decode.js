// Calculator 4: the ceiling of tokens per second while decoding (every step reads the weights
// once and each conversation's KV cache), with model, dtype and GPU presets.
import { gpu, gpuId, gpuOptions, llms, model, modelId } from './catalog.js';
import { h, s, clear } from './dom.js';
import { logFrame, polyline, marker, dataTable, fmtTick } from './charts.js';

export const DECODE_DTYPES = ['bf16', 'fp8', 'int8', 'int4'];
export const INT4_GROUP = 64;

/** Weight bytes of a model stored in a dtype, from the module (INT4 with one FP16 scale per 64 weights). */
export function weightBytes(rl, m, dtype) {
  const args = { params: m.params, dtype };
  if (dtype === 'int4') args.groupSize = INT4_GROUP;
  return rl.quantizedWeights(args).bytes;
}

export const decodeKind = {
  kind: 'decode',
  fields: [
    { id: 'weights', step: 0.01, unit: 'gb', unitLabel: 'GB', def: 16.06, slider: { min: 0.1, max: 1000, log: true } },
    { id: 'bw', step: 10, unit: 'gbps', unitLabel: 'GB/s', def: 300, slider: { min: 10, max: 10000, log: true }, term: 'bandwidth' },
    { id: 'batch', int: true, def: 1, slider: { min: 1, max: 512, log: true } },
    { id: 'kv', step: 0.01, min: 0, unit: 'gb', unitLabel: 'GB', def: 0 },
    { id: 'gpus', int: true, def: 1, slider: { min: 1, max: 8, log: false } },
    { id: 'tokens', step: 256, int: true, def: 8192 },
  ],
  selects: [
    {
      id: 'model', def: (rl) => modelId(rl, 'llama-3-8b'), fields: [],
      options: (rl) => llms(rl).map((m) => ({ value: m.id, label: m.name })),
      apply: (c, v) => {
        const m = model(c.rl, v);
        const dt = c.state.selects.dtype;
        if (m) c.setField('weights', dt && dt !== 'custom' ? weightBytes(c.rl, m, dt) : m.weightBytes);
      },
    },
    {
      id: 'dtype', def: 'bf16', fields: ['weights'],
      options: (rl, lang, c) => DECODE_DTYPES.map((d) => ({ value: d, label: c ? c.tr(`decode.dtype.${d}`) : d })),
      apply: (c, v) => {
        const m = model(c.rl, c.state.selects.model);
        if (m) c.setField('weights', weightBytes(c.rl, m, v));
      },
    },
    {
      id: 'gpu', def: (rl) => gpuId(rl, 'l4'), fields: ['bw'], options: (rl) => gpuOptions(rl),
      apply: (c, v) => {
        const g = gpu(c.rl, v);
        if (g) c.setField('bw', g.bytesPerSecond);
      },
    },
  ],
  rows: [
    { id: 'bytesPerStep' },
    { id: 'stepTime', term: 'bandwidth' },
    { id: 'perConversation' },
    { id: 'total' },
    { id: 'kvModel' },
  ],
  renderFigure(c, el) {
    c.chartBox = h('div', { class: 'chart-box' });
    el.append(c.chartBox);
  },
  renderInputsExtra(c, form) {
    c.useKv = h('button', {
      type: 'button', class: 'secondary',
      onclick: () => {
        if (c.lastKv === null || c.lastKv === undefined) return;
        c.setField('kv', c.lastKv);
        c.syncFields();
        c.update();
      },
    }, c.tr('decode.useKv'));
    form.append(h('div', { class: 'field-action' }, c.useKv));
  },
  compute(c) {
    const { v } = c;
    const map = { weightBytes: 'weights', kvBytesPerSequence: 'kv', batch: 'batch', bytesPerSecond: 'bw', gpus: 'gpus' };
    const r = c.call('decode', { weightBytes: v.weights, kvBytesPerSequence: v.kv, batch: v.batch, bytesPerSecond: v.bw, gpus: v.gpus }, map);
    const gb = (x) => c.fmt(x, 'gb');
    c.row('bytesPerStep', r && c.t('decode.how.bytesPerStep', { weights: c.n('weights', 'gb'), batch: c.n('batch'), kv: c.n('kv', 'gb'), gpus: c.n('gpus') }), r && r.bytesPerStep, 'gb');
    c.row('stepTime', r && `${gb(r.bytesPerStep)} ÷ ${c.n('bw', 'gbps')}`, r && r.stepSeconds, 'seconds');
    c.row('perConversation', r && c.t('decode.how.perConversation', { time: c.fmt(r.stepSeconds, 'seconds') }), r && r.tokensPerSecondPerSequence, 'number');
    c.row('total', r && c.t('decode.how.total', { batch: c.n('batch'), time: c.fmt(r.stepSeconds, 'seconds') }), r && r.tokensPerSecond, 'number');
    const m = model(c.rl, c.state.selects.model);
    let kv = null;
    if (m && m.layers && m.kvHeads && m.headDim) {
      kv = c.call('kvCacheBytes', { layers: m.layers, kvHeads: m.kvHeads, headDim: m.headDim, tokens: v.tokens, dtype: m.dtype }, { tokens: 'tokens' });
      if (kv && typeof kv === 'object') kv = kv.bytes;
    }
    c.calc.lastKv = kv;
    c.row('kvModel', kv !== null && m && `2 × ${m.layers} × ${m.kvHeads} × ${m.headDim} × ${c.n('tokens')} × ${c.t('decode.how.bytesOf', { dtype: m.dtype.toUpperCase() })}`, kv, 'gb');
    if (c.useKv) c.useKv.disabled = kv === null;
    drawBatchCurve(c, r);
    c.summary(r
      ? c.t('decode.summary', { total: c.fmt(r.tokensPerSecond, 'number'), each: c.fmt(r.tokensPerSecondPerSequence, 'number'), time: c.fmt(r.stepSeconds, 'seconds') })
      : c.t('calc.summary.invalid'));
  },
};

/** Tokens per second in total and per conversation as the batch grows, with the reader's KV cache. */
function drawBatchCurve(c, r) {
  const box = c.chartBox;
  clear(box);
  if (!r) {
    box.append(h('p', { class: 'chart-empty' }, c.t('chart.unavailable')));
    return;
  }
  const { v, rl } = c;
  const batches = [1, 2, 4, 8, 16, 32, 64, 128, 256];
  const pts = batches.map((b) => [b, rl.decode({ weightBytes: v.weights, kvBytesPerSequence: v.kv, batch: b, bytesPerSecond: v.bw, gpus: v.gpus })]);
  const values = pts.flatMap(([, d]) => [d.tokensPerSecond, d.tokensPerSecondPerSequence]).concat([r.tokensPerSecond]);
  const lo = 10 ** Math.floor(Math.log10(Math.min(...values)));
  const hi = 10 ** Math.ceil(Math.log10(Math.max(...values)));
  const f = logFrame({
    title: c.t('chart.decode.title'),
    desc: c.t('chart.decode.desc', { total: c.fmt(pts[pts.length - 1][1].tokensPerSecond, 'number'), each: c.fmt(pts[pts.length - 1][1].tokensPerSecondPerSequence, 'number') }),
    x: [1, 256], y: [lo, hi === lo ? lo * 10 : hi],
    xLabel: c.t('chart.decode.x'), yLabel: c.t('chart.decode.y'),
    xFormat: fmtTick('integer', c.lang), yFormat: fmtTick('number', c.lang), lang: c.lang, compact: c.compact,
  });
  f.plot.append(polyline(pts.map(([b, d]) => [f.X(b), f.Y(d.tokensPerSecond)]), 'curve'));
  f.plot.append(polyline(pts.map(([b, d]) => [f.X(b), f.Y(d.tokensPerSecondPerSequence)]), 'curve second'));
  const last = pts[pts.length - 1][1];
  f.plot.append(s('text', { class: 'line-label', x: f.X(256) - 4, y: f.Y(last.tokensPerSecond) - 8, 'text-anchor': 'end' }, c.t('chart.decode.total')));
  f.plot.append(s('text', { class: 'line-label second', x: f.X(256) - 4, y: f.Y(last.tokensPerSecondPerSequence) + 18, 'text-anchor': 'end' }, c.t('chart.decode.each')));
  if (v.batch >= 1 && v.batch <= 256) f.plot.append(marker(f.X(v.batch), f.Y(r.tokensPerSecond), c.t('chart.point.you'), 'you', 'above'));
  box.append(f.svg, dataTable(c.t('chart.decode.tableCaption'), c.t('chart.data'),
    [c.t('chart.col.batch'), c.t('chart.decode.total'), c.t('chart.decode.each'), c.t('decode.out.stepTime')],
    pts.map(([b, d]) => [c.fmt(b, 'integer'), c.fmt(d.tokensPerSecond, 'number'), c.fmt(d.tokensPerSecondPerSequence, 'number'), c.fmt(d.stepSeconds, 'seconds')])));
}
