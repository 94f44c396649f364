// Calculator 4: the ceiling of tokens per second while decoding. Every step reads the weights once
// and each conversation's KV cache (the memory roof); with a GPU's peak for the model's format,
// the step also cannot beat batch × FLOPs per token ÷ peak (the compute roof); and weights plus
// KV caches must fit in the GPUs' memory. Defaults: the core's case llama-l4-decode.
import { caseArgs, caseValues, deviceOrNull, format, gpu, gpuLink, gpuOptions, formatOptions, model, DECODE_CASE } from './catalog.js';
import { catalogName } from './i18n.js';
import { awaitingConfig, modelRef, modelSelect, renderConfig } from './model-config.js';
import { h, s, clear, setText } from './dom.js';
import { measuredRow } from './measured.js';
import { dataTable, emptyChart, fmtTick, frameIn, keyed, marker, placeText, polyline, showChart, textBox } from './charts.js';

/** The dtypes a KV cache is kept in (a choice apart from the weights' format). */
const KV_DTYPES = ['bf16', 'fp8', 'int8'];
/** The lesson's example of a KV cache: its conversations' length. */
const KV_CASE = 'four-conversations';
/** Batches drawn on the chart (a display choice: the first eleven powers of two). */
const CHART_BATCHES = Array.from({ length: 11 }, (_, i) => 2 ** i);

/** Whether a decode that does not fit fails on its weights alone (rl.decode: maxBatch 0, or null
 *  with no KV cache), so that no batch would fit: said as such, not as "at most 0". */
function weightsOnly(r) {
  return r.fits === false && !(r.maxBatch >= 1);
}

/** The summary's sentence for a decode that does not fit (with a leading space), or ''. */
function fitNote(c, r) {
  if (r.fits !== false) return '';
  return ` ${weightsOnly(r) ? c.t('decode.summary.weightsOnly') : c.t('decode.summary.full', { batch: c.fmt(r.maxBatch, 'integer') })}`;
}

/**
 * One conversation's KV cache of the chosen model at `tokens`, from its shape, with the
 * arithmetic that gives it: { bytes, how } (how: null where `c` is null), or null where the
 * model's shape is unknown (typed weights, a model without one). Throws the core's error for
 * tokens that are no count.
 */
function modelKv(rl, ref, kvDtype, tokens, c = null) {
  if (!ref) return null;
  const int = (x) => (c ? c.fmt(x, 'integer') : '');
  const bytesOf = (d) => (c ? c.t('decode.how.bytesOf', { dtype: d.toUpperCase() }) : '');
  const n = c ? c.n('tokens') : '';
  const arch = typeof ref === 'string' ? model(rl, ref).architecture : ref.architecture;
  if (arch && (typeof ref !== 'string' || !model(rl, ref).lesson || kvDtype !== model(rl, ref).dtype)) {
    // its own cache: GQA or MLA, sliding windows held at their window
    const bytes = rl.kvCacheBytes({ model: ref, tokens, dtype: kvDtype }).bytes;
    const a = arch.attention;
    let how = a.kind === 'mla'
      ? `${int(arch.layers)} × (${int(a.kvLoraRank)} + ${int(a.qkRopeHeadDim)}) × ${n} × ${bytesOf(kvDtype)}`
      : `2 × ${int(arch.layers)} × ${int(a.kvHeads)} × ${int(a.headDim)} × ${n} × ${bytesOf(kvDtype)}`;
    if (a.slidingLayers > 0 && c) how += ` · ${c.t('decode.how.sliding', { layers: int(a.slidingLayers), window: int(a.slidingWindow) })}`;
    return { bytes, how: c ? how : null };
  }
  if (typeof ref === 'string') {
    const m = model(rl, ref);
    if (m.layers && m.kvHeads && m.headDim && m.dtype) {
      const bytes = rl.kvCacheBytes({ layers: m.layers, kvHeads: m.kvHeads, headDim: m.headDim, tokens, dtype: m.dtype }).bytes;
      return { bytes, how: c ? `2 × ${int(m.layers)} × ${int(m.kvHeads)} × ${int(m.headDim)} × ${n} × ${bytesOf(m.dtype)}` : null };
    }
  }
  return null;
}

/**
 * What the chosen model is, as a memo key: its catalog id, or the reader's own config.json's text
 * (the choices that depend only on the selects are computed once per selection, not per key).
 */
