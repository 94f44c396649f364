// Calculator 3: a GPU's roofline — ridge, attainable FLOPS, verdict — with a log-log chart.
// An integer precision (INT8) rates its peak in TOPS, as datasheets and the lesson do.
// Defaults: an LLM decode on the T4 (the core's case t4-decode-point).
import { catalog, caseArgs, caseValues, gpuOptions, precisions, dtypeName, isIntegerDtype } from './catalog.js';
import { dataTable, emptyChart, fmtTick, frameIn, logFrame, marker, placeText, roofCorners, roofSegments, showChart, textBox } from './charts.js';
import { h, s } from './dom.js';
import { formatNumber } from './format.js';
import { fromBase } from './units.js';

export const ROOFLINE_CASE = 't4-decode-point';

const points = new WeakMap();

/** The lesson's three reference points, each a case of the core's catalog (once per module). */
export function lessonPoints(rl) {
  if (!points.has(rl)) points.set(rl, Object.freeze(referencePoints(rl)));
  return points.get(rl);
}

function referencePoints(rl) {
  const c01 = rl.matmul(caseArgs(rl, 'c01-last-layer', 'matmul'));
  const bigArgs = caseArgs(rl, 'matmul-4096', 'matmul');
  const big = rl.matmul(bigArgs);
  return [
    { id: 'decode', flopsPerByte: caseArgs(rl, ROOFLINE_CASE, 'roofline').flopsPerByte },
    { id: 'c01', flopsPerByte: c01.flopsPerByte },
    { id: 'big', flopsPerByte: big.flopsPerByte, n: bigArgs.n },
  ];
}

/**
 * Sets a calculator's peak and bandwidth fields from a GPU at a precision, through the core. A
 * precision the GPU lacks is an error shown by the calculator, not a fallback to another peak.
 */
export function applyGpu(c, id, prec) {
  const d = c.rl.device({ gpu: id, dtype: prec });
  c.setField('bw', d.bytesPerSecond);
  c.setField('peak', d.peakFlopsPerSecond);
}

/** True when the calculator's precision is an integer one: its rates are OPS, not FLOPS. */
export function integerPeak(c) {
  return isIntegerDtype(c.rl, c.state.selects.precision);
}

/** Draws a roofline chart (ramp, roof, ridge) for a ceiling, plus points. Returns the frame. */
export function rooflineFrame(c, { box = null, title, desc, x = [0.1, 10000], y, ops = false }) {
  const make = box ? (opts) => frameIn(box, opts) : logFrame;
  return make({
    title, desc, x, y,
    xLabel: c.t(ops ? 'chart.roofline.xOps' : 'chart.roofline.x'), yLabel: c.t(ops ? 'chart.roofline.yOps' : 'chart.roofline.y'),
    xFormat: fmtTick('number', c.lang), yFormat: fmtTick(ops ? 'opsPerSecond' : 'flopsPerSecond', c.lang),
    lang: c.lang, compact: c.compact,
  });
}

