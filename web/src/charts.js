// Small SVG charts. Each chart is role="img" with a <title> and <desc>, and comes with a real
// <table> of its data. Axis positions are a display mapping (log or linear scale to pixels);
// every plotted number comes from the module.
import { h, s, nextId, buildVirtual, real, clear } from './dom.js';
import { format } from './format.js';

// Full size, and compact for narrow containers (phones): the SVG scales to its box, so a smaller
// drawing keeps the text readable.
const SIZES = {
  full: { W: 640, H: 400, PAD: { l: 104, r: 18, t: 18, b: 56 } },
  compact: { W: 420, H: 350, PAD: { l: 84, r: 26, t: 30, b: 52 } },
};

export function logScale(min, max, a, b) {
  const l0 = Math.log10(min);
  const l1 = Math.log10(max);
  const f = (v) => a + ((Math.log10(Math.min(Math.max(v, min), max)) - l0) / (l1 - l0)) * (b - a);
  f.min = min;
  f.max = max;
  return f;
}

/** Decade ticks between min and max: 0.1, 1, 10 … */
export function decades(min, max) {
  const out = [];
  for (let e = Math.ceil(Math.log10(min) - 1e-9); e <= Math.floor(Math.log10(max) + 1e-9); e += 1) out.push(10 ** e);
  return out;
}

/**
 * A log-log frame: returns { svg, X, Y, plot, W, H, PAD, … } where plot is the <g> to draw into.
 * opts: { title, desc, xLabel, yLabel, x: [min, max], y: [min, max], xFormat, yFormat, lang,
 * compact (the narrow drawing), height (of the drawing, where not the usual), xTicks, yTicks (the
 * values ticked, where not the decades: a range under one decade, γ from 1 to 16) }
 */
export function logFrame(opts) {
  const { W, PAD } = SIZES[opts.compact ? 'compact' : 'full'];
  const H = opts.height || SIZES[opts.compact ? 'compact' : 'full'].H;
  const titleId = nextId('chart-title');
  const descId = nextId('chart-desc');
  const svg = s('svg', {
    viewBox: `0 0 ${W} ${H}`, class: ['chart', opts.compact ? 'compact' : ''], role: 'img', 'aria-labelledby': `${titleId} ${descId}`,
    preserveAspectRatio: 'xMidYMid meet',
  });
  const titleEl = s('title', { id: titleId }, opts.title);
  const descEl = s('desc', { id: descId }, opts.desc);
  svg.append(titleEl, descEl);
  const X = logScale(opts.x[0], opts.x[1], PAD.l, W - PAD.r);
  const Y = logScale(opts.y[0], opts.y[1], H - PAD.b, PAD.t);
  const axes = s('g', { class: 'axes', 'aria-hidden': 'true' });
  for (const v of opts.xTicks || decades(opts.x[0], opts.x[1])) {
    axes.append(s('line', { class: 'grid', x1: X(v), x2: X(v), y1: PAD.t, y2: H - PAD.b }));
    axes.append(s('text', { class: 'tick', x: X(v), y: H - PAD.b + 18, 'text-anchor': 'middle' }, opts.xFormat(v)));
  }
  for (const v of opts.yTicks || decades(opts.y[0], opts.y[1])) {
    axes.append(s('line', { class: 'grid', x1: PAD.l, x2: W - PAD.r, y1: Y(v), y2: Y(v) }));
    axes.append(s('text', { class: 'tick', x: PAD.l - 6, y: Y(v) + 4, 'text-anchor': 'end' }, opts.yFormat(v)));
  }
  axes.append(s('rect', { class: 'frame', x: PAD.l, y: PAD.t, width: W - PAD.l - PAD.r, height: H - PAD.t - PAD.b }));
  axes.append(s('text', { class: 'axis-label', y: H - 12, 'text-anchor': 'middle', ...fitLabel(opts.xLabel, (PAD.l + W - PAD.r) / 2, W, opts.compact) }, opts.xLabel));
  if (opts.compact) {
    axes.append(s('text', { class: 'axis-label', y: PAD.t - 12, 'text-anchor': 'middle', ...fitLabel(opts.yLabel, 4, W, true, 'start') }, opts.yLabel));
  } else {
    axes.append(s('text', {
      class: 'axis-label', x: 16, y: (PAD.t + H - PAD.b) / 2, 'text-anchor': 'middle',
      transform: `rotate(-90 16 ${(PAD.t + H - PAD.b) / 2})`,
    }, opts.yLabel));
  }
  const plot = s('g', { class: 'plot', 'aria-hidden': 'true' });
  svg.append(axes, plot);
  return { svg, X, Y, plot, W, H, PAD, titleEl, descEl };
}

