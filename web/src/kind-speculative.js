// Calculator "Speculative decoding" (rl.speculative): a small draft model proposes γ tokens, one
// decode step each, and the target checks them all in one read of its weights, keeping those it
// agrees with and adding one of its own. The rows follow one cycle (the draft's γ steps, the
// verification, the tokens it yields) to the speed-up over plain decode and the α where it breaks
// even; the chart draws the speed-up over γ for several α. Defaults: the lesson's Llama 3 8B on an
// L4 (the core's case llama-l4-decode) over the lesson's conversation, with Llama 3.2 1B drafting.
import { caseArgs, caseValues, deviceOrNull, format, formatOptions, gpuOptions, llmOptions, model, DECODE_CASE } from './catalog.js';
import { catalogName, t } from './i18n.js';
import { chartLegend, dataTable, emptyChart, fmtTick, frameIn, keyed, marker, polyline, showChart } from './charts.js';
import { h, s } from './dom.js';

/** The lesson's conversation: its length is the default context. */
const KV_CASE = 'four-conversations';
/** The draft the lesson pairs with Llama 3 8B: the same family's smallest model (same tokenizer). */
const DRAFT = 'llama3.2-1b';
/** The reach of γ on the slider and the chart (a display choice: papers try 1 to about 10). */
const GAMMA_MAX = 16;
const GAMMAS = Array.from({ length: GAMMA_MAX }, (_, i) => i + 1);
/** The acceptance rates drawn as curves, and the α and γ a calculator opens with (Leviathan et al.
 *  report α from about 0.5 to 0.9 for drafts of the same family). */
const ALPHAS = [0.6, 0.7, 0.8, 0.9]; // not a catalog figure: acceptance rates the chart draws
const OPEN_WITH = { alpha: 0.8, gamma: 4 }; // not a catalog figure: the lesson's example of α and γ
/** Ticks of the chart's axes: γ's powers of two, and the speed-ups' (a display choice). */
const X_TICKS = [1, 2, 4, 8, 16];

const SUPERSCRIPT = '⁰¹²³⁴⁵⁶⁷⁸⁹';
/** A whole number as an exponent (α³), for the formula written with the reader’s numbers. */
const sup = (n) => String(n).replace(/\d/g, (d) => SUPERSCRIPT[Number(d)]);

/** The draft that is the target's own multi-token-prediction module (DeepSeek-V3's). */
const MTP = 'mtp';

/** Whether a catalog model carries multi-token-prediction modules to draft with. */
const hasMtp = (rl, id) => Boolean(model(rl, id).architecture && model(rl, id).architecture.mtpLayers > 0);

/** The draft's name: a catalog model's, or the target's own module. */
const draftName = (c, id) => (id === MTP ? c.t('speculative.draft.mtpShort') : catalogName('model', id, c.lang));

/** Whether the catalog knows the shape of a model's KV cache (its layers, from its config). */
function kvShape(rl, id) {
  const m = model(rl, id);
  return Boolean(m.architecture || m.layers);
}

/** The peak the target computes at: its format's precision on the chosen GPU (null where none). */
function roofs(c) {
  const sel = c.state.selects;
  const dtype = format(c.rl, sel.format).computeDtype;
  return { dtype, dev: deviceOrNull(c.rl, sel.gpu, dtype) };
}