export const rooflineKind = {
  kind: 'roofline',
  fields: [
    { id: 'peak', step: 1, unit: 'tflops', unitLabel: (c) => (integerPeak(c) ? 'TOPS' : 'TFLOPS'), slider: { min: 1, max: 5000, log: true }, term: 'tflops' },
    { id: 'bw', step: 10, unit: 'gbps', unitLabel: 'GB/s', slider: { min: 10, max: 10000, log: true }, term: 'bandwidth' },
    {
      id: 'intensity', step: 1, unitLabel: (c) => (integerPeak(c) ? 'OPs/B' : 'FLOPs/B'),
      hint: (c) => (integerPeak(c) ? 'roofline.field.intensity.hintOps' : 'roofline.field.intensity.hint'),
      slider: { min: 0.1, max: 10000, log: true }, term: 'intensity',
    },
  ],
  defaults(rl) {
    const r = caseArgs(rl, ROOFLINE_CASE, 'roofline');
    const cv = caseValues(rl, ROOFLINE_CASE);
    return {
      fields: { peak: r.peakFlopsPerSecond, bw: r.bytesPerSecond, intensity: r.flopsPerByte },
      selects: { gpu: cv.gpu, precision: cv.dtype },
    };
  },
  selects: [
    {
      id: 'gpu', options: (rl, lang) => gpuOptions(rl, lang), fields: ['peak', 'bw'],
      apply: (c, v) => applyGpu(c, v, c.state.selects.precision),
    },
    {
      id: 'precision', custom: false, dependsOn: 'gpu', fields: [],
      options: (rl, lang, c) => {
        const id = c && c.state.selects.gpu;
        const ps = id && id !== 'custom' ? precisions(rl, id) : catalog(rl).dtypes.map((d) => d.id);
        return ps.map((p) => ({ value: p, label: dtypeName(rl, p) }));
      },
      apply: (c, v) => {
        if (c.state.selects.gpu !== 'custom') applyGpu(c, c.state.selects.gpu, v);
      },
    },
  ],
  rows: [
    { id: 'ridge', term: 'roofline', hint: (c) => (integerPeak(c) ? 'roofline.out.ridge.hintOps' : 'roofline.out.ridge.hint') },
    { id: 'memory', term: 'bandwidth' },
    { id: 'attainable', label: (c) => (integerPeak(c) ? 'roofline.out.attainableOps' : 'roofline.out.attainable') },
    { id: 'fraction' },
    { id: 'ratio', term: 'intensity' },
    { id: 'verdict', term: 'memory-bound' },
  ],
  renderFigure(c, el) {
    c.parts.chartBox = h('div', { class: 'chart-box' });
    el.append(c.parts.chartBox);
  },
  compute(c) {
    const { v } = c;
    const map = { peakFlopsPerSecond: 'peak', bytesPerSecond: 'bw', flopsPerByte: 'intensity' };
    const r = c.call('roofline', { peakFlopsPerSecond: v.peak, bytesPerSecond: v.bw, flopsPerByte: v.intensity }, map);
    // an integer precision counts operations, not floating-point ones: TOPS and OPs/B
    const ops = integerPeak(c);
    const rate = ops ? 'tops' : 'tflops';
    // a rate just under the peak is written with the digits that tell it from the peak (a T4 at an
    // intensity just under its ridge): memory-bound must never read as "at the peak"
    const tf = (x) => {
      const text = c.fmt(x, rate);
      if (!(x < v.peak) || text !== c.fmt(v.peak, rate)) return text;
      for (let sig = 4; sig <= 12; sig += 1) {
        const finer = `${formatNumber(fromBase(x, rate), c.lang, `sig${sig}`)}\u00a0${ops ? 'TOPS' : 'TFLOPS'}`;
        if (finer !== `${formatNumber(fromBase(v.peak, rate), c.lang, `sig${sig}`)}\u00a0${ops ? 'TOPS' : 'TFLOPS'}`) return finer;
      }
      return text;
    };
    c.row('ridge', r && `${c.n('peak', 'tflops')} ÷ ${c.n('bw', 'gbps')}`, r && r.ridgeFlopsPerByte, ops ? 'ridgeOpsPerByte' : 'ridgeFlopsPerByte');
    c.row('memory', r && `${c.n('intensity', 'perByte')} × ${c.n('bw', 'gbps')}`, r && tf(r.memoryFlopsPerSecond));
    c.row('attainable', r && c.t('roofline.how.attainable', { peak: c.n('peak', 'tflops'), memory: tf(r && r.memoryFlopsPerSecond) }), r && tf(r.attainableFlopsPerSecond));
    c.row('fraction', r && `${tf(r.attainableFlopsPerSecond)} ÷ ${c.n('peak', 'tflops')}`, r && r.fractionOfPeak, 'percent');
    c.row('ratio', r && `${c.n('intensity')} ÷ ${c.fmt(r.ridgeFlopsPerByte, 'ridge')}`, r && r.intensityOverRidge, 'ratio');
    c.row('verdict', r && c.t(`verdict.how.${r.bound}`), r && c.t(`verdict.${r.bound}`));
    c.summary(r
      ? c.t('roofline.summary', { attainable: tf(r.attainableFlopsPerSecond), percent: c.fmt(r.fractionOfPeak, 'percent'), verdict: c.t(`verdict.${r.bound}`) })
      : c.t('calc.summary.invalid'));
    c.later(() => drawRoofline(c, r));
  },
};

