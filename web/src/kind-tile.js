// Figure: how the tile size sets the intensity of a matmul (T × T tile → T ÷ 2 in FP16), against
// a GPU's ridge; element-wise work and what fusing conv + bias + ReLU saves.
import { catalog, caseArgs, caseValues, deviceOrNull, gpuOptions, isIntegerDtype } from './catalog.js';
import { catalogName } from './i18n.js';
import { dataTable, emptyChart, fmtTick, frameIn, keyed, marker, polyline, showChart } from './charts.js';
import { h, s } from './dom.js';

const DTYPES = ['fp32', 'fp16', 'bf16', 'fp8', 'int8'];
export const TILE_CASE = 'conv1-tiles';
/** The largest tile the slider and the chart reach (a display choice), and the elements field's step. */
const TILE_MAX = 2 ** 10;

export const tileKind = {
  kind: 'tile',
  fields: [
    { id: 'tile', int: true, slider: { min: 1, max: TILE_MAX, log: true } },
    { id: 'elements', step: TILE_MAX, int: true },
  ],
  defaults(rl) {
    const cv = caseValues(rl, TILE_CASE);
    const t = caseArgs(rl, TILE_CASE, 'tile');
    const e = caseArgs(rl, TILE_CASE, 'elementwise');
    return { fields: { tile: t.rows, elements: e.elements }, selects: { dtype: cv.dtype, gpu: cv.gpu } };
  },
  selects: [
    { id: 'dtype', custom: false, options: (rl) => catalog(rl).dtypes.filter((d) => DTYPES.includes(d.id)).map((d) => ({ value: d.id, label: d.name })) },
    { id: 'gpu', custom: false, options: (rl, lang) => gpuOptions(rl, lang) },
  ],
  rows: [
    { id: 'tileIntensity', term: 'intensity' },
    { id: 'noReuse' },
    { id: 'ridge', term: 'roofline' },
    { id: 'verdict' },
    { id: 'elementwise' },
    { id: 'unfused' },
    { id: 'fused' },
    { id: 'saved' },
  ],
  renderFigure(c, el) {
    c.parts.chartBox = h('div', { class: 'chart-box' });
    el.append(c.parts.chartBox);
  },
  compute(c) {
    const { v, rl } = c;
    const dtype = c.state.selects.dtype;
    const gpuId = c.state.selects.gpu;
    // what does not depend on the tile is asked once per choice (a drag of the tile asks two)
    const dev = c.memo('device', JSON.stringify([gpuId, dtype]), () => deviceOrNull(rl, gpuId, dtype));
    const t = c.call('tile', { rows: v.tile, cols: v.tile, dtype }, { rows: 'tile', cols: 'tile' });
    const one = c.callOnce('noReuse', dtype, () => c.call('tile', { rows: 1, cols: 1, dtype }));
    const ro = t && dev && c.call('roofline', { peakFlopsPerSecond: dev.peakFlopsPerSecond, bytesPerSecond: dev.bytesPerSecond, flopsPerByte: t.flopsPerByte });
    c.row('tileIntensity', t && c.t('tile.how.tile', { t: c.n('tile') }), t && t.flopsPerByte, 'flopsPerByte');
    c.row('noReuse', one && c.t('tile.how.noReuse'), one && one.flopsPerByte, 'flopsPerByte');
    c.row('ridge', ro && `${c.fmt(dev.peakFlopsPerSecond, isIntegerDtype(c.rl, dtype) ? 'tops' : 'tflops')} ÷ ${c.fmt(dev.bytesPerSecond, 'gbps')}`, ro ? ro.ridgeFlopsPerByte : (!dev ? c.t('tile.noPeak', { dtype: dtype.toUpperCase() }) : null), ro ? (isIntegerDtype(c.rl, dtype) ? 'ridgeOpsPerByte' : 'ridgeFlopsPerByte') : undefined);
    c.row('verdict', ro && `${c.fmt(t.flopsPerByte, 'number')} ÷ ${c.fmt(ro.ridgeFlopsPerByte, 'ridge')} = ${c.fmt(ro.intensityOverRidge, 'ratio')}`, ro && c.t(`verdict.${ro.bound}`));
    const elementsKey = JSON.stringify([v.elements, dtype]);
    const e = c.callOnce('elementwise', elementsKey, () => c.call('elementwise', { elements: v.elements, dtype }, { elements: 'elements' }));
    c.row('elementwise', e && `${c.fmt(e.flops, 'flops')} ÷ ${c.fmt(e.bytes, 'bytes')}`, e && e.flopsPerByte, 'flopsPerByte');
    const fu = c.callOnce('fusion', elementsKey, () => c.call('fusion', { elements: v.elements, dtype }, { elements: 'elements' }));
    c.row('unfused', fu && c.t('tile.how.transfers', { n: fu.unfusedTransfers, elements: c.n('elements') }), fu && fu.unfusedBytes, 'bytes');
    c.row('fused', fu && c.t('tile.how.transfers', { n: fu.fusedTransfers, elements: c.n('elements') }), fu && fu.fusedBytes, 'bytes');
    c.row('saved', fu && `${c.fmt(fu.unfusedBytes, 'bytes')} − ${c.fmt(fu.fusedBytes, 'bytes')}`, fu && fu.savedBytes, 'bytes');
    c.summary(t ? c.t('tile.summary', { t: c.n('tile'), intensity: c.fmt(t.flopsPerByte, 'flopsPerByte') }) : c.t('calc.summary.invalid'));
    c.later(() => draw(c, t, ro));
  },
};

