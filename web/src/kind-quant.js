// Figure: lower precision and weight-only quantization — model bytes and the decode ceiling
// for BF16, INT8 and INT4 with group scales (some weights kept in BF16). Defaults: the core's case
// llama-l4-decode, the model's kept share and the INT4 format's group size.
import { caseArgs, caseValues, catalog, format, gpu, gpuOptions, model, DECODE_CASE } from './catalog.js';
import { barFrame, dataTable, emptyChart, fmtTick, showChart } from './charts.js';
import { h, s } from './dom.js';
import { awaitingConfig, modelRef, modelSelect, renderConfig } from './model-config.js';

/** Height of one bar's row in the chart, in SVG units. */
const BAR_ROW = 84;

/** Bytes each weight of a plain dtype takes, from the core's dtype table. */
function bytesPerWeight(rl, dtype) {
  return catalog(rl).dtypes.find((d) => d.id === dtype).bytesPerElement;
}

export const quantKind = {
  kind: 'quant',
  fields: [
    { id: 'params', step: 0.01, unit: 'billion', unitLabel: '× 10⁹' },
    { id: 'bw', step: 10, unit: 'gbps', unitLabel: 'GB/s', slider: { min: 10, max: 10000, log: true }, term: 'bandwidth' },
    { id: 'groupSize', step: 32, int: true },
    { id: 'kept', step: 0.01, min: 0, unit: 'billion', unitLabel: '× 10⁹' },
  ],
  defaults(rl) {
    const cv = caseValues(rl, DECODE_CASE);
    const d = caseArgs(rl, DECODE_CASE, 'decode');
    const m = model(rl, cv.model);
    return {
      fields: { params: m.params, bw: d.bytesPerSecond, groupSize: format(rl, 'int4').groupSize, kept: m.keptParams },
      selects: { model: cv.model, gpu: cv.gpu },
    };
  },
  // the text of the reader's own config.json (never sent anywhere, not kept in a link)
  initExtra: () => ({ config: '' }),
  // the reader's own model: all its parameters, and the share INT4 keeps in BF16 (its embeddings)
  fillFromConfig: (c, m) => {
    c.setField('params', m.params);
    c.setField('kept', c.rl.modelWeights({ model: m, format: 'int4' }).keptParams);
  },
  selects: [
    modelSelect({
      fields: ['params', 'kept'],
      apply: (c, v) => {
        const m = model(c.rl, v);
        c.setField('params', m.params);
        c.setField('kept', m.keptParams);
      },
    }),
    {
      id: 'gpu', fields: ['bw'], options: (rl, lang) => gpuOptions(rl, lang),
      apply: (c, v) => c.setField('bw', gpu(c.rl, v).bytesPerSecond),
    },
  ],
  rows: [
    { id: 'bf16Bytes' }, { id: 'bf16Tokens' },
    { id: 'int8Bytes' }, { id: 'int8Tokens' },
    { id: 'int4Bytes' }, { id: 'int4Bits' }, { id: 'int4Tokens', term: 'memory-bound' },
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
      c.later(() => draw(c, {}));
      return;
    }
    // one call for the three precisions: their bytes and ceilings (the model's own reads where the
    // fields are its numbers: an MoE's active experts)
    const ref = modelRef(c);
    const ladder = c.call('precisionLadder', {
      params: v.params, bytesPerSecond: v.bw, groupSize: v.groupSize, scaleDtype: format(c.rl, 'int4').scaleDtype, keptParams: v.kept,
      ...(ref ? { model: ref } : {}),
    }, { params: 'params', bytesPerSecond: 'bw', groupSize: 'groupSize', keptParams: 'kept' });
    // each precision's rung, by its dtype: the bytes it holds, those a step reads (fewer for an
    // MoE: its active experts) and the ceiling, bandwidth ÷ bytes read
    const q = Object.fromEntries((ladder || []).map((r) => [r.dtype, r]));
    const p = c.n('params', 'number');
    c.row('bf16Bytes', q.bf16 && c.t('quant.how.plain', { params: p, bytes: c.fmt(bytesPerWeight(c.rl, 'bf16'), 'number') }), q.bf16 && q.bf16.bytes, 'gb');
    c.row('bf16Tokens', q.bf16 && `${c.n('bw', 'gbps')} ÷ ${c.fmt(q.bf16.bytesReadPerStep, 'gb')}`, q.bf16 && q.bf16.tokensPerSecond, 'number');
    c.row('int8Bytes', q.int8 && c.t('quant.how.plain', { params: p, bytes: c.fmt(bytesPerWeight(c.rl, 'int8'), 'number') }), q.int8 && q.int8.bytes, 'gb');
    c.row('int8Tokens', q.int8 && `${c.n('bw', 'gbps')} ÷ ${c.fmt(q.int8.bytesReadPerStep, 'gb')}`, q.int8 && q.int8.tokensPerSecond, 'number');
    c.row('int4Bytes', q.int4 && c.t('quant.how.int4', { kept: c.n('kept', 'number'), params: p, group: c.n('groupSize') }), q.int4 && q.int4.bytes, 'gb');
    c.row('int4Bits', q.int4 && `${c.fmt(q.int4.bytes, 'gb')} × 8 ÷ (${p} × 10⁹)`, q.int4 && q.int4.bitsPerWeight, 'number');
    c.row('int4Tokens', q.int4 && `${c.n('bw', 'gbps')} ÷ ${c.fmt(q.int4.bytesReadPerStep, 'gb')}`, q.int4 && q.int4.tokensPerSecond, 'number');
    c.summary(q.bf16 && q.int8 && q.int4
      ? c.t('quant.summary', { bf16: c.fmt(q.bf16.tokensPerSecond, 'number'), int8: c.fmt(q.int8.tokensPerSecond, 'number'), int4: c.fmt(q.int4.tokensPerSecond, 'number') })
      : c.t('calc.summary.invalid'));
    c.later(() => draw(c, q));
  },
};

