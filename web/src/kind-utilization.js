// Calculator: utilization, how much of its peak a GPU really uses. A measured rate of items
// (photos, tokens) times the FLOPs each costs is the achieved rate; ÷ the peak of the precision
// the work runs in is the utilization, and above 1 the measurement, not the GPU, is wrong.
// Defaults: C01's ResNet-50 on a T4 at its measured rate (the core's case c01-day).
import { caseArgs, caseValues, gpuOptions, precisions, dtypeName, isIntegerDtype } from './catalog.js';

export const UTILIZATION_CASE = 'c01-day';

/** True when the chosen precision is an integer one: its peak is in TOPS. */
const integer = (c) => isIntegerDtype(c.rl, c.state.selects.precision);

function applyGpu(c, id, prec) {
  c.setField('peak', c.rl.device({ gpu: id, dtype: prec }).peakFlopsPerSecond);
}

export const utilizationKind = {
  kind: 'utilization',
  fields: [
    { id: 'work', step: 0.1, unit: 'giga', unitLabel: (c) => (integer(c) ? 'GOPs' : 'GFLOPs'), slider: { min: 0.01, max: 10000, log: true }, term: 'flop' },
    { id: 'rate', step: 10, unitLabel: '/s', slider: { min: 1, max: 100000, log: true } },
    { id: 'peak', step: 1, unit: 'tflops', unitLabel: (c) => (integer(c) ? 'TOPS' : 'TFLOPS'), slider: { min: 1, max: 5000, log: true }, term: 'tflops' },
  ],
  defaults(rl) {
    // one T4's measured rate against one T4's peak
    const a = caseArgs(rl, UTILIZATION_CASE, 'throughput', { gpus: 1 });
    const cv = caseValues(rl, UTILIZATION_CASE);
    const prec = rl.formats().find((f) => f.id === rl.model({ id: cv.model }).format).computeDtype;
    return {
      fields: { work: a.flopsPerItem, rate: a.itemsPerSecond, peak: a.peakFlopsPerSecond },
      selects: { gpu: cv.gpu, precision: prec },
    };
  },
  selects: [
    {
      id: 'gpu', options: (rl, lang) => gpuOptions(rl, lang), fields: ['peak'],
      apply: (c, v) => applyGpu(c, v, c.state.selects.precision),
    },
    {
      id: 'precision', custom: false, dependsOn: 'gpu', fields: [],
      options: (rl, lang, c) => {
        const id = c && c.state.selects.gpu;
        const ps = id && id !== 'custom' ? precisions(rl, id) : rl.dtypes().filter((d) => d.id !== 'int4').map((d) => d.id);
        return ps.map((p) => ({ value: p, label: dtypeName(rl, p) }));
      },
      apply: (c, v) => {
        if (c.state.selects.gpu !== 'custom') applyGpu(c, c.state.selects.gpu, v);
      },
    },
  ],
  rows: [
    { id: 'achieved', label: (c) => (integer(c) ? 'utilization.out.achievedOps' : 'utilization.out.achieved') },
    { id: 'fraction', term: 'tflops' },
    { id: 'time' },
    { id: 'ceiling' },
    { id: 'verdict' },
  ],
  compute(c) {
    const { v } = c;
    const map = { flopsPerItem: 'work', itemsPerSecond: 'rate', peakFlopsPerSecond: 'peak' };
    const r = c.call('throughput', { flopsPerItem: v.work, itemsPerSecond: v.rate, peakFlopsPerSecond: v.peak }, map);
    const rate = integer(c) ? 'tops' : 'tflops';
    c.row('achieved', r && `${c.n('rate')} × ${c.n('work', 'unit')}`, r && r.achievedFlopsPerSecond, rate);
    c.row('fraction', r && `${c.fmt(r.achievedFlopsPerSecond, rate)} ÷ ${c.n('peak', 'unit')}`, r && r.fraction, 'percent');
    c.row('time', r && `${c.n('work', 'unit')} ÷ ${c.n('peak', 'unit')}`, r && r.secondsPerItemAtPeak, 'seconds');
    c.row('ceiling', r && `${c.n('peak', 'unit')} ÷ ${c.n('work', 'unit')}`, r && r.ceilingItemsPerSecond, 'integer');
    c.row('verdict', r && c.t(r.possible ? 'utilization.how.possible' : 'utilization.how.impossible'), r && c.t(r.possible ? 'utilization.possible' : 'utilization.impossible'));
    let summary = c.t('calc.summary.invalid');
    if (r) {
      summary = c.t(r.possible ? 'utilization.summary' : 'utilization.summary.impossible', {
        achieved: c.fmt(r.achievedFlopsPerSecond, rate), percent: c.fmt(r.fraction, 'percent'),
        ceiling: c.fmt(r.ceilingItemsPerSecond, 'integer'),
      });
    }
    c.summary(summary);
  },
};
