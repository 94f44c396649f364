// Calculator 1: the FLOPs of a matrix multiplication and the floor time at a GPU's peak.
// Defaults: the lesson's C01 last layer on a T4 (the core's case c01-last-layer).
import { caseArgs } from './catalog.js';

export const MATMUL_CASE = 'c01-last-layer';

export const matmulKind = {
  kind: 'matmul',
  fields: [
    { id: 'n', int: true, slider: { min: 1, max: 10000, log: true } },
    { id: 'k', int: true, slider: { min: 1, max: 10000, log: true } },
    { id: 'm', int: true, slider: { min: 1, max: 10000, log: true } },
    { id: 'peak', step: 1, unit: 'tflops', unitLabel: 'TFLOPS', slider: { min: 1, max: 5000, log: true }, term: 'tflops' },
  ],
  defaults(rl) {
    const mm = caseArgs(rl, MATMUL_CASE, 'matmul');
    const at = caseArgs(rl, MATMUL_CASE, 'timeAtPeak');
    return { fields: { n: mm.n, k: mm.k, m: mm.m, peak: at.peakFlopsPerSecond }, selects: {} };
  },
  rows: [
    { id: 'size', term: 'matrix' },
    { id: 'macs', term: 'mac' },
    { id: 'flops', term: 'flop' },
    { id: 'gflops' },
    { id: 'time', term: 'tflops' },
    { id: 'perSecond' },
  ],
  compute(c) {
    const { v } = c;
    const r = c.call('matmul', { ...caseArgs(c.rl, MATMUL_CASE, 'matmul'), n: v.n, k: v.k, m: v.m }, { n: 'n', k: 'k', m: 'm' });
    const int = (x) => c.fmt(x, 'integer');
    c.row('size', r && `${int(r.rows)} × ${int(r.cols)}`, r && r.outputElements, 'integer');
    c.row('macs', r && `${c.n('n')} × ${c.n('m')} × ${c.n('k')}`, r && r.macs, 'integer');
    c.row('flops', r && `2 × ${int(r.macs)}`, r && r.flops, 'integer');
    c.row('gflops', r && `${int(r.flops)} ÷ 10⁹`, r && r.flops, 'gflops');
    const tp = r && c.call('timeAtPeak', { flops: r.flops, peakFlopsPerSecond: v.peak }, { peakFlopsPerSecond: 'peak' });
    c.row('time', tp && `${c.fmt(r.flops, 'flops')} ÷ ${c.n('peak', 'tflops')}`, tp && tp.seconds, 'seconds');
    c.row('perSecond', tp && `${c.n('peak', 'tflops')} ÷ ${c.fmt(r.flops, 'flops')}`, tp && tp.perSecond, 'integer');
    c.summary(r && tp ? c.t('matmul.summary', { flops: c.fmt(r.flops, 'flops'), time: c.fmt(tp.seconds, 'seconds') }) : c.t('calc.summary.invalid'));
  },
};
