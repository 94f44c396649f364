// The lesson's reference tables, each beside the calculator or diagram it belongs to: four GPUs
// and their ridge points, the output of the lesson's roofline listing, the intensity of four
// products, and ResNet-50's uses per weight. Every figure comes from the module, called with
// catalog ids and the arguments of lesson cases (rl.caseArgs); this file only picks the rows
// and formats the numbers in the reader's language. Each table has a caption, column headers and
// row headers, and sits in a focusable region that scrolls when the page is narrow.
import { h } from './dom.js';
import { t, catalogName, catalogSource } from './i18n.js';
import { format, fmtNumber, fmtFixed, fmtInteger } from './format.js';
import { fromBase } from './units.js';
import { scrollBox } from './charts.js';
import { caseArgs, caseValues, dtypeName, precisions, catalog, DECODE_CASE } from './catalog.js';

/** The lesson's four GPUs, compared in FP16. */
const GPUS = ['t4', 'l4', 'a100-80gb', 'h100-sxm'];
const GPU_DTYPE = 'fp16';
/** Its decode ceiling: one conversation of the model that this case decodes (Llama 3 8B, BF16). */

const PREFILL_CASE = 'llama-l4-prefill';
/** The rows of the lesson's Python listing, in its order: matmul cases, a token, a prompt. */
export const LISTING = [
  { case: 'matmul-4096', kind: 'matmul' },
  { case: 'matvec-4096', kind: 'matmul' },
  { case: 'c01-last-layer', kind: 'matmul' },
  { case: DECODE_CASE, kind: 'token' },
  { case: PREFILL_CASE, kind: 'prefill' },
];
/** The intensity table's products, smallest reuse first: lesson cases of the core's catalog. */
const PRODUCTS = [
  { case: 'dot-4096' },
  { case: 'matvec-4096' },
  { case: 'matmul-1024' },
  { case: 'matmul-4096' },
];
/** ResNet-50's parts as the lesson tabulates them, and the GPU whose ridge they are read against. */
const CNN = 'resnet50';
const CNN_STAGES = ['stage1', 'stage3', 'stage4', 'fc'];
const CNN_GPU = 't4';

/**
 * A table in its scrolling region: caption, a header row of column headers, and rows whose first
 * cell is the row header. `cols` are the column ids (data-col on each cell, for tests and
 * styles), `rows` are { id, cells }.
 */
function lessonTable({ id, caption, headers, cols, rows, note }) {
  const table = h('table', { class: 'lesson-table', 'data-table': id },
    h('caption', {}, caption),
    h('thead', {}, h('tr', {}, headers.map((x, i) => h('th', { scope: 'col', 'data-col': cols[i] }, x)))),
    h('tbody', {}, rows.map((r) => h('tr', { 'data-row': r.id }, r.cells.map((c, i) => (i === 0
      ? h('th', { scope: 'row', 'data-col': cols[i] }, c)
      : h('td', { 'data-col': cols[i] }, c)))))));
  return h('div', { class: 'lesson-table-box', id: `table-${id}` },
    scrollBox(table, caption),
    note ? h('p', { class: 'hint table-note' }, note) : null);
}

/** Builds a table, or logs why it could not: one table never takes the page down with it. */
function guarded(build) {
  return (rl, lang) => {
    try {
      return build(rl, lang);
    } catch (e) {
      console.error(e);
      return null;
    }
  };
}

const ms = (seconds, lang) => fmtFixed(seconds * 1e3, lang, 4); // display in ms, as the listing prints
const boundText = (bound, lang) => t(`tables.bound.${bound}`, lang);

/** The GPUs of the lesson's table, in its order (the A100 in both memory sizes). */
const LESSON_GPUS = ['t4', 'l4', 'a100-40gb', 'a100-80gb', 'h100-sxm'];
/** Its columns of peaks: the precision and the unit it is read in (integer rates are TOPS). */
const LESSON_PEAKS = [['fp16', 'tflops'], ['fp8', 'tflops'], ['int8', 'tops']];

/**
 * The lesson's GPU table as the lesson has it: year, memory, dense FP16, FP8 and INT8 peaks,
 * bandwidth and price per GPU-hour, every figure from the catalog; a precision a GPU lacks says so.
 */
