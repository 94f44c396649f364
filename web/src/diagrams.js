// The lesson's two diagrams, made live: "where the arithmetic happens and how the bytes get
// there" and "what limits you, and which lever to pull". Both follow the reader's numbers (the
// roofline, matmul and decode calculators on the page) and offer the lesson's guided tours step
// by step.
import { h, clear, setText } from './dom.js';
import { t, proseText, catalogName } from './i18n.js';
import { format } from './format.js';
import { caseArgs, caseValues, isIntegerDtype, DECODE_CASE } from './catalog.js';
import { readerState } from './reader.js';

const FLOW_NODES = ['weights', 'inputs', 'outputs', 'cache', 'cores'];
/** The calculators each diagram shows the reader's numbers of (readerState). */
const FEEDS = { flow: ['roofline', 'decode'], limits: ['roofline', 'matmul'] };
const FLOW_TOURS = {
  bigMatmul: [['weights', 'inputs'], ['cache'], ['cache', 'cores'], ['outputs']],
  llmToken: [['weights', 'inputs'], ['cache'], ['cores'], ['outputs']],
  batching: [['weights', 'inputs'], ['cache', 'cores'], ['cache', 'cores'], ['outputs']],
};
/** The lesson case each tour follows (the core's catalog). */
const FLOW_TOUR_CASE = { bigMatmul: 'matmul-4096', llmToken: DECODE_CASE, batching: 'layer-4096' };
const LIMIT_TOUR_CASE = { bigMatmul: 'matmul-4096', c01Layer: 'c01-last-layer', llmToken: DECODE_CASE };
const LIMIT_NODES = ['flops', 'bytes', 'gpu', 'intensity', 'ridge', 'compare', 'memoryBound', 'computeBound'];
const LIMIT_TOURS = {
  bigMatmul: [['flops', 'bytes'], ['intensity', 'gpu', 'ridge'], ['compare'], ['computeBound']],
  llmToken: [['flops', 'bytes'], ['intensity', 'gpu', 'ridge'], ['compare'], ['memoryBound']],
  c01Layer: [['flops', 'bytes'], ['intensity', 'gpu', 'ridge'], ['compare'], ['memoryBound']],
};

// The precision of the reader's roofline calculator: the peak of an integer one is in TOPS.
let readerPrecision = null;
if (typeof document !== 'undefined') {
  document.addEventListener('roofline-change', (e) => {
    const d = e.detail || {};
    if (d.kind === 'roofline' && d.selects) readerPrecision = d.selects.precision;
  });
}
const readerPeakUnit = (rl) => (readerPrecision && isIntegerDtype(rl, readerPrecision) ? 'tops' : 'tflops');

function pr(rl, id, lang, fallbackId) {
  const txt = proseText(rl, id, lang);
  if (txt !== null && txt !== undefined) return txt;
  return fallbackId ? t(fallbackId, lang) : '';
}

/** The case shown by the limits diagram: a tour's case or the reader's own. */
function limitsCase(rl, which, lang) {
  const id = LIMIT_TOUR_CASE[which];
  if (id) {
    const dev = caseArgs(rl, id, 'clocks');
    const gpuName = catalogName('gpu', caseValues(rl, id).gpu, lang);
    if (which === 'llmToken') {
      // one decode step: every weight read once, 2 FLOPs per weight
      const d = caseArgs(rl, id, 'decode');
      return { flops: d.flopsPerToken, bytes: d.weightBytes, peak: dev.peakFlopsPerSecond, bw: dev.bytesPerSecond, gpuName };
    }
    const mm = rl.matmul(caseArgs(rl, id, 'matmul'));
    return { flops: mm.flops, bytes: mm.bytes, peak: dev.peakFlopsPerSecond, bw: dev.bytesPerSecond, gpuName };
  }
  const r = readerState.roofline;
  const mmv = readerState.matmul;
  const base = caseArgs(rl, LIMIT_TOUR_CASE.c01Layer, 'matmul');
  let mm = null;
  try {
    mm = rl.matmul(mmv ? { ...base, n: mmv.n, k: mmv.k, m: mmv.m } : base);
  } catch (e) {
    mm = null;
  }
  if (!mm) return null;
  const dev = caseArgs(rl, LIMIT_TOUR_CASE.c01Layer, 'clocks');
  const peak = r && Number.isFinite(r.peak) ? r.peak : dev.peakFlopsPerSecond;
  const bw = r && Number.isFinite(r.bw) ? r.bw : dev.bytesPerSecond;
  const peakUnit = r && Number.isFinite(r.peak) ? readerPeakUnit(rl) : 'tflops';
  return { flops: mm.flops, bytes: mm.bytes, peak, bw, gpuName: null, peakUnit };
}