/**
 * The log-log frame of the chart in `box`, kept from the last drawing while its axes are the same
 * (ranges, labels, tick units, language, size): then only its plot is emptied and its title and
 * description rewritten, so a change of input redraws the curves, not the grid and the ticks.
 */
export function frameIn(box, opts) {
  const key = [opts.x, opts.y, opts.xLabel, opts.yLabel, opts.lang, Boolean(opts.compact),
    opts.xFormat(opts.x[1]), opts.yFormat(opts.y[1]), opts.xTicks, opts.yTicks].join('|');
  const kept = box.chartFrame;
  if (kept && box.chartFrameKey === key && kept.svg.parentNode === box) {
    if (kept.titleEl.textContent !== opts.title) kept.titleEl.textContent = opts.title;
    if (kept.descEl.textContent !== opts.desc) kept.descEl.textContent = opts.desc;
    // the curves, and what follows the chart up to showChart, are drawn as virtual nodes;
    // showChart brings the live ones up to them
    buildVirtual(true);
    return { ...kept, plot: s('g', { class: 'plot', 'aria-hidden': 'true' }), livePlot: kept.plot };
  }
  const f = logFrame(opts);
  f.kept = true;
  box.chartFrame = f;
  box.chartFrameKey = key;
  return f;
}

/**
 * Makes node `a` (in the document) look like node `b` (detached or virtual, built the same way): same
 * attributes (a <details> keeps the reader's open state) and text; where the children differ in
 * number, a takes b's. Only what changed is written, so an input change that moves a curve
 * rewrites a few attributes instead of removing and laying out the chart and its table again.
 * The two must be the same kind of node (see sameKind).
 */
function morph(a, b) {
  if (a.nodeType === 3) {
    if (a.data !== b.data) a.data = b.data;
    return;
  }
  const want = b.attributes;
  let found = 0;
  for (let i = 0; i < want.length; i += 1) {
    const { name, value } = want[i];
    const have = a.getAttribute(name);
    if (have !== null) found += 1;
    if (have !== value) a.setAttribute(name, value);
  }
  // a has attributes b has not (only then, so the common case reads each attribute once)
  if (found !== a.attributes.length) {
    for (const { name } of [...a.attributes]) if (!b.hasAttribute(name) && !(name === 'open' && a.localName === 'details')) a.removeAttribute(name);
  }
  morphChildren(a, b);
}

const sameKind = (a, b) => a === b || (a.nodeType === b.nodeType && a.nodeName === b.nodeName && (a.nodeType === 1 || a.nodeType === 3));

function morphChildren(a, b) {
  const as = a.childNodes;
  const bs = b.childNodes;
  const n = bs.length;
  let same = as.length === n;
  for (let i = 0; same && i < n; i += 1) same = sameKind(as[i], bs[i]);
  if (!same) {
    a.replaceChildren(...Array.from(bs, real));
    return;
  }
  for (let i = 0; i < n; i += 1) if (as[i] !== bs[i]) morph(as[i], bs[i]);
}

/**
 * Something shown after a chart (its data table …) that depends only on `key` (the data it shows,
 * as text): showChart builds it again only when the key changes, so an input the table does not
 * depend on (the batch marked on a curve) costs neither the building nor the comparing.
 */
export function keyed(key, build) {
  return { key, build };
}

/**
 * Shows a chart (a frame from frameIn, logFrame or barFrame) and what follows it (its data
 * table …) in `box`, changing in the document only what differs from what is there.
 */
export function showChart(box, f, ...after) {
  buildVirtual(false); // what is built from here on (a keyed table) goes into the page as it is
  if (f.livePlot) morphChildren(f.livePlot, f.plot);
  const old = [...box.childNodes];
  const nodes = [f.svg, ...after.map((x, i) => {
    if (!x || typeof x.build !== 'function') return x;
    const there = old[i + 1];
    if (there && there.chartKey === x.key) return there;
    const node = x.build();
    node.chartKey = x.key;
    return node;
  })];
  // a frame frameIn keeps goes into the page as it is (it is drawn into next time)
  const fits = old.length === nodes.length && old.every((x, i) => sameKind(x, nodes[i]))
    && !(f.kept && old[0] !== f.svg);
  if (!fits) {
    box.replaceChildren(...nodes.map(real));
    return;
  }
  for (let i = 0; i < old.length; i += 1) {
    if (old[i] === nodes[i]) continue;
    morph(old[i], nodes[i]);
    old[i].chartKey = nodes[i].chartKey;
  }
}