function draw(c, t, ro) {
  const box = c.parts.chartBox;
  if (!t) {
    emptyChart(c, box);
    return;
  }
  const { rl, v } = c;
  const dtype = c.state.selects.dtype;
  const f = frameIn(box, {
    title: c.t('chart.tile.title', { dtype: dtype.toUpperCase() }),
    desc: c.t('chart.tile.desc', { t: c.n('tile'), intensity: c.fmt(t.flopsPerByte, 'number') }),
    x: [1, TILE_MAX], y: [0.1, 10000],
    xLabel: c.t('chart.tile.x'), yLabel: c.t('chart.tile.y'),
    xFormat: fmtTick('integer', c.lang), yFormat: fmtTick('number', c.lang), lang: c.lang, compact: c.compact,
  });
  // the curve and its table depend on the format only, not on the tile being dragged
  const key = JSON.stringify([dtype, c.lang]);
  const curve = c.memo('curve', key, () => {
    const pts = [];
    const rows = [];
    for (let T = 1; T <= TILE_MAX; T *= 2) {
      const r = rl.tile({ rows: T, cols: T, dtype });
      pts.push([T, r.flopsPerByte]);
      rows.push([`${c.fmt(T, 'integer')} × ${c.fmt(T, 'integer')}`, c.fmt(r.flopsPerByte, 'number')]);
    }
    return { pts, rows };
  });
  f.plot.append(polyline(curve.pts.map(([T, i]) => [f.X(T), f.Y(i)]), 'curve'));
  if (ro) {
    const y = f.Y(ro.ridgeFlopsPerByte);
    f.plot.append(s('line', { class: 'ridge-line series-0', x1: f.X(1), x2: f.X(TILE_MAX), y1: y, y2: y }));
    f.plot.append(s('text', { class: 'ridge-name series-0', x: f.X(1) + 4, y: y - 4 }, c.t('chart.tile.ridge', { gpu: catalogName('gpu', c.state.selects.gpu, c.lang), ridge: c.fmt(ro.ridgeFlopsPerByte, 'ridge') })));
  }
  f.plot.append(marker(f.X(v.tile), f.Y(t.flopsPerByte), c.t('chart.point.you'), 'you', 'above'));
  showChart(box, f, keyed(key, () => dataTable(c.t('chart.tile.tableCaption'), c.t('chart.data'), [c.t('chart.col.tile'), c.t('chart.col.intensity')], curve.rows)));
}