class Diagram {
  constructor(kind, rl, lang) {
    this.kind = kind;
    this.rl = rl;
    this.lang = lang;
    this.selected = kind === 'flow' ? 'cache' : 'compare';
    this.tour = null;
    this.step = 0;
    this.el = h('figure', { class: ['diagram', `diagram-${kind}`] });
    // the calculators change many times while the page renders or a slider moves: redraw once, soon after
    document.addEventListener('roofline-change', (e) => {
      // only the calculators whose numbers this diagram shows (the flow: the roofline's rates and
      // decode's bytes; the limits: the roofline's rates and the matmul's sizes)
      const kind = e.detail && e.detail.kind;
      if (kind && !FEEDS[this.kind].includes(kind)) return;
      if (this.refreshPending) return;
      this.refreshPending = true;
      // a diagram elsewhere on the page need not follow within the frame: when the browser is idle
      const later = globalThis.requestIdleCallback || ((fn) => setTimeout(fn, 50));
      later(() => {
        this.refreshPending = false;
        this.refresh();
      }, { timeout: 250 });
    });
  }

  get nodes() {
    return this.kind === 'flow' ? FLOW_NODES : LIMIT_NODES;
  }

  get tours() {
    return this.kind === 'flow' ? FLOW_TOURS : LIMIT_TOURS;
  }

  p(id, fallback) {
    return pr(this.rl, `diagram.${this.kind}.${id}`, this.lang, fallback);
  }

  setLang(lang) {
    this.lang = lang;
    this.render();
  }

  render() {
    const el = clear(this.el);
    const lang = this.lang;
    el.append(h('figcaption', {}, h('strong', {}, this.p('title', `diagram.${this.kind}.fallbackTitle`)), ' ', this.p('intro')));
    this.nodeEls = {};
    this.valueEls = {};
    const btn = (id) => {
      const value = h('span', { class: 'node-value' });
      const b = h('button', {
        type: 'button', class: ['node', `node-${id}`], 'aria-pressed': String(this.selected === id),
        onclick: () => { this.selected = id; this.refreshDetail(); },
      }, h('span', { class: 'node-title' }, this.p(`node.${id}.title`, `diagram.node.${id}`)), value);
      this.nodeEls[id] = b;
      this.valueEls[id] = value;
      return b;
    };
    let board;
    if (this.kind === 'flow') {
      this.linkValue = h('span', { class: 'link-value' });
      board = h('div', { class: 'board flow-board' },
        h('div', { class: 'zone zone-vram' }, h('p', { class: 'zone-name' }, t('diagram.zone.vram', lang)), btn('weights'), btn('inputs'), btn('outputs')),
        h('div', { class: 'flow-link', 'aria-hidden': 'true' }, h('span', { class: 'arrow' }, '⇄'), this.linkValue),
        h('div', { class: 'zone zone-chip' }, h('p', { class: 'zone-name' }, t('diagram.zone.chip', lang)), btn('cache'), btn('cores')));
    } else {
      board = h('div', { class: 'board limits-board' },
        h('div', { class: 'col col-in' }, btn('flops'), btn('bytes'), btn('gpu')),
        h('div', { class: 'col col-mid' }, btn('intensity'), btn('ridge')),
        h('div', { class: 'col col-cmp' }, btn('compare')),
        h('div', { class: 'col col-out' }, btn('memoryBound'), btn('computeBound')));
    }
    this.detail = h('div', { class: 'node-detail', 'aria-live': 'polite' });
    this.caseLine = h('p', { class: 'case-line' });
    const tourBar = h('div', { class: 'tour-bar', role: 'group', 'aria-label': t('diagram.tours', lang) });
    tourBar.append(h('button', {
      type: 'button', class: 'tour-btn', 'aria-pressed': String(this.tour === null),
      onclick: () => { this.tour = null; this.step = 0; this.render(); this.refocusTour(''); },
      'data-tour': '',
    }, t('diagram.yourNumbers', lang)));
    for (const id of Object.keys(this.tours)) {
      tourBar.append(h('button', {
        type: 'button', class: 'tour-btn', 'aria-pressed': String(this.tour === id),
        onclick: () => { this.tour = id; this.step = 0; this.render(); this.refocusTour(id); this.showActive(); },
        'data-tour': id,
      }, this.p(`tour.${id}.title`, `diagram.tour.${id}`)));
    }
    this.stepBox = h('div', { class: 'tour-step', 'aria-live': 'polite' });
    el.append(tourBar, this.caseLine, board, this.detail, this.stepBox);
    this.refresh();
  }

