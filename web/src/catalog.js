// The core's catalog as the page uses it: lists read once per module instance, and every lookup
// by exact id. An unknown id is an error from the module, never a silent fallback to another entry.
import { catalogName } from './i18n.js';

const cache = new WeakMap();

/** The lesson's first worked example, Llama 3 8B decoding on an L4 (its core case): where the
 *  decode, step and quant calculators, the device panel, the tables and the diagrams' tours start. */
export const DECODE_CASE = 'llama-l4-decode';

export function catalog(rl) {
  let c = cache.get(rl);
  if (!c) {
    c = { gpus: rl.gpus(), links: rl.links(), models: rl.models(), dtypes: rl.dtypes(), formats: rl.formats(), cases: new Map(), args: new Map() };
    cache.set(rl, c);
  }
  return c;
}

function byId(list, id, what) {
  const x = list.find((e) => e.id === id);
  if (!x) throw new Error(`no ${what} with id ${id}`);
  return x;
}

export function gpu(rl, id) {
  return byId(catalog(rl).gpus, id, 'GPU');
}

/** The GPU's link to the others of its server (rl.links(): NVLink, PCIe), or null where the catalog gives none. */
export function gpuLink(rl, id) {
  const own = gpu(rl, id).link;
  return own ? byId(catalog(rl).links, own, 'link') : null;
}

/** The GPU's roofs at a precision (rl.device), or null where it has no peak for that precision. */
export function deviceOrNull(rl, gpuId, dtype) {
  try {
    return rl.device({ gpu: gpuId, dtype });
  } catch (e) {
    if (e && e.code === 'unsupported_dtype') return null;
    throw e;
  }
}

export function model(rl, id) {
  return byId(catalog(rl).models, id, 'model');
}

export function format(rl, id) {
  return byId(catalog(rl).formats, id, 'weight format');
}

/** A lesson case's values (numbers and ids), from the core. */
export function caseValues(rl, id) {
  const c = catalog(rl);
  if (!c.cases.has(id)) c.cases.set(id, rl.lessonCase({ id }).values);
  return c.cases.get(id);
}

/**
 * The arguments of API function `fn` that lesson case `id` gives, varied by `values`. A case's
 * own arguments never change: they are asked once per module and shared (frozen).
 */
export function caseArgs(rl, id, fn, values) {
  if (values) return rl.caseArgs({ id, function: fn, values });
  const cache = catalog(rl).args;
  const key = `${id} ${fn}`;
  if (!cache.has(key)) cache.set(key, Object.freeze(rl.caseArgs({ id, function: fn })));
  return cache.get(key);
}

/** Models that generate text token by token. */
export function llms(rl) {
  return catalog(rl).models.filter((m) => m.kind === 'llm');
}

/** Devices for a select, grouped: the lesson's GPUs, then one group per kind of device. */
export function gpuOptions(rl, lang) {
  return catalog(rl).gpus.map((g) => ({ value: g.id, label: catalogName('gpu', g.id, lang), group: g.lesson ? 'lesson' : g.kind }));
}

/** Language models for a select: the lesson's first, then the catalog's. */
export function llmOptions(rl, lang) {
  return llms(rl).map((m) => ({ value: m.id, label: catalogName('model', m.id, lang), group: m.lesson ? 'lesson' : 'catalog' }));
}

export function formatOptions(rl, lang) {
  return catalog(rl).formats.map((f) => ({ value: f.id, label: catalogName('format', f.id, lang) }));
}

export const PRECISION_ORDER = ['fp32', 'tf32', 'fp16', 'bf16', 'fp8', 'int8', 'int4'];

/** The precisions a GPU has a dense peak for, in a fixed order. */
export function precisions(rl, id) {
  const g = gpu(rl, id);
  return PRECISION_ORDER.filter((p) => typeof g.peakFlopsPerSecond[p] === 'number');
}

export function dtypeName(rl, id) {
  return byId(catalog(rl).dtypes, id, 'dtype').name;
}

/** Integer precisions are rated in TOPS (operations), floating ones in TFLOPS: the core says which. */
export function isIntegerDtype(rl, id) {
  const d = catalog(rl).dtypes.find((x) => x.id === id);
  return Boolean(d && d.integer);
}
