// Published measurements beside the lesson's ceiling (rl.measurements, core/catalog/measurements/):
// the run of the chosen model, weight format and device at the chosen batch and device count,
// with the share of its ceiling it reached and where it is published; where the catalog has none,
// the range the catalog's runs reach.
import { catalogSource } from './i18n.js';

const cache = new WeakMap();

/** The catalog's measurements, read once per module. */
export function measurements(rl) {
  if (!cache.has(rl)) cache.set(rl, Object.freeze(rl.measurements()));
  return cache.get(rl);
}

/** The measurement of exactly this run, or null. */
export function measuredFor(rl, { model, format, gpu, batch, gpus = 1 }) {
  return measurements(rl).find((m) => m.model === model && m.format === format && m.gpu === gpu && m.batch === batch && m.gpus === gpus) || null;
}

/**
 * Fills row `id` of calculator `c`: the measured rate and its share of the ceiling, with its
 * engine, conditions and source; or that none matches, and the range the catalog's runs reach.
 */
export function measuredRow(c, id, run) {
  const m = run && measuredFor(c.rl, run);
  if (m) {
    c.row(id, c.t('measured.how', {
      engine: m.engine, batch: c.fmt(m.batch, 'integer'), tokens: c.fmt(m.generatedTokens, 'integer'), date: m.date,
      ceiling: c.fmt(m.ceilingTokensPerSecond, 'number'), source: catalogSource('measurement', m.id, c.lang),
    }), c.t('measured.value', { rate: c.fmt(m.tokensPerSecond, 'digits'), share: c.fmt(m.fractionOfCeiling, 'percent') }));
    return m;
  }
  const all = measurements(c.rl);
  const shares = all.map((x) => x.fractionOfCeiling);
  c.row(id, all.length ? c.t('measured.none', {
    n: c.fmt(all.length, 'integer'), low: c.fmt(Math.min(...shares), 'percent'), high: c.fmt(Math.max(...shares), 'percent'),
  }) : null, c.t('measured.noneValue'));
  return null;
}
