// Figure: the intensity of a dense layer as the batch grows, against several GPUs' ridges, and
// the smallest batch that crosses each ridge. Defaults: the core's case layer-4096.
import { catalog, caseArgs, deviceOrNull } from './catalog.js';
import { catalogName } from './i18n.js';
import { chartLegend, dataTable, emptyChart, fmtTick, frameIn, keyed, marker, polyline, scrollBox, showChart } from './charts.js';
import { h, s } from './dom.js';

const DTYPES = ['fp32', 'fp16', 'bf16', 'fp8', 'int8'];
export const BATCHING_CASE = 'layer-4096';

export const batchingKind = {
  kind: 'batching',
  fields: [
    { id: 'batch', int: true, slider: { min: 1, max: 10000, log: true } },
    { id: 'inputs', step: 256, int: true },
    { id: 'outputs', step: 256, int: true },
  ],
  defaults(rl) {
    const d = caseArgs(rl, BATCHING_CASE, 'denseLayer');
    return { fields: { batch: d.batch, inputs: d.inputs, outputs: d.outputs }, selects: { dtype: d.dtype } };
  },
  selects: [
    { id: 'dtype', custom: false, options: (rl) => catalog(rl).dtypes.filter((d) => DTYPES.includes(d.id)).map((d) => ({ value: d.id, label: d.name })) },
  ],
  rows: [
    { id: 'flops', term: 'flop' },
    { id: 'bytes' },
    { id: 'intensity', term: 'intensity' },
    { id: 'weightsOnly' },
    { id: 'limit' },
  ],
  renderFigure(c, el) {
    c.parts.chartBox = h('div', { class: 'chart-box' });
    el.append(c.parts.chartBox);
  },
  compute(c) {
    const { v } = c;
    const dtype = c.state.selects.dtype;
    const map = { batch: 'batch', inputs: 'inputs', outputs: 'outputs' };
    const r = c.call('denseLayer', { batch: v.batch, inputs: v.inputs, outputs: v.outputs, dtype }, map);
    c.row('flops', r && `2 × ${c.n('batch')} × ${c.n('inputs')} × ${c.n('outputs')}`, r && r.flops, 'flops');
    c.row('bytes', r && c.t('batching.how.bytes'), r && r.bytes, 'bytes');
    c.row('intensity', r && `${c.fmt(r && r.flops, 'flops')} ÷ ${c.fmt(r && r.bytes, 'bytes')}`, r && r.flopsPerByte, 'flopsPerByte');
    c.row('weightsOnly', r && `${c.fmt(r && r.flops, 'flops')} ÷ ${c.fmt(r && r.weightBytes, 'bytes')}`, r && r.weightsOnlyFlopsPerByte, 'flopsPerByte');
    c.row('limit', r && c.t('batching.how.limit'), r && r.limitFlopsPerByte, 'flopsPerByte');
    // the GPUs' ridges and crossings depend on the layer, not on the batch being dragged
    const gpus = r ? c.memo('ridges', JSON.stringify([dtype, v.inputs, v.outputs, c.lang]), () => ridges(c, dtype)) : [];
    c.summary(r
      ? c.t('batching.summary', { intensity: c.fmt(r.flopsPerByte, 'flopsPerByte'), batch: c.n('batch') })
      : c.t('calc.summary.invalid'));
    c.later(() => draw(c, r, gpus));
  },
};

/** Each catalog GPU with a peak for this dtype: its ridge and the first batch that crosses it. */
function ridges(c, dtype) {
  const { rl, v } = c;
  const out = [];
  for (const g of catalog(rl).gpus) {
    const dev = deviceOrNull(rl, g.id, dtype);
    if (!dev) continue; // no peak at this precision: no ridge to cross
    const ridge = dev.ridgeFlopsPerByte;
    let cross = null;
    let never = false;
    try {
      cross = rl.minBatchForRidge({ inputs: v.inputs, outputs: v.outputs, dtype, ridgeFlopsPerByte: ridge }).batch;
    } catch (e) {
      if (e && e.code === 'never_crosses_ridge') never = true;
      else if (!e || !e.code) throw e;
    }
    // the layer's intensity at that batch, where the chart marks the crossing
    const crossIntensity = cross !== null ? rl.denseLayer({ batch: cross, inputs: v.inputs, outputs: v.outputs, dtype }).flopsPerByte : null;
    out.push({ id: g.id, lesson: Boolean(g.lesson), name: catalogName('gpu', g.id, c.lang), ridge, cross, crossIntensity, never });
  }
  return out;
}

