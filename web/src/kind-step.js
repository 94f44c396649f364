// Calculator "Inside one step": a prefill or decode step of a transformer operator by operator
// (rl.step), each operator's FLOPs, bytes, floor and share; a roofline with one point per
// operator, a bar of where the step's time goes, and the context at which attention overtakes
// the weights. Defaults: the lesson's Llama 3 8B decoding on an L4 (the core's case
// llama-l4-decode) over the lesson's conversation (case four-conversations).
import { caseArgs, caseValues, format, gpuLink, gpuOptions, formatOptions, llms, precisions, dtypeName, DECODE_CASE } from './catalog.js';
import { catalogName } from './i18n.js';
import { awaitingConfig, modelRef, modelSelect, renderConfig } from './model-config.js';
import { h, s, clear, setText } from './dom.js';
import { dataTable, emptyChart, fmtTick, frameIn, keyed, marker, roofSegments, scrollBox, showChart } from './charts.js';
import { measuredRow } from './measured.js';

/** The lesson's conversation: its length is the step's default context. */
const CONTEXT_CASE = 'four-conversations';
const GROUPS = ['attention', 'mlp', 'other', 'communication'];

/** The model's architecture (a catalog id or what modelFromConfig read), or null. */
function architecture(c) {
  const ref = modelRef(c);
  if (!ref) return null;
  if (typeof ref !== 'string') return ref.architecture;
  const m = llms(c.rl).find((x) => x.id === ref);
  return m ? m.architecture || null : null;
}

/** A format's compute precision where the GPU has a peak for it, else the GPU's first. */
function precisionFor(c, fmt) {
  const offered = precisions(c.rl, c.state.selects.gpu);
  const want = format(c.rl, fmt).computeDtype;
  return offered.includes(want) ? want : offered[0];
}

function setPrecision(c, value) {
  c.state.selects.precision = value;
  if (c.selectEls && c.selectEls.precision) c.selectEls.precision.value = value;
}

/** Where no model gives a limit: the slider's reach, not a limit the core applies. */
const CONTEXT_REACH = 131072;

/** The chosen model's context limit (its config's max_position_embeddings), with its name. */
function contextLimit(calc) {
  const ref = modelRef(calc);
  const m = typeof ref === 'string' ? llms(calc.rl).find((x) => x.id === ref) : ref;
  const max = m && m.architecture && m.architecture.maxContext;
  if (!(max >= 1)) return { tokens: CONTEXT_REACH, model: null };
  const name = typeof ref === 'string' ? catalogName('model', ref, calc.lang) : calc.tr('calc.model.config');
  return { tokens: max, model: name };
}

