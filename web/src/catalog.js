// Reading the module's catalogs (GPUs, models, dtypes) once per module instance.
const cache = new WeakMap();

export function catalog(rl) {
  let c = cache.get(rl);
  if (!c) {
    c = { gpus: rl.gpus(), models: rl.models(), dtypes: rl.dtypes() };
    cache.set(rl, c);
  }
  return c;
}

function norm(x) {
  return String(x).toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** The catalog id that best matches a short name ('t4', 'h100'): exact id, then prefix, then name. */
export function gpuId(rl, want) {
  const gs = catalog(rl).gpus;
  const w = norm(want);
  const g = gs.find((x) => norm(x.id) === w) || gs.find((x) => norm(x.id).startsWith(w)) || gs.find((x) => norm(x.name).includes(w));
  return g ? g.id : (gs[0] && gs[0].id);
}

export function gpu(rl, id) {
  return catalog(rl).gpus.find((g) => g.id === id);
}

export function modelId(rl, want) {
  const ms = catalog(rl).models;
  const w = norm(want);
  const m = ms.find((x) => norm(x.id) === w) || ms.find((x) => norm(x.id).startsWith(w)) || ms.find((x) => norm(x.name).includes(w));
  return m ? m.id : (ms[0] && ms[0].id);
}

export function model(rl, id) {
  return catalog(rl).models.find((m) => m.id === id);
}

/** Models that generate text token by token. */
export function llms(rl) {
  return catalog(rl).models.filter((m) => m.kind === 'llm');
}

export function gpuOptions(rl) {
  return catalog(rl).gpus.map((g) => ({ value: g.id, label: g.name }));
}

export const PRECISION_ORDER = ['fp32', 'tf32', 'fp16', 'bf16', 'fp8', 'int8', 'int4'];

export function precisions(rl, id) {
  const g = gpu(rl, id);
  if (!g) return [];
  return PRECISION_ORDER.filter((p) => typeof g.peakFlopsPerSecond[p] === 'number');
}

export function dtypeName(rl, id) {
  const d = catalog(rl).dtypes.find((x) => x.id === id);
  return d ? d.name : id.toUpperCase();
}