/** Ticks for a linear axis from 0: about five round steps covering max (display only). */
export function niceTicks(max) {
  const raw = max / 5;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((st) => st >= raw);
  const ticks = [];
  for (let v = 0; v <= max + step * 0.999; v += step) ticks.push(Number(v.toPrecision(12)));
  return ticks;
}

/** Default height of a bar chart, in SVG units. */
const BAR_HEIGHT = 288;

/**
 * A horizontal-bar frame with a linear x axis from 0 (bars keep their true proportions). With
 * opts.box, the box it will be shown in by showChart: where that holds a chart already, the new
 * one is built as virtual nodes, and showChart writes only what differs.
 */
export function barFrame(opts) {
  if (opts.box && opts.box.firstChild) buildVirtual(true);
  const { W, PAD } = SIZES[opts.compact ? 'compact' : 'full'];
  const titleId = nextId('chart-title');
  const descId = nextId('chart-desc');
  const svg = s('svg', { viewBox: `0 0 ${W} ${opts.height || BAR_HEIGHT}`, class: ['chart', opts.compact ? 'compact' : ''], role: 'img', 'aria-labelledby': `${titleId} ${descId}` });
  const Hh = opts.height || BAR_HEIGHT;
  svg.append(s('title', { id: titleId }, opts.title), s('desc', { id: descId }, opts.desc));
  const ticks = niceTicks(opts.max);
  const top = ticks[ticks.length - 1];
  const l = 24;
  const X = (v) => l + (Math.max(0, Math.min(v, top)) / top) * (W - l - PAD.r);
  const axes = s('g', { class: 'axes', 'aria-hidden': 'true' });
  for (const v of ticks) {
    axes.append(s('line', { class: 'grid', x1: X(v), x2: X(v), y1: PAD.t, y2: Hh - PAD.b }));
    axes.append(s('text', { class: 'tick', x: X(v), y: Hh - PAD.b + 18, 'text-anchor': 'middle' }, opts.xFormat(v)));
  }
  axes.append(s('text', { class: 'axis-label', y: Hh - 12, 'text-anchor': 'middle', ...fitLabel(opts.xLabel, (l + W - PAD.r) / 2, W, opts.compact) }, opts.xLabel));
  const plot = s('g', { class: 'plot', 'aria-hidden': 'true' });
  svg.append(axes, plot);
  return { svg, X, plot, PAD, left: l };
}

/**
 * Where an axis title goes so that it is not clipped (a Spanish title is longer than the plot is
 * wide): centred on `at` where it fits, moved in where it would cross the drawing's edge, and
 * squeezed to the drawing's width where it is wider (textLength). Its width is an estimate
 * (0.58 em per character, wider than the system fonts' average): a layout choice. `from`:
 * 'start' for a title whose left end is at `at` (written centred, then, at its middle).
 */
export function fitLabel(text, at, W, compact, from = 'middle') {
  const em = compact ? 11.5 : 13; // the axis titles' font size (calculator.css)
  const width = String(text).length * em * 0.58;
  const margin = 4;
  if (width > W - 2 * margin) return { x: W / 2, textLength: W - 2 * margin, lengthAdjust: 'spacingAndGlyphs' };
  const centre = from === 'start' ? at + width / 2 : at;
  return { x: Math.min(Math.max(centre, margin + width / 2), W - margin - width / 2) };
}

/**
 * A chart's legend, under it in the page's text (it wraps at any width, in any language, and
 * never lies on a line): a swatch of each line's stroke (`swatch`: its class) and what it is.
 */
export function chartLegend(items) {
  return h('ul', { class: 'chart-legend' }, items.map(({ swatch, label, dashed }) =>
    h('li', {}, h('span', { class: ['swatch', swatch, dashed ? 'dashed' : null], 'aria-hidden': 'true' }), label)));
}

export function polyline(points, cls) {
  return s('polyline', { class: cls, points: points.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(' ') });
}