export const stepKind = {
  kind: 'step',
  fields: [
    { id: 'batch', int: true, slider: { min: 1, max: 1000, log: true } },
    // the slider runs to the chosen model's context limit, and a typed value past it is refused
    // with the range (the core checks it: out_of_range)
    {
      id: 'context', int: true, unitLabel: (c) => c.tr('step.unit.tokens'),
      slider: { min: 1, max: (calc) => contextLimit(calc).tokens, log: true },
      range: (calc) => {
        const limit = contextLimit(calc);
        return { min: 1, max: limit.tokens, why: limit.model ? calc.tr('step.contextLimit', { model: limit.model }) : '' };
      },
    },
    // tensor parallelism: each GPU's share of the step, and the all-reduces on the GPU's link
    { id: 'gpus', int: true, slider: { min: 1, max: 8, log: false } },
  ],
  defaults(rl) {
    const cv = caseValues(rl, DECODE_CASE);
    const d = caseArgs(rl, DECODE_CASE, 'decode');
    const tokens = caseArgs(rl, CONTEXT_CASE, 'kvCacheBytes').tokens;
    return {
      fields: { batch: d.batch, context: tokens, gpus: 1 },
      selects: { model: cv.model, format: cv.format, gpu: cv.gpu, precision: format(rl, cv.format).computeDtype, phase: 'decode', flash: 'on' },
    };
  },
  initExtra: () => ({ config: '' }),
  // the reader's own model: its context limit bounds the slider's reach (the core checks it)
  fillFromConfig: () => {},
  selects: [
    // only models whose architecture the catalog knows: a step is counted from it
    modelSelect({
      custom: false,
      fields: [],
      options: (rl, lang) => llms(rl).filter((m) => m.architecture)
        .map((m) => ({ value: m.id, label: catalogName('model', m.id, lang), group: m.lesson ? 'lesson' : 'catalog' })),
      apply: (c, v) => {
        // a model comes in its own format, computed in that format's precision
        const own = llms(c.rl).find((m) => m.id === v).format;
        c.state.selects.format = own;
        if (c.selectEls && c.selectEls.format) c.selectEls.format.value = own;
        setPrecision(c, precisionFor(c, own));
      },
    }),
    {
      id: 'format', custom: false, fields: [],
      options: (rl, lang) => formatOptions(rl, lang),
      apply: (c, v) => setPrecision(c, precisionFor(c, v)),
    },
    { id: 'gpu', custom: false, fields: [], options: (rl, lang) => gpuOptions(rl, lang) },
    {
      id: 'precision', custom: false, dependsOn: 'gpu', fields: [],
      options: (rl, lang, c) => precisions(rl, c ? c.state.selects.gpu : caseValues(rl, DECODE_CASE).gpu).map((p) => ({ value: p, label: dtypeName(rl, p) })),
    },
    {
      id: 'phase', custom: false, fields: [],
      options: (rl, lang, c) => ['decode', 'prefill'].map((p) => ({ value: p, label: c ? c.tr(`step.phase.${p}`) : p })),
    },
    {
      id: 'flash', custom: false, fields: [],
      options: (rl, lang, c) => ['on', 'off'].map((p) => ({ value: p, label: c ? c.tr(`step.flash.${p}`) : p })),
    },
  ],
  rows: [
    { id: 'flops', term: 'flop' },
    { id: 'bytes' },
    { id: 'floor', term: 'memory-bound' },
    { id: 'roofline', term: 'roofline' },
    { id: 'attention' },
    { id: 'communication' },
    { id: 'rate' },
    { id: 'measured' },
    { id: 'limit' },
  ],
  renderInputsExtra(c, form) {
    renderConfig(c, form);
  },
  renderFigure(c, el) {
    c.parts.barBox = h('div', { class: 'step-bar', 'data-chart': 'step-bar' });
    c.parts.chartBox = h('div', { class: 'chart-box', 'data-chart': 'step' });
    c.parts.opsBox = h('div', { class: 'step-ops' });
    el.append(c.parts.barBox, c.parts.chartBox, c.parts.opsBox);
  },
  compute(c) {
    const { v } = c;
    const sel = c.state.selects;
    if (awaitingConfig(c)) {
      c.later(() => drawStep(c, null));
      return;
    }
    const ref = modelRef(c);
    const args = {
      model: ref, format: sel.format, gpu: sel.gpu, dtype: sel.precision, phase: sel.phase,
      batch: v.batch, context: v.context, flashAttention: sel.flash === 'on', gpus: v.gpus,
    };
    const r = c.call('step', args, { batch: 'batch', context: 'context', gpus: 'gpus' });
    // the GPU's roofs: once per choice of GPU and precision
    const dev = r && c.memo('device', JSON.stringify([sel.gpu, sel.precision]), () => c.rl.device({ gpu: sel.gpu, dtype: sel.precision }));
    const t = r && r.totals;
    const arch = architecture(c);
    c.row('flops', r && c.t('step.how.flops', { n: c.fmt(r.operators.length, 'integer') }), t && t.flops, 'flops');
    c.row('bytes', r && c.t('step.how.bytes', {
      // each in the unit that suits it (131 kB, not 0.000131 GB), as in the table of operators
      weights: c.fmt(t.weightBytes, 'bytes'), kvRead: c.fmt(t.kvReadBytes, 'bytes'), kvWrite: c.fmt(t.kvWriteBytes, 'bytes'), act: c.fmt(t.activationBytes, 'bytes'),
    }), t && t.bytes, 'gb');
    c.row('floor', r && c.t('step.how.floor'), t && t.seconds, 'seconds');
    c.row('roofline', r && c.t('step.how.roofline', { bytes: c.fmt(t.bytes, 'gb'), bw: c.fmt(dev.bytesPerSecond, 'gbps'), flops: c.fmt(t.flops, 'flops'), peak: c.fmt(dev.peakFlopsPerSecond, 'tflops') }),
      t && `${c.fmt(t.rooflineSeconds, 'seconds')} · ${c.t(`verdict.${t.rooflineBound}`)}`);
    c.row('attention', r && c.t('step.how.attention'), t && t.attentionShare, 'percent');
    communicationRow(c, r);
    c.row('rate', r && c.t(`step.how.rate.${sel.phase}`, { tokens: c.fmt(t.tokens, 'integer'), time: c.fmt(t.seconds, 'seconds') }), t && t.tokens / t.seconds, 'number');
    // a published decode run of the same model, format and device at this batch
    if (r) {
      measuredRow(c, 'measured', sel.phase === 'decode' && typeof ref === 'string'
        ? { model: ref, format: sel.format, gpu: sel.gpu, batch: v.batch, gpus: v.gpus } : null);
    } else {
      c.row('measured', null, null);
    }
    const limit = arch && arch.maxContext > 0 ? arch.maxContext : null;
    c.row('limit', limit && c.t('step.how.limit'), limit, 'integer');
    c.later(() => drawStep(c, r, dev));
    let summary = c.t('calc.summary.invalid');
    if (r) {
      const sorted = [...r.operators].sort((a, b) => b.share - a.share);
      const share = c.fmt(sorted[0].share, 'percent');
      // operators whose shares read the same on screen are named together, as a tie (Llama's
      // gate_proj, up_proj and down_proj: 23.4 % each), not one of them as "the largest"
      const tops = sorted.filter((o) => c.fmt(o.share, 'percent') === share).map((o) => o.id);
      const vars = { time: c.fmt(t.seconds, 'seconds'), attention: c.fmt(t.attentionShare, 'percent'), share, rate: c.fmt(t.tokens / t.seconds, 'number') };
      summary = tops.length > 1
        ? c.t('step.summary.tie', { ...vars, tops: new Intl.ListFormat(c.lang, { type: 'conjunction' }).format(tops) })
        : c.t('step.summary', { ...vars, top: tops[0] });
    }
    c.summary(summary);
  },
};