function draw(c, r, gpus) {
  const box = c.parts.chartBox;
  if (!r) {
    emptyChart(c, box);
    return;
  }
  const { rl, v } = c;
  const dtype = c.state.selects.dtype;
  const xMax = 2 ** 14;
  const f = frameIn(box, {
    title: c.t('chart.batching.title', { inputs: c.n('inputs'), outputs: c.n('outputs'), dtype: dtype.toUpperCase() }),
    desc: c.t('chart.batching.desc', { limit: c.fmt(r.limitFlopsPerByte, 'number') }),
    x: [1, xMax], y: [0.1, 10000],
    xLabel: c.t('chart.batching.x'), yLabel: c.t('chart.batching.y'),
    xFormat: fmtTick('integer', c.lang), yFormat: fmtTick('number', c.lang), lang: c.lang, compact: c.compact,
  });
  // the curve over the batch, for this layer (the same while only the batch changes)
  const curve = c.memo('curve', JSON.stringify([dtype, v.inputs, v.outputs]), () => {
    const out = [];
    for (let b = 1; b <= xMax; b *= 2) out.push([b, rl.denseLayer({ batch: b, inputs: v.inputs, outputs: v.outputs, dtype }).flopsPerByte]);
    return out;
  });
  f.plot.append(polyline(curve.map(([b, i]) => [f.X(b), f.Y(i)]), 'curve'));
  const limitY = f.Y(r.limitFlopsPerByte);
  f.plot.append(s('line', { class: 'limit', x1: f.X(1), x2: f.X(xMax), y1: limitY, y2: limitY }));
  // the lesson's GPUs in colour, each with its crossing; the catalog's others as thin grey lines
  // (their ridges and crossings are in the table under the chart): a legend under the chart says
  // which is which, instead of 20 labels on lines a few pixels apart
  const lessonGpus = gpus.filter((g) => g.lesson);
  for (const g of gpus.filter((x) => !x.lesson)) {
    const y = f.Y(g.ridge);
    f.plot.append(s('line', { class: 'ridge-line other', x1: f.X(1), x2: f.X(xMax), y1: y, y2: y }));
  }
  lessonGpus.forEach((g, i) => {
    const y = f.Y(g.ridge);
    f.plot.append(s('line', { class: ['ridge-line', `series-${i % 6}`], x1: f.X(1), x2: f.X(xMax), y1: y, y2: y }));
    if (g.cross !== null && g.cross <= xMax) f.plot.append(marker(f.X(g.cross), f.Y(g.crossIntensity), null, `cross series-${i % 6}`));
  });
  const legend = chartLegend([
    { swatch: 'curve', label: c.t('batching.legend.curve') },
    { swatch: 'limit', label: c.t('batching.legend.limit', { limit: c.fmt(r.limitFlopsPerByte, 'number') }), dashed: true },
    ...lessonGpus.map((g, i) => ({ swatch: `series-${i % 6}`, dashed: true, label: c.t('batching.legend', { gpu: g.name, ridge: c.fmt(g.ridge, 'ridge'), batch: g.cross !== null ? c.fmt(g.cross, 'integer') : c.t('batching.never') }) })),
    ...(gpus.length > lessonGpus.length ? [{ swatch: 'other', dashed: true, label: c.t('batching.legend.others', { n: c.fmt(gpus.length - lessonGpus.length, 'integer') }) }] : []),
  ]);
  f.plot.append(marker(f.X(v.batch), f.Y(r.flopsPerByte), c.t('chart.point.you'), 'you', 'above'));
  const rows = gpus.map((g) => [g.name, c.fmt(g.ridge, 'ridge'), g.cross !== null ? c.fmt(g.cross, 'integer') : c.t('batching.never')]);
  const caption = c.t('batching.table.caption', { inputs: c.n('inputs'), outputs: c.n('outputs'), dtype: dtype.toUpperCase() });
  // neither table depends on the batch marked on the curve
  const ridgeTable = keyed(JSON.stringify([caption, rows]), () => scrollBox(h('table', { class: 'ridges' },
    h('caption', {}, caption),
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, c.t('chart.col.gpu')), h('th', { scope: 'col' }, c.t('chart.col.ridge')), h('th', { scope: 'col' }, c.t('chart.col.crossing')))),
    h('tbody', {}, rows.map((row) => h('tr', {}, h('th', { scope: 'row' }, row[0]), h('td', {}, row[1]), h('td', { 'data-gpu': row[0] }, row[2]))))), caption));
  const seriesTable = keyed(JSON.stringify([c.lang, v.inputs, v.outputs, dtype]), () => {
    const series = [];
    for (let b = 1; b <= xMax; b *= 4) {
      const d = rl.denseLayer({ batch: b, inputs: v.inputs, outputs: v.outputs, dtype });
      series.push([c.fmt(b, 'integer'), c.fmt(d.flopsPerByte, 'number')]);
    }
    return dataTable(c.t('chart.batching.tableCaption'), c.t('chart.data'), [c.t('chart.col.batch'), c.t('chart.col.intensity')], series);
  });
  showChart(box, f, legend, ridgeTable, seriesTable);
}