function drawRoofline(c, r) {
  const box = c.parts.chartBox;
  const { v, rl } = c;
  if (!r) {
    emptyChart(c, box);
    return;
  }
  const peak = v.peak;
  const bw = v.bw;
  const pts = lessonPoints(rl);
  const ops = integerPeak(c);
  const rate = ops ? 'tops' : 'tflops';
  const yTop = 10 ** Math.ceil(Math.log10(peak) + 0.3);
  const f = rooflineFrame(c, {
    box,
    title: c.t('chart.roofline.title', { peak: c.fmt(peak, rate), bw: c.fmt(bw, 'gbps') }),
    desc: c.t('chart.roofline.desc', { ridge: c.fmt(r.ridgeFlopsPerByte, ops ? 'ridgeOpsPerByte' : 'ridgeFlopsPerByte'), intensity: c.n('intensity'), attainable: c.fmt(r.attainableFlopsPerSecond, rate), n: c.fmt(pts.find((p) => p.id === 'big').n, 'integer') }),
    y: [yTop / 1e5, yTop],
    ops,
  });
  // the roof and the lesson's points depend on the peak and the bandwidth, not on the intensity
  // being dragged: computed and written once for them
  const fixed = c.memo('roof', JSON.stringify([peak, bw, rate, c.lang, f.X.min, f.X.max]), () => ({
    corners: roofCorners(rl, f.X.min, f.X.max, peak, bw),
    points: pts.map((p) => {
      const q = rl.roofline({ peakFlopsPerSecond: peak, bytesPerSecond: bw, flopsPerByte: p.flopsPerByte });
      const label = c.t(`chart.point.${p.id}`, p.n ? { n: c.fmt(p.n, 'integer') } : undefined);
      return { p, attainable: q.attainableFlopsPerSecond, label, row: [label, c.fmt(p.flopsPerByte, 'number'), c.fmt(q.attainableFlopsPerSecond, rate), c.t(`verdict.${q.bound}`)] };
    }),
  }));
  const seg = roofSegments(rl, f, peak, bw, 'roof', fixed.corners);
  f.plot.append(seg.line);
  if (seg.ridge > f.X.min && seg.ridge < f.X.max) {
    f.plot.append(s('line', { class: 'ridge', x1: f.X(seg.ridge), x2: f.X(seg.ridge), y1: f.Y(peak), y2: f.Y(f.Y.min) }));
    f.plot.append(s('text', { class: 'ridge-label', x: f.X(seg.ridge) + 6, y: f.Y(f.Y.min) - 8 }, c.t('chart.roofline.ridge', { ridge: c.fmt(seg.ridge, 'ridge') })));
    // the two regions, named where they are (pixel midpoints, a layout choice), each kept inside
    // the drawing; where they would meet (a ridge near either end), the second goes a line lower
    const yText = f.Y(f.Y.max) + 18;
    const inside = (text, centre) => {
      const half = textBox(0, 0, text, 'middle', 12.5).x1;
      return Math.min(Math.max(centre, f.X(f.X.min) + 4 + half), f.X(f.X.max) - 4 - half);
    };
    const memText = c.t('chart.region.memory');
    const compText = c.t('chart.region.compute');
    const xm = inside(memText, (f.X(f.X.min) + f.X(seg.ridge)) / 2);
    const xc = inside(compText, (f.X(seg.ridge) + f.X(f.X.max)) / 2);
    const plotBox = { x0: f.X(f.X.min), x1: f.X(f.X.max), y0: f.Y(f.Y.max), y1: f.Y(f.Y.min) };
    const mem = placeText(memText, [{ x: xm, y: yText, anchor: 'middle' }], [], plotBox, 12.5);
    const comp = placeText(compText, [{ x: xc, y: yText, anchor: 'middle' }, { x: xc, y: yText + 16, anchor: 'middle' }], [mem.box], plotBox, 12.5);
    f.plot.append(s('text', { class: 'region-label memory', x: mem.x, y: mem.y, 'text-anchor': 'middle' }, memText));
    f.plot.append(s('text', { class: 'region-label compute', x: comp.x, y: comp.y, 'text-anchor': 'middle' }, compText));
  }
  const rows = [];
  for (const { p, attainable, label, row } of fixed.points) {
    const side = p.id === 'big' ? 'below' : 'right';
    f.plot.append(marker(f.X(p.flopsPerByte), f.Y(attainable), label, `lesson ${p.id}`, side));
    rows.push(row);
  }
  const you = c.t('chart.point.you');
  f.plot.append(marker(f.X(v.intensity), f.Y(r.attainableFlopsPerSecond), you, 'you', 'above'));
  rows.unshift([you, c.n('intensity'), c.fmt(r.attainableFlopsPerSecond, rate), c.t(`verdict.${r.bound}`)]);
  showChart(box, f, dataTable(c.t('chart.roofline.tableCaption'), c.t('chart.data'),
    [c.t('chart.col.point'), c.t(ops ? 'chart.col.intensityOps' : 'chart.col.intensity'), c.t('chart.col.attainable'), c.t('chart.col.bound')], rows));
}