/**
 * The all-reduces of tensor parallelism on the GPU's link, named: their count and time beside the
 * step's; none on one GPU; "not counted" where the catalog gives the GPU no link.
 */
function communicationRow(c, r) {
  const t = r && r.totals;
  if (!t) {
    c.row('communication', null, null);
    return;
  }
  if (t.communicationSeconds === null) {
    c.row('communication', null, null);
    setText(c.rowEls.communication.how, c.t('step.how.link.none', { gpu: catalogName('gpu', c.state.selects.gpu, c.lang) }));
    return;
  }
  const ar = r.operators.find((o) => o.id === 'allreduce');
  if (!ar) {
    c.row('communication', c.t('step.how.link.one'), 0, 'seconds');
    return;
  }
  const link = gpuLink(c.rl, c.state.selects.gpu);
  c.row('communication', c.t('step.how.link', {
    count: c.fmt(ar.count, 'integer'), link: catalogName('link', link.id, c.lang), bw: c.fmt(link.bytesPerSecond, 'gbps'),
    latency: c.fmt(link.latencySeconds, 'seconds'), bytes: c.fmt(t.linkBytes, 'bytes'), share: c.fmt(ar.share, 'percent'),
  }), t.communicationSeconds, 'seconds');
}

/** The operators by group, in the core's order within each. */
function grouped(r) {
  return GROUPS.map((g) => [g, r.operators.filter((o) => o.group === g)]).filter(([, ops]) => ops.length);
}

/** An operator's formula, in the reader's language: its id without the sliding layers' suffix. */
function formula(c, id) {
  const [base, sliding] = id.split(':');
  const text = c.t(`step.formula.${base}`);
  return sliding ? `${text} ${c.t('step.formula.sliding')}` : text;
}

function drawStep(c, r, dev) {
  if (!r) {
    for (const box of [c.parts.barBox, c.parts.opsBox]) clear(box);
    c.parts.barKey = null;
    c.parts.opsKey = null;
    emptyChart(c, c.parts.chartBox);
    return;
  }
  drawBar(c, r);
  drawRoofline(c, r, dev);
  drawTable(c, r);
}