function modelKey(c) {
  const sel = c.state.selects;
  return JSON.stringify([sel.model, sel.model === 'config' ? c.state.extra.config : '', sel.format, c.lang]);
}

/** Where each conversation's KV cache comes from: counted from the model (the default), left out
 *  (the lesson's first example), or typed ("custom": the reader's own number in the field). */
const KV_SOURCES = ['model', 'none'];

export const decodeKind = {
  kind: 'decode',
  fields: [
    { id: 'weights', step: 0.01, unit: 'gb', unitLabel: 'GB', slider: { min: 0.1, max: 1000, log: true } },
    { id: 'bw', step: 10, unit: 'gbps', unitLabel: 'GB/s', slider: { min: 10, max: 10000, log: true }, term: 'bandwidth' },
    { id: 'batch', int: true, slider: { min: 1, max: CHART_BATCHES[CHART_BATCHES.length - 1], log: true } },
    { id: 'kv', step: 0.01, min: 0, unit: 'gb', unitLabel: 'GB' },
    { id: 'gpus', int: true, slider: { min: 1, max: 8, log: false } },
    { id: 'tokens', step: 256, int: true },
    // one GPU's price per hour, from the catalog where a source gives one, or the reader's own; 0: none
    { id: 'price', step: 0.01, min: 0, unitLabel: 'US$/h' },
  ],
  defaults(rl) {
    const d = caseArgs(rl, DECODE_CASE, 'decode');
    const cv = caseValues(rl, DECODE_CASE);
    const kv = caseArgs(rl, KV_CASE, 'kvCacheBytes');
    // each conversation's KV cache counted from the model at the context's tokens: the lesson's
    // first example leaves it out (d.kvBytesPerSequence, 0), one choice away (kvSource "none")
    const counted = modelKv(rl, cv.model, 'bf16', kv.tokens);
    return {
      fields: { weights: d.weightBytes, bw: d.bytesPerSecond, batch: d.batch, kv: counted ? counted.bytes : d.kvBytesPerSequence, gpus: d.gpus, tokens: kv.tokens, price: gpu(rl, cv.gpu).pricePerHourUsd ?? 0 },
      selects: { model: cv.model, format: cv.format, gpu: cv.gpu, kvDtype: 'bf16', kvSource: counted ? 'model' : 'none' },
    };
  },
  // the text of the reader's own config.json (never sent anywhere, not kept in a link)
  initExtra: () => ({ config: '' }),
  // the reader's own model holds its weights in the chosen format (BF16 for typed weights)
  fillFromConfig: (c, m) => c.setField('weights', c.rl.modelWeights({ model: m, format: c.state.selects.format === 'custom' ? 'bf16' : c.state.selects.format }).bytes),
  selects: [
    // the model sets the FLOPs per token and the KV cache's shape: typed weights leave it chosen;
    // "config" is the reader's own model, read from the config.json pasted below
    modelSelect({
      fields: [],
      apply: (c, v) => {
        // a model comes in its own format
        c.state.selects.format = model(c.rl, v).format;
        if (c.selectEls && c.selectEls.format) c.selectEls.format.value = c.state.selects.format;
        c.setField('weights', c.rl.modelWeights({ model: v }).bytes);
      },
    }),
    {
      id: 'format', fields: ['weights'],
      options: (rl, lang) => formatOptions(rl, lang),
      apply: (c, v) => {
        const m = modelRef(c);
        if (m) c.setField('weights', c.rl.modelWeights({ model: m, format: v }).bytes);
      },
    },
    {
      // the KV cache's own dtype, apart from the weights' format
      id: 'kvDtype', fields: [],
      options: (rl, lang) => KV_DTYPES.map((d) => ({ value: d, label: rl.dtypes().find((x) => x.id === d).name })),
      custom: false,
    },
    {
      // each conversation's KV cache: counted from the model, left out, or typed ("custom")
      id: 'kvSource', fields: ['kv'],
      options: (rl, lang, c) => KV_SOURCES.map((v) => ({ value: v, label: c.tr(`decode.kvSource.${v}`) })),
      apply: (c, v) => {
        if (v === 'none') c.setField('kv', 0);
        // "model": compute() fills the field from the model, the dtype and the tokens
      },
    },
    {
      id: 'gpu', fields: ['bw', 'price'], options: (rl, lang) => gpuOptions(rl, lang),
      apply: (c, v) => {
        c.setField('bw', gpu(c.rl, v).bytesPerSecond);
        c.setField('price', gpu(c.rl, v).pricePerHourUsd ?? 0);
      },
    },
  ],
  rows: [
    { id: 'bytesPerStep' },
    { id: 'memoryTime', term: 'bandwidth' },
    { id: 'computeTime', term: 'tflops' },
    { id: 'communication' },
    { id: 'stepTime', term: 'memory-bound' },
    { id: 'perConversation' },
    { id: 'total' },
    { id: 'measured' },
    { id: 'resident' },
    { id: 'capacity' },
    { id: 'kvModel' },
    { id: 'cost' },
  ],
  renderFigure(c, el) {
    c.parts.chartBox = h('div', { class: 'chart-box' });
    // what a million tokens cost as the batch grows, where the GPU has a price
    c.parts.costBox = h('div', { class: 'chart-box', 'data-chart': 'cost' });
    el.append(c.parts.chartBox, c.parts.costBox);
  },
  renderInputsExtra(c, form) {
    renderConfig(c, form);
  },
  compute(c) {
    const { v, rl } = c;
    const sel = c.state.selects;
    if (awaitingConfig(c)) {
      // the reader's own model, before its config.json is pasted or while it has an error
      c.later(() => drawBatchCurve(c, null, null));
      return;
    }
    // one conversation's KV cache of the chosen model (null where its shape is unknown or the
    // tokens are no count); counted into every step unless the reader left it out or typed another
    const ref = modelRef(c);
    const kvDtype = sel.kvDtype;
    let counted = null;
    let kvFailed = false;
    try {
      // (the same for every batch: once per model, KV dtype and context)
      counted = c.memo('kv', JSON.stringify([modelKey(c), kvDtype, v.tokens, c.state.fields.tokens]), () => modelKv(rl, ref, kvDtype, v.tokens, c));
    } catch (e) {
      if (!e || !e.code) throw e;
      kvFailed = true;
      c.call('kvCacheBytes', { model: ref, tokens: v.tokens, dtype: kvDtype }, { tokens: 'tokens' }); // its error at its field
    }
    if (sel.kvSource === 'model') {
      c.setField('kv', counted ? counted.bytes : 0);
      c.syncFields();
      v.kv = counted ? counted.bytes : 0;
    }
    // the GPU's roofs and the FLOPs per token: once per selection
    const roofs = c.memo('roofs', JSON.stringify([modelKey(c), c.state.selects.gpu]), () => decodeRoofs(c));
    const map = { weightBytes: 'weights', kvBytesPerSequence: 'kv', batch: 'batch', bytesPerSecond: 'bw', gpus: 'gpus' };
    const args = (batch) => ({ weightBytes: v.weights, kvBytesPerSequence: v.kv, batch, bytesPerSecond: v.bw, gpus: v.gpus, ...roofs.args, ...readArgs(c, batch), ...linkArgs(c, roofs) });
    // counted from the model, a KV cache the tokens cannot give leaves no result, not one without it
    const r = sel.kvSource === 'model' && kvFailed ? null : c.call('decode', args(v.batch), map);
    const gb = (x) => c.fmt(x, 'gb');
    // an MoE reads only the experts its batch touches: the weights read per step, beside those held
    const readsLess = r && r.bytesReadPerStep < r.weightBytes;
    const weightsHow = readsLess ? c.t('decode.how.weightsRead', { read: gb(r.bytesReadPerStep), held: c.n('weights', 'gb') }) : c.n('weights', 'gb');
    let bytesHow = r && c.t('decode.how.bytesPerStep', { weights: weightsHow, batch: c.n('batch'), kv: c.n('kv', 'gb'), gpus: c.n('gpus') });
    const lessonRef = modelRef(c);
    if (r && typeof lessonRef === 'string' && model(rl, lessonRef).lesson && model(rl, lessonRef).architecture && sel.format !== 'custom') {
      // the lesson's rule reads every weight; its config.json tells what a step really reads
      // (an MoE reads more experts as the batch grows; a dense model the same at any batch)
      const moe = Boolean(model(rl, lessonRef).architecture.moe);
      const w = c.memo('counted', JSON.stringify([modelKey(c), moe ? v.batch : 0]), () => rl.modelWeights({ model: lessonRef, format: sel.format, batch: v.batch }));
      bytesHow += ` · ${c.t('decode.how.counted', { read: c.fmt(w.bytesReadPerStepCounted, 'gb2'), held: c.fmt(w.residentBytes, 'gb2') })}`;
    }
    c.row('bytesPerStep', bytesHow, r && r.bytesPerStep, 'gb');
    c.row('memoryTime', r && `${gb(r.bytesPerStep)} ÷ ${c.n('bw', 'gbps')}`, r && r.memorySeconds, 'seconds');
    if (r && r.computeSeconds !== null) {
      c.row('computeTime', c.t('decode.how.compute', {
        batch: c.n('batch'), flops: c.fmt(roofs.args.flopsPerToken, 'flops'), gpus: c.n('gpus'),
        peak: c.fmt(roofs.args.peakFlopsPerSecond, 'tflops'), gpu: roofs.gpuName, dtype: roofs.dtypeName,
      }), r.computeSeconds, 'seconds');
    } else {
      c.row('computeTime', null, null);
      if (r && roofs.why) setText(c.rowEls.computeTime.how, roofs.why);
    }
    communicationRow(c, r, roofs);
    const stepHow = r && c.t(`decode.how.step.${r.bound}`) + (r.communicationSeconds > 0 ? ` ${c.t('decode.how.step.plusLink')}` : '');
    c.row('stepTime', stepHow, r && `${c.fmt(r.stepSeconds, 'seconds')} · ${c.t(`verdict.${r.bound}`)}`);
    c.row('perConversation', r && c.t('decode.how.perConversation', { time: c.fmt(r.stepSeconds, 'seconds') }), r && r.tokensPerSecondPerSequence, 'number');
    c.row('total', r && c.t('decode.how.total', { batch: c.n('batch'), time: c.fmt(r.stepSeconds, 'seconds') }), r && r.tokensPerSecond, 'number');
    // a published run of the same model, format and device at this batch, beside the ceiling
    const ref0 = modelRef(c);
    if (r) {
      measuredRow(c, 'measured', typeof ref0 === 'string' && sel.format !== 'custom' && sel.gpu !== 'custom'
        ? { model: ref0, format: sel.format, gpu: sel.gpu, batch: v.batch, gpus: v.gpus } : null);
    } else {
      c.row('measured', null, null);
    }
    // what each card holds: tensor parallelism splits weights and caches, the memory is not pooled
    c.row('resident', r && c.t('decode.how.resident', { weights: c.n('weights', 'gb'), batch: c.n('batch'), kv: c.n('kv', 'gb'), gpus: c.n('gpus') }), r && r.residentBytesPerGpu, 'gb');
    if (r && r.fits !== null) {
      const memory = c.t('decode.how.capacity', { gpus: c.n('gpus'), memory: c.fmt(roofs.args.memoryBytesPerGpu, 'gb'), gpu: roofs.gpuName });
      const verdict = r.fits ? c.t('decode.capacity.fits') : c.t('decode.capacity.full');
      // not even a batch of 1 (or no KV cache at all): the weights alone overflow the memory
      const most = weightsOnly(r) ? ` · ${c.t('decode.capacity.weightsOnly')}`
        : r.maxBatch === null ? '' : ` · ${c.t('decode.capacity.maxBatch', { batch: c.fmt(r.maxBatch, 'integer') })}`;
      c.row('capacity', memory, `${verdict}${most}`);
    } else {
      c.row('capacity', null, null);
      if (r) setText(c.rowEls.capacity.how, c.t('decode.capacity.unknown'));
    }
    c.row('kvModel', counted && counted.how, counted && counted.bytes, 'gb');
    // what a million tokens cost at this rate, from the GPU's price per hour (where a source gives one)
    const price = v.price;
    // 0 means no price; any other value, typed or not, is checked by the core
    const cost = r && price !== 0 ? c.call('costPerMillionTokens', { pricePerHourUsd: price, tokensPerSecond: r.tokensPerSecond, gpus: v.gpus }, { pricePerHourUsd: 'price' }) : null;
    c.parts.costShown = Boolean(cost);
    c.parts.cost = cost;
    c.row('cost', cost && c.t('decode.how.cost', { price: c.fmt(price, 'usd'), gpus: c.n('gpus'), total: c.fmt(r.tokensPerSecond, 'number') }), cost && cost.usdPerMillionTokens, 'usd');
    if (!cost && r) setText(c.rowEls.cost.how, c.t('decode.cost.unknown'));
    c.later(() => drawBatchCurve(c, r, args));
    let summary = c.t('calc.summary.invalid');
    if (r) {
      summary = c.t(`decode.summary.${r.bound}`, { total: c.fmt(r.tokensPerSecond, 'number'), each: c.fmt(r.tokensPerSecondPerSequence, 'number'), time: c.fmt(r.stepSeconds, 'seconds') });
      summary += `${fitNote(c, r)} ${kvNote(c, counted, args)}`;
    }
    c.summary(summary);
  },
};