  refresh() {
    if (!this.nodeEls) return;
    const lang = this.lang;
    const fmt = (v, k) => format(v, k, lang);
    if (this.kind === 'flow') {
      const r = readerState.roofline;
      const d = readerState.decode;
      const values = {}; // what each node shows; the others are emptied
      if (this.tour) {
        // the lesson's case: its GPU's bandwidth and peak; the numbers are in the step texts
        const id = FLOW_TOUR_CASE[this.tour];
        const dev = caseArgs(this.rl, id, 'clocks');
        setText(this.linkValue, fmt(dev.bytesPerSecond, 'gbps'));
        values.cores = fmt(dev.peakFlopsPerSecond, 'tflops');
        setText(this.caseLine, t('diagram.limits.caseTour', lang, { gpu: catalogName('gpu', caseValues(this.rl, id).gpu, lang) }));
      } else {
        setText(this.linkValue, r && Number.isFinite(r.bw) ? fmt(r.bw, 'gbps') : '—');
        values.cores = r && Number.isFinite(r.peak) ? fmt(r.peak, readerPeakUnit(this.rl)) : '—';
        values.weights = d && Number.isFinite(d.weights) ? fmt(d.weights, 'gb') : '—';
        values.inputs = d && Number.isFinite(d.kv) && Number.isFinite(d.batch) ? t('diagram.flow.kvValue', lang, { kv: fmt(d.kv, 'gb'), batch: fmt(d.batch, 'integer') }) : '—';
        values.cache = r && Number.isFinite(r.intensity) ? t('diagram.flow.reuse', lang, { intensity: fmt(r.intensity, 'number') }) : '';
        setText(this.caseLine, t('diagram.flow.case', lang));
      }
      for (const id of FLOW_NODES) setText(this.valueEls[id], values[id] || '');
    } else {
      const cs = limitsCase(this.rl, this.tour, lang);
      let k = null;
      if (cs) {
        try {
          k = this.rl.clocks({ flops: cs.flops, bytes: cs.bytes, peakFlopsPerSecond: cs.peak, bytesPerSecond: cs.bw });
        } catch (e) {
          k = null;
        }
      }
      const v = this.valueEls;
      setText(v.flops, cs ? fmt(cs.flops, 'flops') : '—');
      setText(v.bytes, cs ? fmt(cs.bytes, 'bytes') : '—');
      setText(v.gpu, cs ? `${fmt(cs.peak, cs.peakUnit || 'tflops')} · ${fmt(cs.bw, 'gbps')}` : '—');
      setText(v.intensity, k ? fmt(k.flopsPerByte, 'flopsPerByte') : '—');
      setText(v.ridge, k ? fmt(k.ridgeFlopsPerByte, 'ridgeFlopsPerByte') : '—');
      setText(v.compare, k ? `${fmt(k.flopsPerByte, 'number')} ${k.bound === 'compute' ? '≥' : '<'} ${fmt(k.ridgeFlopsPerByte, 'ridge')}` : '—');
      setText(v.memoryBound, k && k.bound === 'memory' ? t('diagram.limits.youAreHere', lang, { time: fmt(k.seconds, 'seconds') }) : '');
      setText(v.computeBound, k && k.bound === 'compute' ? t('diagram.limits.youAreHere', lang, { time: fmt(k.seconds, 'seconds') }) : '');
      this.nodeEls.memoryBound.classList.toggle('verdict-on', Boolean(k && k.bound === 'memory'));
      this.nodeEls.computeBound.classList.toggle('verdict-on', Boolean(k && k.bound === 'compute'));
      setText(this.caseLine, this.tour
        ? t('diagram.limits.caseTour', lang, { gpu: cs ? cs.gpuName : '—' })
        : t('diagram.limits.caseReader', lang));
    }
    this.refreshDetail();
  }