/** Where the step's time goes: one segment per operator, coloured by its group. */
function drawBar(c, r) {
  const W = 600;
  const H = 34;
  const shares = grouped(r).map(([g, ops]) => [g, ops.reduce((a, o) => a + o.share, 0)]);
  const label = c.t('step.bar.label', Object.fromEntries(GROUPS.map((g) => [g, c.fmt((shares.find(([x]) => x === g) || [g, 0])[1], 'percent')])));
  const key = JSON.stringify([c.lang, r.operators.map((o) => o.id)]);
  if (c.parts.barKey === key && c.parts.barParts && c.parts.barParts.box === c.parts.barBox) {
    // the same operators: the segments move, the legend's numbers change
    c.parts.barParts.svg.setAttribute('aria-label', label);
    let x0 = 0;
    for (const [, ops] of grouped(r)) {
      for (const o of ops) {
        const w = o.share * W;
        const { rect, title } = c.parts.barParts.rects.get(o.id);
        rect.setAttribute('x', x0.toFixed(2));
        rect.setAttribute('width', Math.max(0, w).toFixed(2));
        rect.setAttribute('data-share', String(o.share));
        setText(title, `${o.id}: ${c.fmt(o.share, 'percent')}`);
        x0 += w;
      }
    }
    for (const [g, share] of shares) {
      const li = c.parts.barParts.legend.get(g);
      li.setAttribute('data-share', String(share));
      setText(li.lastChild, `${c.t(`step.group.${g}`)} ${c.fmt(share, 'percent')}`);
    }
    return;
  }
  const svg = s('svg', { viewBox: `0 0 ${W} ${H}`, preserveAspectRatio: 'none', class: 'step-bar-svg', role: 'img', 'aria-label': label });
  const rects = new Map();
  let x = 0;
  for (const [g, ops] of grouped(r)) {
    for (const o of ops) {
      const w = o.share * W;
      const rect = s('rect', { class: `op ${g}`, x: x.toFixed(2), y: 0, width: Math.max(0, w).toFixed(2), height: H, 'data-operator': o.id, 'data-share': String(o.share) });
      const title = s('title', {}, `${o.id}: ${c.fmt(o.share, 'percent')}`);
      rect.append(title);
      rects.set(o.id, { rect, title });
      svg.append(rect);
      x += w;
    }
  }
  const items = new Map();
  const legend = h('ul', { class: 'step-legend' }, ...shares.map(([g, share]) => {
    const li = h('li', { class: g, 'data-group': g, 'data-share': String(share) },
      h('span', { class: 'swatch', 'aria-hidden': 'true' }), h('span', {}, `${c.t(`step.group.${g}`)} ${c.fmt(share, 'percent')}`));
    items.set(g, li);
    return li;
  }));
  c.parts.barKey = key;
  c.parts.barParts = { box: c.parts.barBox, svg, rects, legend: items };
  clear(c.parts.barBox);
  c.parts.barBox.append(h('p', { class: 'step-bar-title' }, c.t('step.bar.title')), svg, legend);
}

/** The device's roofline with one point per operator, its area its share of the step. */
function drawRoofline(c, r, dev) {
  const box = c.parts.chartBox;
  const peak = dev.peakFlopsPerSecond;
  const bw = dev.bytesPerSecond;
  // an operator with no FLOPs or no bytes has no place on a log-log chart (it is in the table)
  const pts = r.operators.filter((o) => o.flops > 0 && o.bytes > 0 && o.seconds > 0)
    .map((o) => ({ o, x: o.flops / o.bytes, y: o.flops / o.seconds }));
  const xs = pts.map((p) => p.x).concat([dev.ridgeFlopsPerByte]);
  const ys = pts.map((p) => p.y).concat([peak]);
  const xLo = 10 ** Math.floor(Math.log10(Math.min(...xs) / 2));
  const xHi = 10 ** Math.ceil(Math.log10(Math.max(...xs) * 2));
  const yHi = 10 ** Math.ceil(Math.log10(peak) + 0.3);
  const yLo = Math.min(10 ** Math.floor(Math.log10(Math.min(...ys) / 2)), yHi / 1e4);
  const top = [...pts].sort((a, b) => b.o.share - a.o.share);
  const f = frameIn(box, {
    title: c.t('chart.step.title', { gpu: catalogName('gpu', c.state.selects.gpu, c.lang), dtype: dtypeName(c.rl, c.state.selects.precision) }),
    desc: c.t('chart.step.desc', { n: c.fmt(pts.length, 'integer'), top: top.length ? top[0].o.id : '—', ridge: c.fmt(dev.ridgeFlopsPerByte, 'ridgeFlopsPerByte') }),
    x: [xLo, xHi], y: [yLo, yHi],
    xLabel: c.t('chart.roofline.x'), yLabel: c.t('chart.step.y'),
    xFormat: fmtTick('number', c.lang), yFormat: fmtTick('flopsPerSecond', c.lang), lang: c.lang, compact: c.compact,
  });
  const seg = roofSegments(c.rl, f, peak, bw, 'roof');
  f.plot.append(seg.line);
  // operators that land on one spot (the projections and the MLP at batch 1) share one label;
  // the three largest spots are labelled, the others marked only (the table lists them all)
  const spots = new Map();
  for (const p of top) {
    const key = `${Math.round(f.X(p.x) / 6)}:${Math.round(f.Y(p.y) / 6)}`;
    if (!spots.has(key)) spots.set(key, []);
    spots.get(key).push(p);
  }
  const labels = new Map();
  [...spots.values()].sort((a, b) => b.reduce((x, p) => x + p.o.share, 0) - a.reduce((x, p) => x + p.o.share, 0)).slice(0, 3)
    .forEach((group, i) => labels.set(group[0].o.id, [group.length > 3 ? `${group.slice(0, 2).map((p) => p.o.id).join(', ')} +${group.length - 2}` : group.map((p) => p.o.id).join(', '), ['right', 'below-right', 'above-left'][i]]));
  for (const p of top) {
    const radius = 3 + 14 * Math.sqrt(p.o.share);
    const [label, side] = labels.get(p.o.id) || ['', 'right'];
    const m = marker(f.X(p.x), f.Y(p.y), label, `op ${p.o.group}`, side, radius);
    m.setAttribute('data-operator', p.o.id);
    f.plot.append(m);
  }
  if (seg.ridge > f.X.min && seg.ridge < f.X.max) {
    f.plot.append(s('line', { class: 'ridge', x1: f.X(seg.ridge), x2: f.X(seg.ridge), y1: f.Y(peak), y2: f.Y(f.Y.min) }));
  }
  const tableKey = JSON.stringify([c.lang, pts.map((p) => [p.o.id, p.x, p.y])]);
  showChart(box, f, keyed(tableKey, () => dataTable(c.t('chart.step.tableCaption'), c.t('chart.data'),
    [c.t('step.col.operator'), c.t('chart.col.intensity'), c.t('chart.step.y'), c.t('chart.col.bound')],
    pts.map((p) => [p.o.id, c.fmt(p.x, 'number'), c.fmt(p.y, 'tflops'), c.t(`verdict.${p.o.bound}`)]))));
}