/**
 * What the result counts of the KV cache, said in the summary's sentence: counted from the model
 * (how much, at how many tokens); or left out, with what the result would be counting it (the
 * lesson's first example leaves it out); or unknown for this model.
 */
function kvNote(c, counted, args) {
  const sel = c.state.selects;
  const kvGb = (x) => c.fmt(x, 'gb');
  if (sel.kvSource === 'model') {
    return counted
      ? c.t('decode.kv.counted', { kv: kvGb(counted.bytes), tokens: c.n('tokens') })
      : c.t('decode.kv.unknown');
  }
  if (!(c.v.kv > 0)) {
    if (!counted) return c.t('decode.kv.leftOutUnknown');
    // what it would be with the model's own KV cache per conversation
    let would = null;
    try {
      would = c.rl.decode({ ...args(c.v.batch), kvBytesPerSequence: counted.bytes });
    } catch (e) {
      if (!e || !e.code) throw e;
    }
    if (!would) return c.t('decode.kv.leftOutUnknown');
    return c.t('decode.kv.leftOut', { kv: kvGb(counted.bytes), tokens: c.n('tokens'), total: c.fmt(would.tokensPerSecond, 'number') }) + fitNote(c, would);
  }
  return c.t('decode.kv.typed', { kv: kvGb(c.v.kv) });
}