export const speculativeKind = {
  kind: 'speculative',
  fields: [
    // α: a share of draft tokens the target accepts; each key press on the slider moves it 0.01
    // (the core refuses one outside 0 … 1: the error says the range)
    { id: 'alpha', step: 0.01, min: 0, slider: { min: 0, max: 1, log: false, positions: 100 }, range: () => ({ min: 0, max: 1 }) },
    // γ: one slider step per draft token
    { id: 'gamma', int: true, slider: { min: 1, max: GAMMA_MAX, log: false, positions: GAMMA_MAX - 1 } },
    { id: 'batch', int: true, slider: { min: 1, max: 256, log: true } },
    { id: 'tokens', step: 256, int: true, min: 0, unitLabel: (c) => c.tr('speculative.unit.tokens') },
  ],
  defaults(rl) {
    const cv = caseValues(rl, DECODE_CASE);
    const d = caseArgs(rl, DECODE_CASE, 'decode');
    const tokens = caseArgs(rl, KV_CASE, 'kvCacheBytes').tokens;
    return {
      fields: { alpha: OPEN_WITH.alpha, gamma: OPEN_WITH.gamma, batch: d.batch, tokens },
      selects: { model: cv.model, format: cv.format, draft: DRAFT, gpu: cv.gpu },
    };
  },
  selects: [
    {
      // the target: the model whose answers count; it comes in its own format
      id: 'model', custom: false, fields: [],
      options: (rl, lang) => llmOptions(rl, lang),
      apply: (c, v) => {
        c.state.selects.format = model(c.rl, v).format;
        if (c.selectEls && c.selectEls.format) c.selectEls.format.value = c.state.selects.format;
      },
    },
    { id: 'format', custom: false, fields: [], options: (rl, lang) => formatOptions(rl, lang) },
    // the draft, read in its own format; or the target's own multi-token-prediction module
    {
      id: 'draft', custom: false, fields: [],
      options: (rl, lang, c) => [{ value: MTP, label: c ? c.tr('speculative.draft.mtp') : t('speculative.draft.mtp', lang) }, ...llmOptions(rl, lang)],
    },
    { id: 'gpu', custom: false, fields: [], options: (rl, lang) => gpuOptions(rl, lang) },
  ],
  rows: [
    { id: 'expected' },
    { id: 'draft' },
    { id: 'verify', term: 'memory-bound' },
    { id: 'cycle' },
    { id: 'rate' },
    { id: 'total' },
    { id: 'plain' },
    { id: 'speedup' },
    { id: 'breakEven' },
  ],
  renderFigure(c, el) {
    c.parts.chartBox = h('div', { class: 'chart-box' });
    // the sentence to leave with, under the chart (the calculator says it embedded alone too)
    el.append(c.parts.chartBox, h('p', { class: 'calc-takeaway' }, c.tr('speculative.takeaway')));
  },
  compute(c) {
    const { v } = c;
    const sel = c.state.selects;
    // the GPU's roofs at the target's precision: once per choice, not per key press
    const { dtype, dev } = c.memo('roofs', JSON.stringify([sel.gpu, sel.format]), () => roofs(c));
    const gpuName = catalogName('gpu', sel.gpu, c.lang);
    const args = (alpha, gamma) => ({
      model: sel.model, format: sel.format, draft: sel.draft, tokens: v.tokens, batch: v.batch,
      bytesPerSecond: dev.bytesPerSecond, peakFlopsPerSecond: dev.peakFlopsPerSecond, gamma, acceptance: alpha,
    });
    // a model the catalog knows no KV shape of counts no KV cache: only a context of 0 leaves it out
    const shapeless = v.tokens !== 0 ? [sel.model, sel.draft].find((id) => id !== MTP && !kvShape(c.rl, id)) : undefined;
    let problem = null;
    if (!dev) problem = c.t('speculative.noPeak', { gpu: gpuName, dtype: dtype.toUpperCase() });
    else if (sel.draft === MTP && !hasMtp(c.rl, sel.model)) problem = c.t('speculative.noMtp', { model: catalogName('model', sel.model, c.lang) });
    else if (shapeless) problem = c.t('speculative.noKvShape', { model: catalogName('model', shapeless, c.lang) });
    const r = problem ? null : c.call('speculative', args(v.alpha, v.gamma), { acceptance: 'alpha', gamma: 'gamma', batch: 'batch', tokens: 'tokens' });
    if (problem) c.fail(problem);
    const sec = (x) => c.fmt(x, 'seconds');
    const gb = (x) => c.fmt(x, 'gb');
    const alpha = c.n('alpha');
    const expectedHow = r && (v.alpha === 1
      ? c.t('speculative.how.expectedAll', { gamma: c.n('gamma') })
      : `(1 − ${alpha}${sup(v.gamma + 1)}) ÷ (1 − ${alpha})`);
    c.row('expected', expectedHow, r && r.expectedTokens, 'number');
    c.row('draft', r && c.t('speculative.how.draft', { gamma: c.n('gamma'), weights: gb(r.draftWeightBytes), kv: gb(r.draftKvBytesPerSequence) }), r && r.draftSeconds, 'seconds');
    // its roof beside how it is counted, so that the result stays a time
    c.row('verify', r && `${c.t('speculative.how.verify', { weights: gb(r.verifyWeightBytes), kv: gb(r.kvBytesPerSequence), batch: c.n('batch'), gamma: c.n('gamma') })} · ${c.t(`verdict.${r.verifyBound}`)}`,
      r && r.verifySeconds, 'seconds');
    c.row('cycle', r && `${sec(r.draftSeconds)} + ${sec(r.verifySeconds)}`, r && r.cycleSeconds, 'seconds');
    c.row('rate', r && `${c.fmt(r.expectedTokens, 'number')} ÷ ${sec(r.cycleSeconds)}`, r && r.tokensPerSecondPerSequence, 'number');
    c.row('total', r && c.t('speculative.how.total', { batch: c.n('batch'), rate: c.fmt(r.tokensPerSecondPerSequence, 'number') }), r && r.tokensPerSecond, 'number');
    c.row('plain', r && c.t('speculative.how.plain', { time: sec(r.plainStepSeconds) }), r && r.plainTokensPerSecondPerSequence, 'number');
    c.row('speedup', r && `${c.fmt(r.tokensPerSecondPerSequence, 'number')} ÷ ${c.fmt(r.plainTokensPerSecondPerSequence, 'number')}`, r && r.speedup, 'ratio');
    // the speed-up as a plain number, for a page or a test that reads it (docs/embedding.md)
    const out = c.rowEls.speedup.out;
    if (r) out.setAttribute('data-speedup', r.speedup.toFixed(4));
    else out.removeAttribute('data-speedup');
    if (r && r.breakEvenAcceptance !== null) {
      c.row('breakEven', c.t('speculative.how.breakEven', { gamma: c.n('gamma') }), r.breakEvenAcceptance, 'number');
    } else {
      c.row('breakEven', r && c.t('speculative.how.breakEven', { gamma: c.n('gamma') }), r && c.t('speculative.never'));
    }
    let summary = c.t('calc.summary.invalid');
    if (r) {
      summary = c.t(r.speedup >= 1 ? 'speculative.summary.faster' : 'speculative.summary.slower', {
        rate: c.fmt(r.tokensPerSecondPerSequence, 'number'), speedup: c.fmt(r.speedup, 'ratio'), plain: c.fmt(r.plainTokensPerSecondPerSequence, 'number'),
        tokens: c.fmt(r.expectedTokens, 'number'), alpha, gamma: c.n('gamma'),
      });
    }
    if (problem) summary = problem;
    c.summary(summary);
    c.later(() => draw(c, r, args));
  },
};