/** An operator's cells after its name: the field each shows, and how it is written. */
const OP_CELLS = [['count', 'integer'], ['flops', 'flops'], ['bytes', 'bytes'], ['flopsPerByte', 'number'],
  ['bound', null], ['seconds', 'seconds'], ['share', 'percent']];

function opCell(c, o, [field, kind]) {
  return kind ? c.fmt(o[field], kind) : c.t(`step.bound.${o[field]}`);
}

/** A row per operator, grouped, each with its formula and its floor in seconds (data-seconds). */
function drawTable(c, r) {
  // the same operators in the same language: only the numbers change, written in place
  const key = JSON.stringify([c.lang, r.operators.map((o) => o.id)]);
  if (c.parts.opsKey === key && c.parts.opsCells && c.parts.opsFor === c.parts.opsBox) {
    r.operators.forEach((o, i) => {
      const cells = c.parts.opsCells[i];
      cells.tr.setAttribute('data-seconds', String(o.seconds));
      cells.tr.setAttribute('data-bytes', String(o.bytes));
      cells.tr.setAttribute('data-flops', String(o.flops));
      // only the cells whose number changed, into their text nodes (a new node would be laid
      // out anew); the same number in the same language reads the same
      OP_CELLS.forEach((cell, j) => {
        const value = o[cell[0]];
        if (cells.values[j] === value) return;
        cells.values[j] = value;
        setText(cells.td[j], opCell(c, o, cell));
      });
    });
    return;
  }
  const head = h('tr', {}, ...['operator', 'count', 'flops', 'bytes', 'intensity', 'bound', 'seconds', 'share']
    .map((k) => h('th', { scope: 'col' }, c.t(`step.col.${k}`))));
  const cellsOf = new Map();
  const bodies = grouped(r).map(([g, ops]) => h('tbody', { 'data-group': g },
    h('tr', { class: 'group' }, h('th', { scope: 'rowgroup', colspan: 8 }, c.t(`step.group.${g}`))),
    ...ops.map((o) => {
      const td = OP_CELLS.map((cell) => h('td', {}, opCell(c, o, cell)));
      const tr = h('tr', { 'data-operator': o.id, 'data-seconds': String(o.seconds), 'data-bytes': String(o.bytes), 'data-flops': String(o.flops) },
        h('th', { scope: 'row' }, h('code', {}, o.id), h('span', { class: 'hint' }, formula(c, o.id))), ...td);
      cellsOf.set(o.id, { tr, td, values: OP_CELLS.map(([field]) => o[field]) });
      return tr;
    })));
  const table = h('table', { class: 'ops', 'data-step-table': '' }, h('caption', {}, c.t('step.table.caption')), h('thead', {}, head), ...bodies);
  c.parts.opsKey = key;
  c.parts.opsFor = c.parts.opsBox;
  c.parts.opsCells = r.operators.map((o) => cellsOf.get(o.id));
  clear(c.parts.opsBox);
  c.parts.opsBox.append(scrollBox(table, c.t('step.table.caption')),
    h('p', { class: 'hint' }, c.t('step.table.note')));
}