/**
 * Under tensor parallelism, the model and the chosen GPU's link, for decode to count the
 * all-reduces (two a layer): only where both are known (a model with an architecture, a catalog
 * GPU with a link); otherwise none, and the row says what is not counted.
 */
function linkArgs(c, roofs) {
  if (!(c.v.gpus > 1) || !roofs.link || !roofs.tpModel) return {};
  const sel = c.state.selects;
  return { model: roofs.tpModel, link: roofs.link.id, ...(sel.format === 'custom' ? {} : { format: sel.format }) };
}

/**
 * The communication floor beside the memory and compute floors: the all-reduces on the link,
 * named, on more than one GPU; "none" on one; "not counted" where the link or the model's
 * shape is unknown.
 */
function communicationRow(c, r, roofs) {
  const el = c.rowEls.communication;
  if (!r) {
    c.row('communication', null, null);
    return;
  }
  if (r.communicationSeconds === 0) {
    c.row('communication', c.t('decode.how.link.one'), 0, 'seconds');
    return;
  }
  if (r.communicationSeconds === null) {
    c.row('communication', null, null);
    setText(el.how, roofs.link ? c.t('decode.how.link.noModel') : c.t('decode.how.link.none', { gpu: roofs.gpuName || c.t('decode.how.link.thisGpu') }));
    return;
  }
  const layers = roofs.tpLayers;
  const each = r.communicationSeconds / (2 * layers);
  const floors = [['memory', r.memorySeconds], ['compute', r.computeSeconds ?? 0], ['link', r.communicationSeconds]];
  const top = floors.reduce((a, b) => (b[1] > a[1] ? b : a))[0];
  c.row('communication', c.t('decode.how.link', {
    count: c.fmt(2 * layers, 'integer'), layers: c.fmt(layers, 'integer'), link: roofs.linkName,
    bw: c.fmt(roofs.link.bytesPerSecond, 'gbps'), latency: c.fmt(roofs.link.latencySeconds, 'seconds'), each: c.fmt(each, 'seconds'),
  }), `${c.fmt(r.communicationSeconds, 'seconds')} · ${c.t(`decode.link.largest.${top}`)}`);
}

