// The lesson's worked cards ("the arithmetic"): a caption, rows of quantity · how it is counted ·
// result, and what it means, every figure from the module. A card's texts are prose entries of
// web/i18n/prose.json: worked.<card>.title, worked.<card>.<row> ("label ‖ hint ‖ how ‖ result",
// the hint and the how may be empty) and worked.<card>.result, their placeholders filled by the
// module (i18n.js fillValues). A card may end with a link that opens a calculator of the page
// on its case: the link carries that calculator's URL state, so it works from file:// too.
import { h } from './dom.js';
import { t, proseText, hasProse, catalogSource } from './i18n.js';
import { scrollBox } from './charts.js';
import { fromBase } from './units.js';

/**
 * The cards, in the page's order. `open`: the calculator a card opens (kind), the selects it
 * chooses and its fields in base units, from the module (rl) — the link writes them in the
 * field's own unit, as a shared link does.
 */
export const CARDS = {
  sanity: { source: ['case', 'c01-day'], rows: ['perPhoto', 'peak', 'time', 'ceiling', 'measured', 'fraction'], open: { kind: 'utilization' } },
  c01Day: { source: ['case', 'c01-day'], rows: ['photos', 'perPhoto', 'perDay', 'oneT4', 'arrivals', 'perGpu', 'cost'], open: { kind: 'utilization' } },
  training: { source: ['case', 'c01-training'], rows: ['photos', 'epochs', 'step', 'total', 'llm'] },
  c10: {
    source: ['case', 'c10-serving'],
    rows: ['weights', 'perGpu', 'floor', 'kv', 'step', 'target', 'prefill', 'share'],
    open: {
      kind: 'decode',
      state: (rl) => {
        const c = rl.lessonCase({ id: 'c10-serving' }).values;
        return { selects: { model: c.model, format: c.format, gpu: c.gpu }, fields: { gpus: c.gpus, batch: c.batch, kv: c.kvBytesPerSequence } };
      },
    },
  },
  phone: {
    source: ['case', 'phone-decode'],
    rows: ['weights', 'bandwidth', 'ceiling', 'published', 'share'],
    open: {
      kind: 'decode',
      state: (rl) => {
        const c = rl.lessonCase({ id: 'phone-decode' }).values;
        return { selects: { model: c.model, gpu: 'custom' }, fields: { bw: c.bytesPerSecond, batch: c.batch, kv: c.kvBytesPerSequence } };
      },
    },
  },
  games: { source: ['case', 'game-frame'], rows: ['pixels', 'perSecond'] },
  fp32: {
    source: ['case', 'c01-fp32'],
    rows: ['achieved', 'fp32Share', 'fp16Share', 'gpus', 'tensorrt'],
    open: {
      kind: 'utilization',
      state: (rl) => {
        const c = rl.lessonCase({ id: 'c01-fp32' }).values;
        return { selects: { gpu: c.gpu, precision: c.dtype }, fields: { rate: c.itemsPerSecond } };
      },
    },
  },
  int8Cap: { source: ['gpu', 't4'], rows: ['fp16', 'int8', 'compute', 'memory', 'estimate'] },
  conv: { source: ['case', 'c01-conv1'], rows: ['window', 'windows', 'filters', 'macs', 'resolution'] },
  c01Batch: { source: ['model', 'resnet50'], rows: ['b1', 'b4', 'b32', 'conv', 'dynamic'] },
  english: { source: ['model', 'qwen-27b'], rows: ['weights', 'ceiling', 'flops', 'share', 'balance', 'batch'], open: { kind: 'decode', state: (rl) => ({ selects: { model: 'qwen-27b', gpu: 'h100-sxm' }, fields: {} }) } },
};

/** The field units of a calculator kind, for writing a link's values as its fields show them. */
function fieldUnit(kindDef, id) {
  const f = kindDef && kindDef.fields.find((x) => x.id === id);
  return f && f.unit;
}

/** A link that opens calculator `open.kind` on the card's case (its URL state), in `lang`. */
export function openHref(rl, open, lang, kinds) {
  const params = new URLSearchParams();
  params.set('lang', lang);
  const state = open.state ? open.state(rl) : { selects: {}, fields: {} };
  for (const [id, v] of Object.entries(state.selects || {})) params.set(`${open.kind}.${id}`, v);
  for (const [id, v] of Object.entries(state.fields || {})) {
    const unit = fieldUnit(kinds[open.kind], id);
    params.set(`${open.kind}.${id}`, String(unit ? fromBase(v, unit) : v));
  }
  return `?${params.toString()}#calc-${open.kind}`;
}

/**
 * A worked card as an element, or null where its texts are not there. The rows are a table
 * (a caption, column headers, row headers), in a focusable region that scrolls when narrow.
 */
export function workedCard(rl, id, lang, kinds = {}) {
  const card = CARDS[id];
  if (!card || !hasProse(`worked.${id}.title`)) return null;
  const text = (key) => proseText(rl, `worked.${id}.${key}`, lang);
  const title = text('title');
  const rows = card.rows.map((row) => {
    const [label, hint = '', how = '', result = ''] = String(text(row)).split(/\s*‖\s*/);
    return h('tr', { 'data-row': row },
      h('th', { scope: 'row' }, label, hint ? h('span', { class: 'hint' }, hint) : null),
      h('td', { class: 'how' }, how),
      h('td', { class: 'result' }, result));
  });
  const table = h('table', { class: 'work worked-table', 'data-worked': id },
    h('caption', {}, title),
    h('thead', {}, h('tr', {},
      h('th', { scope: 'col' }, t('calc.col.quantity', lang)),
      h('th', { scope: 'col' }, t('calc.col.how', lang)),
      h('th', { scope: 'col' }, t('calc.col.result', lang)))),
    h('tbody', {}, rows));
  const result = hasProse(`worked.${id}.result`) ? text('result') : null;
  const link = card.open && kinds[card.open.kind]
    ? h('p', { class: 'worked-open' }, h('a', { href: openHref(rl, card.open, lang, kinds), 'data-open': card.open.kind }, t('worked.open', lang, { calculator: t(`${card.open.kind}.title`, lang) })))
    : null;
  // where the card's facts come from: its catalog entry's source, in the reader's language
  const source = card.source
    ? h('details', { class: 'worked-source' }, h('summary', {}, t('worked.source', lang)), h('p', {}, catalogSource(card.source[0], card.source[1], lang)))
    : null;
  return h('figure', { class: 'worked', id: `worked-${id}`, 'data-card': id },
    scrollBox(table, title),
    result ? h('p', { class: 'worked-result' }, h('strong', {}, t('worked.resultLabel', lang)), ' ', result) : null,
    link, source);
}