export const lessonGpuTable = guarded((rl, lang) => {
  const rows = LESSON_GPUS.map((id) => {
    const g = rl.gpu({ id });
    const peak = ([dtype, unit]) => (typeof g.peakFlopsPerSecond[dtype] === 'number'
      ? format(g.peakFlopsPerSecond[dtype], unit, lang) : t('tables.lessonGpus.none', lang));
    return {
      id,
      cells: [
        catalogName('gpu', id, lang),
        String(g.year),
        format(g.memoryBytes, 'gb', lang),
        ...LESSON_PEAKS.map(peak),
        format(g.bytesPerSecond, 'gbps', lang),
        g.pricePerHourUsd === undefined ? '—' : t('tables.lessonGpus.price', lang, { usd: fmtFixed(g.pricePerHourUsd, lang, 2) }),
      ],
    };
  });
  const cols = ['gpu', 'year', 'memory', 'fp16', 'fp8', 'int8', 'bandwidth', 'price'];
  const box = lessonTable({
    id: 'lessonGpus',
    caption: t('tables.lessonGpus.caption', lang),
    cols,
    headers: cols.map((c) => t(`tables.lessonGpus.col.${c}`, lang)),
    rows,
    note: t('tables.lessonGpus.note', lang),
  });
  // where each GPU's figures come from (the lesson's table, NVIDIA's datasheets, AWS's prices)
  box.append(h('details', { class: 'worked-source' }, h('summary', {}, t('worked.source', lang)),
    h('ul', {}, LESSON_GPUS.map((id) => h('li', {}, h('strong', {}, catalogName('gpu', id, lang)), ': ', catalogSource('gpu', id, lang))))));
  return box;
});

/** The decimal prefixes, each with an example from the lesson computed by the module. */
export const prefixTable = guarded((rl, lang) => {
  const c01 = rl.matmul(caseArgs(rl, 'c01-last-layer', 'matmul'));
  const photo = rl.model({ id: CNN }).workingFlopsPerExample;
  const t4 = rl.device({ gpu: CNN_GPU, dtype: 'fp16' }).peakFlopsPerSecond;
  const day = rl.totalWork(caseArgs(rl, 'c01-day', 'totalWork')).flops;
  const examples = [['M', format(c01.flops, 'flops', lang)], ['G', format(photo, 'flops', lang)],
    ['T', format(t4, 'flopsPerSecond', lang)], ['P', format(day, 'flops', lang)]];
  const rows = examples.map(([p, value]) => ({
    id: p,
    cells: [t(`tables.prefixes.${p}.name`, lang), t(`tables.prefixes.${p}.value`, lang), t(`tables.prefixes.${p}.example`, lang, { value })],
  }));
  const cols = ['prefix', 'value', 'example'];
  return lessonTable({
    id: 'prefixes',
    caption: t('tables.prefixes.caption', lang),
    cols,
    headers: cols.map((c) => t(`tables.prefixes.col.${c}`, lang)),
    rows,
  });
});

/** The lesson's four GPUs in FP16: peak, bandwidth, ridge point and the decode ceiling. */
export const gpuTable = guarded((rl, lang) => {
  const cv = caseValues(rl, DECODE_CASE);
  // The ceiling is the memory roof alone (bandwidth ÷ the weights' bytes), as the lesson reads
  // it: no compute roof, since a T4 has no peak in the model's BF16.
  const { flopsPerToken, peakFlopsPerSecond, ...memoryRoof } = caseArgs(rl, DECODE_CASE, 'decode');
  const names = { dtype: dtypeName(rl, GPU_DTYPE), model: catalogName('model', cv.model, lang), format: catalogName('format', cv.format, lang) };
  // the model's arithmetic runs in its format's compute precision: a GPU without it (the T4 has no
  // BF16) gets no ceiling for that format, only a word saying why
  const computeDtype = catalog(rl).formats.find((f) => f.id === cv.format).computeDtype;
  const short = [];
  const lacking = [];
  const rows = GPUS.map((id) => {
    const d = rl.device({ gpu: id, dtype: GPU_DTYPE });
    const has = precisions(rl, id).includes(computeDtype);
    const r = rl.decode({ ...memoryRoof, bytesPerSecond: d.bytesPerSecond, memoryBytesPerGpu: d.memoryBytes });
    const gpu = catalogName('gpu', id, lang);
    if (!has) lacking.push({ gpu, dtype: dtypeName(rl, computeDtype) });
    else if (r.fits === false) short.push({ gpu, vram: format(d.memoryBytes, 'gb', lang) });
    return {
      id,
      cells: [
        gpu,
        fmtNumber(fromBase(d.peakFlopsPerSecond, 'tflops'), lang),
        fmtNumber(fromBase(d.bytesPerSecond, 'gbps'), lang),
        format(d.ridgeFlopsPerByte, 'ridge', lang),
        has ? fmtNumber(r.tokensPerSecond, lang) : t('tables.gpus.noDtype', lang, { dtype: dtypeName(rl, computeDtype) }),
        t(r.fits ? 'tables.yes' : 'tables.no', lang),
      ],
    };
  });
  const weights = format(memoryRoof.weightBytes, 'gb', lang);
  const notes = [t('tables.gpus.note', lang, { ...names, weights })];
  for (const s of short) notes.push(t('tables.gpus.noteShort', lang, { ...s, weights }));
  for (const s of lacking) notes.push(t('tables.gpus.noteNoDtype', lang, { ...names, ...s, weights }));
  return lessonTable({
    id: 'gpus',
    caption: t('tables.gpus.caption', lang, names),
    cols: ['gpu', 'peak', 'bandwidth', 'ridge', 'ceiling', 'fits'],
    headers: ['gpu', 'peak', 'bandwidth', 'ridge', 'ceiling', 'fits'].map((c) => t(`tables.gpus.col.${c}`, lang, names)),
    rows,
    note: notes.join(' '),
  });
});