/**
 * The compute roof and the capacity of the chosen GPU for the chosen format, through the core:
 * { args: {flopsPerToken, peakFlopsPerSecond, memoryBytesPerGpu} (or {} where unknown), gpuName,
 *   dtypeName, why: the reason a roof is missing, in the reader's language }.
 */
function decodeRoofs(c) {
  const { rl } = c;
  const sel = c.state.selects;
  const out = { args: {}, gpuName: '', dtypeName: '', why: null };
  if (sel.gpu === 'custom') {
    out.why = c.t('decode.roof.customGpu');
    return out;
  }
  out.gpuName = catalogName('gpu', sel.gpu, c.lang);
  // its link to the other GPUs of a server, and the model whose layers the all-reduces follow
  out.link = gpuLink(rl, sel.gpu);
  out.linkName = out.link ? catalogName('link', out.link.id, c.lang) : '';
  // what the GPU may use of it (unified memory: a share of the machine's)
  out.args.memoryBytesPerGpu = gpu(rl, sel.gpu).usableMemoryBytes;
  const ref = modelRef(c);
  if (!ref) {
    out.why = c.t('decode.roof.customModel');
    return out;
  }
  const arch = typeof ref === 'string' ? model(rl, ref).architecture : ref.architecture;
  if (arch) {
    out.tpModel = ref;
    out.tpLayers = arch.layers;
  }
  // typed weights (format "custom") keep the arithmetic of the model's own format
  const own = typeof ref === 'string' ? model(rl, ref).format : ref.format;
  const dtype = format(rl, sel.format === 'custom' ? own : sel.format).computeDtype;
  out.dtypeName = dtype.toUpperCase();
  const dev = deviceOrNull(rl, sel.gpu, dtype);
  if (!dev) {
    out.why = c.t('decode.roof.noPeak', { gpu: out.gpuName, dtype: out.dtypeName });
    return out;
  }
  // 2 FLOPs per parameter a token multiplies: all of them under the lesson's rule, an MoE's active ones
  const m = typeof ref === 'string' ? model(rl, ref) : ref;
  out.args.flopsPerToken = rl.flopsPerToken({ params: !m.lesson && m.activeParams ? m.activeParams : m.params }).flops;
  out.args.peakFlopsPerSecond = dev.peakFlopsPerSecond;
  return out;
}