  /**
   * Scrolls the page the least that shows every highlighted box above the step's bar (sticky at the
   * bottom of a phone's screen): on a phone the board is taller than the screen, and a step used to
   * highlight boxes above it, out of sight.
   */
  showActive() {
    const boxes = Object.values(this.nodeEls).filter((b) => b.classList.contains('active'));
    if (!boxes.length || typeof innerHeight !== 'number') return;
    const top = Math.min(...boxes.map((b) => b.getBoundingClientRect().top));
    const bottom = Math.max(...boxes.map((b) => b.getBoundingClientRect().bottom));
    const bar = this.stepBox.getBoundingClientRect();
    // the room above the bar where it covers the screen's bottom, else the whole screen
    const floor = bar.top < innerHeight && bar.bottom >= innerHeight - 1 ? bar.top : innerHeight;
    const margin = 8;
    let delta = 0;
    if (top < margin) delta = top - margin;
    else if (bottom > floor - margin) delta = Math.min(bottom - (floor - margin), top - margin);
    if (Math.abs(delta) >= 1) scrollBy({ top: delta, behavior: 'instant' });
  }

  /** The tour button just pressed, drawn again by render(), gets the focus back. */
  refocusTour(id) {
    const b = this.el.querySelector(`.tour-btn[data-tour="${id}"]`);
    if (b) b.focus({ preventScroll: true });
  }

  refreshDetail() {
    const lang = this.lang;
    // what the detail shows depends on these alone: a change of the reader's numbers (refresh)
    // leaves it as it is instead of building it again
    const key = [lang, this.tour, this.step, this.selected].join('|');
    if (this.detail.shownKey === key) return;
    this.detail.shownKey = key;
    const active = this.tour ? this.tours[this.tour][this.step] : [this.selected];
    for (const id of this.nodes) {
      this.nodeEls[id].classList.toggle('active', active.includes(id));
      this.nodeEls[id].setAttribute('aria-pressed', String(!this.tour && this.selected === id));
    }
    clear(this.detail);
    const sel = this.tour ? active[0] : this.selected;
    this.detail.append(h('p', { class: 'detail-title' }, this.p(`node.${sel}.title`, `diagram.node.${sel}`)), h('p', {}, this.p(`node.${sel}.text`)));
    clear(this.stepBox);
    if (this.tour) {
      const n = this.tours[this.tour].length;
      const go = (delta, button) => {
        this.step += delta;
        this.refreshDetail();
        this.showActive();
        // the focus stays on the button pressed (drawn again), or its neighbour at either end
        const [p, nx] = this.stepBox.querySelectorAll('.step-nav button');
        const again = button === 'next' ? (nx.disabled ? p : nx) : (p.disabled ? nx : p);
        again.focus({ preventScroll: true });
      };
      const prev = h('button', { type: 'button', class: 'secondary', disabled: this.step === 0, onclick: () => go(-1, 'prev') }, t('diagram.prev', lang));
      const next = h('button', { type: 'button', class: 'secondary', disabled: this.step >= n - 1, onclick: () => go(1, 'next') }, t('diagram.next', lang));
      this.stepBox.append(
        h('p', { class: 'step-count' }, t('diagram.step', lang, { i: this.step + 1, n })),
        h('p', { class: 'step-text' }, this.p(`tour.${this.tour}.step${this.step + 1}`)),
        h('div', { class: 'step-nav' }, prev, next));
    }
  }
}

export function createDiagram(kind, rl, lang) {
  const d = new Diagram(kind, rl, lang);
  d.render();
  return d;
}