/** The speed-up over γ for each of ALPHAS, and the first γ at which a verification is compute-bound. */
function curves(c, args) {
  const lines = ALPHAS.map((alpha) => ({ alpha, pts: GAMMAS.map((g) => [g, c.rl.speculative(args(alpha, g))]) }));
  const computeAt = lines[0].pts.find(([, r]) => r.verifyBound === 'compute');
  return { lines, computeAt: computeAt ? computeAt[0] : null };
}

/** A power of two at or below (down) or above (up) x: the speed-up axis' ends. */
const pow2 = (x, up) => 2 ** (up ? Math.ceil(Math.log2(x)) : Math.floor(Math.log2(x)));

function draw(c, r, args) {
  const box = c.parts.chartBox;
  if (!r) {
    emptyChart(c, box);
    return;
  }
  const { v } = c;
  const sel = c.state.selects;
  // the curves read every input but α and γ, which only place the reader's point on them
  const key = JSON.stringify([sel.model, sel.format, sel.draft, sel.gpu, v.batch, v.tokens]);
  const { lines, computeAt } = c.memo('curves', key, () => curves(c, args));
  const values = lines.flatMap((l) => l.pts.map(([, x]) => x.speedup)).concat([r.speedup, 1]);
  const lo = pow2(Math.min(...values), false);
  const hi = Math.max(pow2(Math.max(...values), true), lo * 2);
  const yTicks = [];
  for (let y = lo; y <= hi; y *= 2) yTicks.push(y);
  const ratio = (x) => c.fmt(x, 'ratio');
  const ends = lines.map((l) => c.t('chart.speculative.descLine', { alpha: c.fmt(l.alpha, 'number'), speedup: ratio(l.pts[l.pts.length - 1][1].speedup) }));
  const f = frameIn(box, {
    title: c.t('chart.speculative.title', { model: catalogName('model', sel.model, c.lang), draft: draftName(c, sel.draft), gpu: catalogName('gpu', sel.gpu, c.lang) }),
    desc: c.t('chart.speculative.desc', { gamma: c.fmt(GAMMA_MAX, 'integer'), ends: ends.join(', '), you: ratio(r.speedup), at: c.n('gamma'), alpha: c.n('alpha') }),
    x: [1, GAMMA_MAX], y: [lo, hi], xTicks: X_TICKS, yTicks,
    xLabel: c.t('chart.speculative.x'), yLabel: c.t('chart.speculative.y'),
    xFormat: fmtTick('integer', c.lang), yFormat: fmtTick('number', c.lang), lang: c.lang, compact: c.compact,
  });
  // break-even: above this line speculation pays
  f.plot.append(s('line', { class: 'limit', x1: f.X(1), x2: f.X(GAMMA_MAX), y1: f.Y(1), y2: f.Y(1) }));
  lines.forEach((l, i) => f.plot.append(polyline(l.pts.map(([g, x]) => [f.X(g), f.Y(x.speedup)]), `alpha series-${i}`)));
  if (v.gamma >= 1 && v.gamma <= GAMMA_MAX) f.plot.append(marker(f.X(v.gamma), f.Y(r.speedup), c.t('chart.point.you'), 'you', 'above'));
  const legend = chartLegend([
    ...lines.map((l, i) => ({ swatch: `series-${i}`, label: c.t('speculative.legend.alpha', { alpha: c.fmt(l.alpha, 'number') }) })),
    { swatch: 'limit', label: c.t('speculative.legend.breakEven'), dashed: true },
  ]);
  // why the curves flatten, on the roofline; where a verification turns compute-bound, from which γ
  let why = c.t('chart.speculative.why');
  if (computeAt !== null) why += ` ${c.t('chart.speculative.whyCompute', { gamma: c.fmt(computeAt, 'integer'), batch: c.n('batch') })}`;
  const note = h('p', { class: 'chart-note' }, why);
  const table = keyed(JSON.stringify([c.lang, key]), () => dataTable(c.t('chart.speculative.tableCaption'), c.t('chart.data'),
    [c.t('chart.speculative.colGamma'), ...lines.map((l) => c.t('speculative.legend.alpha', { alpha: c.fmt(l.alpha, 'number') }))],
    GAMMAS.map((g, i) => [c.fmt(g, 'integer'), ...lines.map((l) => ratio(l.pts[i][1].speedup))])));
  showChart(box, f, legend, note, table);
}