// Where a marker's label goes around its point: the offset of the text's anchor, its alignment.
// The four diagonals and the four sides one step further out clear the point's circle; they are
// for labelSides, where points crowd.
const SIDES = {
  above: [0, -12, 'middle'], right: [10, 4, 'start'], below: [0, 20, 'middle'], left: [-10, 4, 'end'],
  'above-right': [7, -10, 'start'], 'above-left': [-7, -10, 'end'], 'below-right': [7, 19, 'start'], 'below-left': [-7, 19, 'end'],
  'far-above': [0, -26, 'middle'], 'far-below': [0, 34, 'middle'], 'far-right': [24, 4, 'start'], 'far-left': [-24, 4, 'end'],
  'far-above-right': [14, -20, 'start'], 'far-above-left': [-14, -20, 'end'], 'far-below-right': [14, 29, 'start'], 'far-below-left': [-14, 29, 'end'],
};
const MARKER_R = 6;

/** A marker with a label on one of SIDES (usually 'right', 'left', 'above' or 'below'). */
export function marker(x, y, label, cls, side = 'right', r = MARKER_R) {
  const g = s('g', { class: ['marker', cls] });
  g.append(s('circle', { cx: x, cy: y, r }));
  if (label) {
    const [dx, dy, anchor] = SIDES[side];
    g.append(s('text', { x: x + dx, y: y + dy, 'text-anchor': anchor, class: 'marker-label' }, label));
  }
  return g;
}

/**
 * The box a text drawn at (x, y) with an anchor covers, from its length: a bold digit is about
 * 0.65 em wide; the font's ascent and descent, about 0.95 and 0.25 em, give its height.
 */
export function textBox(x, y, text, anchor, fontSize) {
  const w = String(text).length * 0.65 * fontSize;
  const left = anchor === 'start' ? x : anchor === 'end' ? x - w : x - w / 2;
  return { x0: left - 1, x1: left + w + 1, y0: y - 0.95 * fontSize, y1: y + 0.25 * fontSize };
}

/** The box a marker's circle covers. */
export function markerBox({ x, y }, r = MARKER_R) {
  return { x0: x - r, x1: x + r, y0: y - r, y1: y + r };
}

function labelBox(x, y, text, side, fontSize) {
  const [dx, dy, anchor] = SIDES[side];
  return textBox(x + dx, y + dy, text, anchor, fontSize);
}

function overlap(a, b) {
  const w = Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0);
  const h = Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0);
  return w > 0 && h > 0 ? w * h : 0;
}

/** How much a box covers of others (their areas summed), far more where it leaves the plot. */
export function boxCost(box, taken, plot) {
  const outside = box.x0 < plot.x0 || box.x1 > plot.x1 || box.y0 < plot.y0 || box.y1 > plot.y1;
  let sum = outside ? 1e6 : 0;
  for (const t of taken) sum += overlap(box, t);
  return sum;
}

/** Of choices in order of preference, the first that costs nothing, else the cheapest: { choice, c }. */
function cheapest(choices, costOf) {
  let best = null;
  for (const choice of choices) {
    const c = costOf(choice);
    if (!best || c < best.c) best = { choice, c };
    if (c === 0) break;
  }
  return best;
}

/**
 * Of the places a text may go ([{ x, y, anchor }], in order of preference), the first where it
 * covers none of the boxes taken and stays inside the plot, else the one where it covers least:
 * { x, y, anchor, box }.
 */
export function placeText(text, places, taken, plot, fontSize) {
  const box = (p) => textBox(p.x, p.y, text, p.anchor, fontSize);
  const { choice } = cheapest(places, (p) => boxCost(box(p), taken, plot));
  return { ...choice, box: box(choice) };
}

/**
 * Sides for many points' labels (a chart of measured kernels, numbered), chosen so the labels
 * keep off each other, off the points and inside the plot. Each label first takes, in the order
 * given, the nearest side (in the order of SIDES) where it overlaps nothing placed so far, or
 * else the one where it overlaps least; then, while that helps, each label in turn moves to the
 * side that overlaps least given all the others, or pushes aside the labels in its way.
 * points: [{ x, y, label }] in the frame's pixels; plot: { x0, x1, y0, y1 }; obstacles: boxes
 * already taken (other labels, lines); r: the points' radius.
 */