/**
 * Cost per million tokens over the batch, beside each conversation's own speed: a larger batch
 * spreads a GPU-hour over many more tokens while each conversation barely slows, so serving
 * economics and chat latency are different problems. Drawn where the GPU has a price per hour.
 */
function drawCostCurve(c, pts, r) {
  const box = c.parts.costBox;
  if (!box) return;
  const price = c.v.price;
  // drawn only where the row could give a cost (a price the core took)
  if (!c.parts.costShown) {
    clear(box);
    return;
  }
  const gpus = c.v.gpus;
  // the curve does not depend on the batch marked on it: once per curve, price and GPUs
  const costs = c.memo('costs', JSON.stringify([price, gpus, pts.map(([, d]) => d.tokensPerSecond)]),
    () => pts.map(([b, d]) => [b, d, c.rl.costPerMillionTokens({ pricePerHourUsd: price, tokensPerSecond: d.tokensPerSecond, gpus }).usdPerMillionTokens]));
  const first = costs[0];
  const last = costs[costs.length - 1];
  const values = costs.map(([, , x]) => x);
  const lo = 10 ** Math.floor(Math.log10(Math.min(...values)));
  const hi = 10 ** Math.ceil(Math.log10(Math.max(...values)));
  const usd = (x) => c.fmt(x, 'usd');
  const desc = c.t('chart.cost.desc', {
    first: usd(first[2]), last: usd(last[2]), batch: c.fmt(last[0], 'integer'),
    eachFirst: c.fmt(first[1].tokensPerSecondPerSequence, 'number'), eachLast: c.fmt(last[1].tokensPerSecondPerSequence, 'number'),
  });
  const f = frameIn(box, {
    title: c.t('chart.cost.title', { price: usd(price) }), desc,
    x: [1, last[0]], y: [lo, hi === lo ? lo * 10 : hi],
    xLabel: c.t('chart.decode.x'), yLabel: c.t('chart.cost.y'),
    xFormat: fmtTick('integer', c.lang), yFormat: fmtTick('number', c.lang), lang: c.lang, compact: c.compact,
  });
  f.plot.append(polyline(costs.map(([b, , x]) => [f.X(b), f.Y(x)]), 'curve'));
  f.plot.append(s('text', { class: 'line-label', x: f.X(last[0]) - 4, y: f.Y(last[2]) - 8, 'text-anchor': 'end' }, c.t('chart.cost.line')));
  const batch = c.v.batch;
  if (batch >= 1 && batch <= last[0]) {
    // the cost row's own number
    const mine = c.parts.cost.usdPerMillionTokens;
    f.plot.append(marker(f.X(batch), f.Y(mine), c.t('chart.point.you'), 'you', 'above'));
  }
  const tableKey = JSON.stringify([c.lang, values, price]);
  showChart(box, f, keyed(tableKey, () => dataTable(c.t('chart.cost.tableCaption'), c.t('chart.data'),
    [c.t('chart.col.batch'), c.t('decode.out.cost'), c.t('chart.decode.each')],
    costs.map(([b, d, x]) => [c.fmt(b, 'integer'), usd(x), c.fmt(d.tokensPerSecondPerSequence, 'number')]))));
}