function draw(c, q) {
  const box = c.parts.chartBox;
  const ds = ['bf16', 'int8', 'int4'].filter((d) => q[d]);
  if (!ds.length) {
    emptyChart(c, box);
    return;
  }
  const vals = ds.map((d) => q[d].tokensPerSecond);
  const f = barFrame({
    box,
    title: c.t('chart.quant.title'),
    desc: c.t('chart.quant.desc', { list: ds.map((d) => `${d.toUpperCase()} ${c.fmt(q[d].tokensPerSecond, 'number')}`).join(', ') }),
    max: Math.max(...vals), height: BAR_ROW + ds.length * BAR_ROW,
    xLabel: c.t('chart.quant.x'), xFormat: fmtTick('number', c.lang), compact: c.compact,
  });
  ds.forEach((d, i) => {
    const y = f.PAD.t + 24 + i * BAR_ROW;
    f.plot.append(s('rect', { class: ['bar', `dtype-${d}`], x: f.left, y, width: Math.max(2, f.X(q[d].tokensPerSecond) - f.left), height: 40 }));
    f.plot.append(s('text', { class: 'bar-label', x: f.left + 6, y: y - 6 }, `${d.toUpperCase()} · ${c.fmt(q[d].bytes, 'gb')} · ${c.t('quant.tokensPerSecond', { n: c.fmt(q[d].tokensPerSecond, 'number') })}`));
  });
  showChart(box, f, dataTable(c.t('chart.quant.tableCaption'), c.t('chart.data'),
    [c.t('chart.col.dtype'), c.t('chart.col.weights'), c.t('chart.col.tokens')],
    ds.map((d) => [d.toUpperCase(), c.fmt(q[d].bytes, 'gb'), c.fmt(q[d].tokensPerSecond, 'number')])));
}