export function labelSides(points, plot, fontSize = 12.5, obstacles = [], r = MARKER_R) {
  const fixed = [...obstacles, ...points.map((p) => markerBox(p, r))];
  const boxes = points.map((p) => Object.fromEntries(Object.keys(SIDES).map((side) => [side, labelBox(p.x, p.y, p.label, side, fontSize)])));
  const placed = [];
  const cost = (i, side) => {
    const box = boxes[i][side];
    let sum = boxCost(box, fixed, plot);
    for (const [j, other] of placed.entries()) if (j !== i && other) sum += overlap(box, boxes[j][other]);
    return sum;
  };
  const bestSide = (i) => {
    const { choice, c } = cheapest(Object.keys(SIDES), (side) => cost(i, side));
    return { side: choice, c };
  };
  // a label with no free side takes one that only other labels cover, where each of those labels
  // can move to a free side of its own
  const push = (i) => {
    const was = placed[i];
    for (const side of Object.keys(SIDES)) {
      const box = boxes[i][side];
      if (boxCost(box, fixed, plot) > 0) continue;
      const blockers = placed.flatMap((other, j) => (j !== i && overlap(box, boxes[j][other]) > 0 ? [j] : []));
      placed[i] = side;
      const moves = [];
      for (const j of blockers) {
        const b = bestSide(j);
        if (b.c > 0) break;
        moves.push([j, placed[j]]);
        placed[j] = b.side;
      }
      if (moves.length === blockers.length) return true;
      for (const [j, other] of moves.reverse()) placed[j] = other;
      placed[i] = was;
    }
    return false;
  };
  for (let i = 0; i < points.length; i += 1) placed[i] = bestSide(i).side;
  for (let round = 0; round < 8; round += 1) {
    let moved = false;
    for (let i = 0; i < points.length; i += 1) {
      const now = cost(i, placed[i]);
      if (now === 0) continue;
      const best = bestSide(i);
      if (best.c < now) {
        placed[i] = best.side;
        moved = true;
      } else if (push(i)) {
        moved = true;
      }
    }
    if (!moved) break;
  }
  return placed;
}

/** A wide table in its own scrolling box, which keyboard users can focus and scroll. */
export function scrollBox(table, label) {
  return h('div', { class: 'table-scroll', tabindex: 0, role: 'region', 'aria-label': label }, table);
}

/** A data table for a chart, inside <details> so it does not crowd the page. */
export function dataTable(caption, summaryText, headers, rows) {
  return h('details', { class: 'chart-data' },
    h('summary', {}, summaryText),
    scrollBox(h('table', {},
      h('caption', {}, caption),
      h('thead', {}, h('tr', {}, headers.map((x) => h('th', { scope: 'col' }, x)))),
      h('tbody', {}, rows.map((r) => h('tr', {}, r.map((c, i) => (i === 0 ? h('th', { scope: 'row' }, c) : h('td', {}, c))))))), caption));
}

export function fmtTick(kind, lang) {
  return (v) => format(v, kind, lang);
}

/**
 * A roofline between two intensities, every height from rl.roofline(): its corners in FLOPs/B and
 * FLOPS (the ridge's among them where it lies in between), the ridge and the roof's height.
 */
export function roofCorners(rl, xmin, xmax, peak, bw) {
  const at = (x) => rl.roofline({ peakFlopsPerSecond: peak, bytesPerSecond: bw, flopsPerByte: x });
  const lo = at(xmin);
  const hi = at(xmax);
  const ridge = lo.ridgeFlopsPerByte;
  const corners = [[xmin, lo.attainableFlopsPerSecond]];
  if (ridge > xmin && ridge < xmax) corners.push([ridge, at(ridge).attainableFlopsPerSecond]);
  corners.push([xmax, hi.attainableFlopsPerSecond]);
  return { corners, ridge, peakY: hi.attainableFlopsPerSecond };
}

/** The two segments of a roofline on a chart's frame (corners: roofCorners' for its x range). */
export function roofSegments(rl, f, peak, bw, cls, corners = roofCorners(rl, f.X.min, f.X.max, peak, bw)) {
  return { line: polyline(corners.corners.map(([x, y]) => [f.X(x), f.Y(y)]), cls), ridge: corners.ridge, peakY: corners.peakY };
}

/** A chart's box while its inputs are not valid: emptied, with one line saying when it appears. */
export function emptyChart(c, box) {
  clear(box);
  box.append(h('p', { class: 'chart-empty' }, c.t('chart.unavailable')));
}