/**
 * The weights one step of `batch` reads, where the chosen model reads fewer than it holds (an
 * MoE's untouched experts): {bytesReadPerStep} from the core, or {} (every weight is read).
 */
function readArgs(c, batch) {
  const sel = c.state.selects;
  const ref = modelRef(c);
  // a batch that is no count is for decode to name (and 0 only keys the chart's memo)
  if (!ref || sel.format === 'custom' || !(Number.isSafeInteger(batch) && batch >= 1)) return {};
  if (typeof ref === 'string' && (model(c.rl, ref).lesson || !model(c.rl, ref).architecture)) return {};
  // typed weights make the format "custom": here they are the model's own, in its format
  return { bytesReadPerStep: c.rl.modelWeights({ model: ref, format: sel.format, batch }).bytesReadPerStep };
}

/** Tokens per second in total and per conversation as the batch grows: both roofs and the VRAM wall. */
function drawBatchCurve(c, r, args) {
  const box = c.parts.chartBox;
  if (!r) {
    emptyChart(c, box);
    if (c.parts.costBox) clear(c.parts.costBox);
    return;
  }
  const { rl, v } = c;
  // the curves depend on every input but the batch, which is only marked on them
  const { pts, tableKey } = c.memo('curves', JSON.stringify([c.lang, args(0)]), () => {
    const p = CHART_BATCHES.map((b) => [b, rl.decode(args(b))]);
    return { pts: p, tableKey: JSON.stringify([c.lang, p]) };
  });
  drawCostCurve(c, pts, r);
  const last = pts[pts.length - 1];
  const xMax = last[0];
  const values = pts.flatMap(([, d]) => [d.tokensPerSecond, d.tokensPerSecondPerSequence]).concat([r.tokensPerSecond]);
  const lo = 10 ** Math.floor(Math.log10(Math.min(...values)));
  const hi = 10 ** Math.ceil(Math.log10(Math.max(...values)));
  const wall = r.maxBatch !== null && r.maxBatch >= 1 && r.maxBatch < xMax ? r.maxBatch : null;
  const descVars = { total: c.fmt(last[1].tokensPerSecond, 'number'), each: c.fmt(last[1].tokensPerSecondPerSequence, 'number'), batch: c.fmt(xMax, 'integer') };
  let desc = c.t('chart.decode.desc', descVars);
  const bend = pts.find(([, d]) => d.bound === 'compute');
  if (bend) desc += ` ${c.t('chart.decode.descCompute', { batch: c.fmt(bend[0], 'integer') })}`;
  if (wall !== null) desc += ` ${c.t('chart.decode.descWall', { batch: c.fmt(wall, 'integer') })}`;
  if (pts[0][1].bytesReadPerStep < pts[0][1].weightBytes && last[1].bytesReadPerStep > pts[0][1].bytesReadPerStep) {
    // an MoE: the more tokens a step carries, the more of its experts it reads
    desc += ` ${c.t('chart.decode.descExperts', { first: c.fmt(pts[0][1].bytesReadPerStep, 'gb'), last: c.fmt(last[1].bytesReadPerStep, 'gb'), batch: c.fmt(xMax, 'integer'), held: c.fmt(last[1].weightBytes, 'gb') })}`;
  }
  const f = frameIn(box, {
    title: c.t('chart.decode.title'), desc,
    x: [1, xMax], y: [lo, hi === lo ? lo * 10 : hi],
    xLabel: c.t('chart.decode.x'), yLabel: c.t('chart.decode.y'),
    xFormat: fmtTick('integer', c.lang), yFormat: fmtTick('number', c.lang), lang: c.lang, compact: c.compact,
  });
  f.plot.append(polyline(pts.map(([b, d]) => [f.X(b), f.Y(d.tokensPerSecond)]), 'curve'));
  f.plot.append(polyline(pts.map(([b, d]) => [f.X(b), f.Y(d.tokensPerSecondPerSequence)]), 'curve second'));
  // the lines' names at their right ends, and the wall's, each where it meets no other text
  // (a phone's narrow drawing put "per conversation" on the wall's name)
  const taken = [];
  const plotBox = { x0: f.X(1), x1: f.X(xMax), y0: f.Y(f.Y.max), y1: f.Y(f.Y.min) };
  const label = (text, cls, candidates, em) => {
    const at = placeText(text, candidates, taken, plotBox, em);
    taken.push(at.box);
    f.plot.append(s('text', { class: cls, x: at.x, y: at.y, 'text-anchor': at.anchor }, text));
  };
  const right = f.X(xMax) - 4;
  const yTotal = f.Y(last[1].tokensPerSecond);
  const yEach = f.Y(last[1].tokensPerSecondPerSequence);
  label(c.t('chart.decode.total'), 'line-label', [{ x: right, y: yTotal - 8, anchor: 'end' }, { x: right, y: yTotal + 18, anchor: 'end' }], 13);
  label(c.t('chart.decode.each'), 'line-label second', [{ x: right, y: yEach + 18, anchor: 'end' }, { x: right, y: yEach - 8, anchor: 'end' }], 13);
  if (wall !== null) {
    // past this batch the KV caches no longer fit: shade the region and name the wall
    const x = f.X(wall);
    f.plot.append(s('rect', { class: 'vram-full', x, y: f.Y(f.Y.max), width: f.X(xMax) - x, height: f.Y(f.Y.min) - f.Y(f.Y.max) }));
    f.plot.append(s('line', { class: 'ridge', x1: x, x2: x, y1: f.Y(f.Y.max), y2: f.Y(f.Y.min) }));
    const text = c.t('chart.decode.wall', { batch: c.fmt(wall, 'integer') });
    // right of the wall where it fits the drawing, else left of it
    const side = textBox(x + 6, 0, text, 'start', 12).x1 <= f.X(xMax) - 2 ? { x: x + 6, anchor: 'start' } : { x: x - 6, anchor: 'end' };
    const ys = [f.Y(f.Y.min) - 8, f.Y(f.Y.max) + 16, (f.Y(f.Y.min) + f.Y(f.Y.max)) / 2];
    label(text, 'ridge-label', ys.map((y) => ({ ...side, y })), 12);
  }
  if (v.batch >= 1 && v.batch <= xMax) f.plot.append(marker(f.X(v.batch), f.Y(r.tokensPerSecond), c.t('chart.point.you'), 'you', 'above'));
  // the table lists the curve's points, whatever batch is marked on it
  showChart(box, f, keyed(tableKey, () => dataTable(c.t('chart.decode.tableCaption'), c.t('chart.data'),
    [c.t('chart.col.batch'), c.t('chart.decode.total'), c.t('chart.decode.each'), c.t('decode.out.bytesPerStep'), c.t('decode.out.stepTime'), c.t('chart.col.bound'), c.t('decode.out.capacity')],
    pts.map(([b, d]) => [c.fmt(b, 'integer'), c.fmt(d.tokensPerSecond, 'number'), c.fmt(d.tokensPerSecondPerSequence, 'number'), c.fmt(d.bytesPerStep, 'gb'), c.fmt(d.stepSeconds, 'seconds'),
      c.t(`verdict.${d.bound}`), d.fits === null ? '—' : c.t(d.fits ? 'decode.capacity.fits' : 'decode.capacity.full')]))));
}