/** One row of the listing: intensity, the two clocks and which sets the pace, from the module. */
export function listingRow(rl, row) {
  if (row.kind === 'prefill') return rl.prefill(caseArgs(rl, row.case, 'prefill'));
  let work;
  if (row.kind === 'token') {
    // one token reads every weight once and spends its FLOPs per token on them
    const d = caseArgs(rl, row.case, 'decode');
    work = { flops: d.flopsPerToken, bytes: d.weightBytes };
  } else {
    const m = rl.matmul(caseArgs(rl, row.case, 'matmul'));
    work = { flops: m.flops, bytes: m.bytes };
  }
  return rl.clocks({ ...caseArgs(rl, row.case, 'clocks'), ...work });
}

/** The output of the lesson's Python roofline listing: five operations, two clocks each. */
export const listingTable = guarded((rl, lang) => {
  const rows = LISTING.map((row) => {
    const c = listingRow(rl, row);
    return {
      id: row.case,
      cells: [
        catalogName('case', row.case, lang),
        catalogName('gpu', caseValues(rl, row.case).gpu, lang),
        fmtFixed(c.flopsPerByte, lang, 1),
        ms(c.computeSeconds, lang),
        ms(c.memorySeconds, lang),
        boundText(c.bound, lang),
      ],
    };
  });
  const cols = ['operation', 'gpu', 'intensity', 'compute', 'memory', 'bound'];
  return lessonTable({
    id: 'listing',
    caption: t('tables.listing.caption', lang),
    cols,
    headers: cols.map((c) => t(`tables.listing.col.${c}`, lang)),
    rows,
    note: t('tables.listing.note', lang),
  });
});

/** FLOPs, bytes and intensity of four products in FP16: from a dot product to two big matrices. */
export const intensityTable = guarded((rl, lang) => {
  const rows = PRODUCTS.map((p) => {
    const m = rl.matmul(caseArgs(rl, p.case, 'matmul'));
    const name = catalogName('case', p.case, lang);
    return {
      id: p.case,
      cells: [name, fmtNumber(m.flopsPerByte, lang), format(m.flops, 'flops', lang), format(m.bytes, 'bytes', lang)],
    };
  });
  const dtype = dtypeName(rl, caseValues(rl, PRODUCTS[0].case).dtype);
  const cols = ['operation', 'intensity', 'flops', 'bytes'];
  return lessonTable({
    id: 'intensity',
    caption: t('tables.intensity.caption', lang, { dtype }),
    cols,
    headers: cols.map((c) => t(`tables.intensity.col.${c}`, lang, { dtype })),
    rows,
    note: t('tables.intensity.note', lang),
  });
});

/**
 * A count written as the lesson's table writes it: hundreds of millions and more as whole
 * millions, a figure of 3 significant digits or fewer in millions with those digits, and an exact
 * count with more digits (the final layer's weights) in full.
 */
function lessonCount(x, lang) {
  if (Math.abs(x) >= 1e8) return `${fmtInteger(x / 1e6, lang)}\u00a0M`;
  if (x === Number(x.toPrecision(3))) return `${fmtNumber(x / 1e6, lang)}\u00a0M`;
  return fmtInteger(x, lang);
}

/** ResNet-50 at batch 1: how many times each stage uses each of its weights per photo. */
export const usesPerWeightTable = guarded((rl, lang) => {
  const model = rl.model({ id: CNN });
  const ridge = rl.device({ gpu: CNN_GPU, dtype: model.dtype }).ridgeFlopsPerByte;
  const rows = CNN_STAGES.map((id) => {
    const s = model.stages.find((x) => x.id === id);
    if (!s) throw new Error(`${CNN} has no stage ${id}`);
    return {
      id,
      cells: [
        catalogName('stage', `${CNN}.${id}`, lang),
        lessonCount(s.macs, lang),
        lessonCount(s.weights, lang),
        fmtInteger(s.usesPerWeight, lang),
      ],
    };
  });
  const vars = {
    model: catalogName('model', CNN, lang),
    dtype: dtypeName(rl, model.dtype),
    gpu: catalogName('gpu', CNN_GPU, lang),
    ridge: format(ridge, 'ridge', lang),
  };
  const cols = ['stage', 'macs', 'weights', 'uses'];
  return lessonTable({
    id: 'uses',
    caption: t('tables.uses.caption', lang, vars),
    cols,
    headers: cols.map((c) => t(`tables.uses.col.${c}`, lang, vars)),
    rows,
    note: t('tables.uses.note', lang, vars),
  });
});
