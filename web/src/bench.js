// The benchmark overlay: load the JSON written by the native benchmark (file picker or drag and
// drop), validate it, and draw the measured roofline and kernels beside the datasheet one.
// A kernel's rate and roof are in the unit of the precision its arithmetic is in (its computeDtype):
// FLOPS, or OPS for integer arithmetic (the integer-dot GEMVs), as datasheets rate INT8.
// A result with memory levels (ceilings.measured.levels: L1, L2, L3, DRAM) gets one roof per
// level, and each kernel is judged against the roof of the smallest level its working set fits
// in (kernels[].workingSetBytes), or against DRAM's where the file gives no working set.
import { h, s, clear } from './dom.js';
import { t } from './i18n.js';
import { format } from './format.js';
import { logFrame, marker, markerBox, labelSides, placeText, fmtTick, scrollBox, dataTable, roofSegments, boxCost } from './charts.js';
import { isIntegerDtype } from './catalog.js';

const MAX_BYTES = 2_000_000;
const MAX_KERNELS = 200;
const MAX_LEVELS = 16;
const NBSP = '\u00a0';

/**
 * A size in bytes with a binary prefix (KiB, MiB, GiB: powers of two, as caches are sized),
 * the number written in the reader's language: 16 KiB, 1.5 MiB.
 */
export function binaryBytes(value, lang) {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) return format(Number.NaN, 'number', lang);
  const units = [['GiB', 2 ** 30], ['MiB', 2 ** 20], ['KiB', 2 ** 10]];
  const [unit, size] = units.find(([, u]) => value >= u) || ['B', 1];
  return `${format(value / size, 'number', lang)}${NBSP}${unit}`;
}

/**
 * A label along a roof's sloped part (a log-log line at 45° in data, at the frame's own angle in
 * pixels): { el, boxes } with the text rotated to the slope, its baseline `gap` pixels above the
 * line (below, for a negative gap), centred at the point of the line at intensity x; boxes: small
 * squares along the text, for other labels to keep off. f: the frame (X, Y); bw: bytes per second.
 */
export function slopeLabel(f, bw, x, text, cls, { fontSize = 12, gap = 4 } = {}) {
  // pixels per decade on each axis (the scales clamp to their ranges: measured across them)
  const dx = (f.X(f.X.max) - f.X(f.X.min)) / Math.log10(f.X.max / f.X.min);
  const dy = (f.Y(f.Y.min) - f.Y(f.Y.max)) / Math.log10(f.Y.max / f.Y.min);
  const angle = Math.atan2(dy, dx);
  const px = f.X(x);
  const py = f.Y(bw * x);
  const deg = -(angle * 180) / Math.PI;
  const el = s('text', { class: cls, x: px, y: py - gap, 'text-anchor': 'middle', transform: `rotate(${deg.toFixed(2)} ${px.toFixed(1)} ${py.toFixed(1)})` }, text);
  // where the rotated text lies: its centre line, a little above (or below) the roof
  const w = String(text).length * 0.6 * fontSize;
  const lift = gap >= 0 ? -(gap + 0.35 * fontSize) : -gap + 0.6 * fontSize;
  const [ux, uy] = [Math.cos(angle), -Math.sin(angle)];
  const [nx, ny] = [Math.sin(angle), Math.cos(angle)];
  const half = 0.5 * fontSize;
  const boxes = [];
  // boxes four fifths of a font size apart along the label
  for (let d = -w / 2; d <= w / 2 + 0.1; d += (fontSize * 4) / 5) {
    const cx = px + d * ux + lift * nx;
    const cy = py + d * uy + lift * ny;
    boxes.push({ x0: cx - half, x1: cx + half, y0: cy - half, y1: cy + half });
  }
  return { el, boxes };
}

/**
 * Of the places along a roof's slope (intensities, in order of preference), the one whose label
 * covers least of the boxes taken and stays inside the plot: slopeLabel's { el, boxes }.
 */
export function placeSlopeLabel(f, bw, xs, text, cls, taken, plot, opts) {
  let best = null;
  for (const x of xs) {
    const l = slopeLabel(f, bw, x, text, cls, opts);
    let cost = 0;
    for (const b of l.boxes) cost += boxCost(b, taken, plot);
    if (!best || cost < best.cost) best = { ...l, cost };
    if (cost === 0) break;
  }
  return best;
}

class BenchError extends Error {
  constructor(key, field = '') {
    super(key);
    this.key = key;
    this.field = field;
  }
}

const isNum = (x) => typeof x === 'number' && Number.isFinite(x);
const isPos = (x) => isNum(x) && x > 0;
const isStr = (x) => typeof x === 'string' && x.length > 0 && x.length <= 200;

function ceilings(c, path) {
  if (!c || typeof c !== 'object') throw new BenchError('bench.error.field', path);
  if (!isPos(c.bytesPerSecond)) throw new BenchError('bench.error.field', `${path}.bytesPerSecond`);
  const p = c.peakFlopsPerSecond;
  if (!p || typeof p !== 'object' || Array.isArray(p)) throw new BenchError('bench.error.field', `${path}.peakFlopsPerSecond`);
  const peaks = {};
  for (const [k, v] of Object.entries(p)) {
    if (!isPos(v)) throw new BenchError('bench.error.field', `${path}.peakFlopsPerSecond.${k}`);
    peaks[String(k).slice(0, 16)] = v;
  }
  if (!Object.keys(peaks).length) throw new BenchError('bench.error.field', `${path}.peakFlopsPerSecond`);
  return { bytesPerSecond: c.bytesPerSecond, peakFlopsPerSecond: peaks, levels: levelList(c.levels, `${path}.levels`) };
}

/**
 * The memory levels of a result (ceilings.measured.levels: [{ name, workingSetBytes,
 * bytesPerSecond, kernel }]), smallest working set first; [] where the file has none.
 */
function levelList(list, path) {
  if (list === undefined || list === null) return [];
  if (!Array.isArray(list) || list.length > MAX_LEVELS) throw new BenchError('bench.error.field', path);
  return list.map((l, i) => {
    const p = `${path}[${i}]`;
    if (!l || typeof l !== 'object') throw new BenchError('bench.error.field', p);
    if (!isStr(l.name) || l.name.length > 24) throw new BenchError('bench.error.field', `${p}.name`);
    if (!isPos(l.workingSetBytes)) throw new BenchError('bench.error.field', `${p}.workingSetBytes`);
    if (!isPos(l.bytesPerSecond)) throw new BenchError('bench.error.field', `${p}.bytesPerSecond`);
    if (l.kernel !== undefined && !isStr(l.kernel)) throw new BenchError('bench.error.field', `${p}.kernel`);
    return { name: l.name, workingSetBytes: l.workingSetBytes, bytesPerSecond: l.bytesPerSecond, kernel: l.kernel || '' };
  }).sort((a, b) => a.workingSetBytes - b.workingSetBytes);
}

/**
 * The level a kernel is judged against: the smallest whose working set is at least the kernel's,
 * the largest where the kernel's is larger than all; with no working set, DRAM (else the
 * largest). null where the result has no levels.
 */
export function levelFor(levels, workingSetBytes) {
  if (!levels.length) return null;
  if (isPos(workingSetBytes)) return levels.find((l) => l.workingSetBytes >= workingSetBytes) || levels[levels.length - 1];
  return levels.find((l) => l.name.toUpperCase() === 'DRAM') || levels[levels.length - 1];
}

/** Checks the fields the page relies on; throws BenchError with a translatable key. */
export function validateBench(data) {
  if (!data || typeof data !== 'object' || Array.isArray(data)) throw new BenchError('bench.error.notObject');
  if (data.schema !== 'roofline-bench/1') throw new BenchError('bench.error.schema');
  if (!isStr(data.date) || Number.isNaN(Date.parse(data.date))) throw new BenchError('bench.error.field', 'date');
  if (!data.machine || !isStr(data.machine.name)) throw new BenchError('bench.error.field', 'machine.name');
  if (data.backend !== 'cpu' && data.backend !== 'cuda') throw new BenchError('bench.error.field', 'backend');
  if (!data.ceilings || typeof data.ceilings !== 'object') throw new BenchError('bench.error.field', 'ceilings');
  const measured = ceilings(data.ceilings.measured, 'ceilings.measured');
  const datasheet = data.ceilings.datasheet === null || data.ceilings.datasheet === undefined ? null : ceilings(data.ceilings.datasheet, 'ceilings.datasheet');
  if (!Array.isArray(data.kernels)) throw new BenchError('bench.error.field', 'kernels');
  if (data.kernels.length > MAX_KERNELS) throw new BenchError('bench.error.field', 'kernels');
  const kernels = data.kernels.map((k, i) => {
    const p = `kernels[${i}]`;
    if (!k || typeof k !== 'object') throw new BenchError('bench.error.field', p);
    if (!isStr(k.id)) throw new BenchError('bench.error.field', `${p}.id`);
    if (!isStr(k.name)) throw new BenchError('bench.error.field', `${p}.name`);
    if (!isStr(k.dtype)) throw new BenchError('bench.error.field', `${p}.dtype`);
    if (!isPos(k.flopsPerByte)) throw new BenchError('bench.error.field', `${p}.flopsPerByte`);
    if (!isPos(k.flopsPerSecond)) throw new BenchError('bench.error.field', `${p}.flopsPerSecond`);
    // the precision of its arithmetic (a file without it: the data's)
    if (k.computeDtype !== undefined && !isStr(k.computeDtype)) throw new BenchError('bench.error.field', `${p}.computeDtype`);
    const computeDtype = k.computeDtype === undefined ? k.dtype : k.computeDtype;
    // the bytes it works on, where the file says (which memory level it is judged against)
    if (k.workingSetBytes !== undefined && k.workingSetBytes !== null && !isPos(k.workingSetBytes)) throw new BenchError('bench.error.field', `${p}.workingSetBytes`);
    const workingSetBytes = isPos(k.workingSetBytes) ? k.workingSetBytes : null;
    return { id: k.id, name: k.name, dtype: k.dtype, computeDtype, flopsPerByte: k.flopsPerByte, flopsPerSecond: k.flopsPerSecond, workingSetBytes };
  });
  return { date: data.date, machine: { name: data.machine.name }, backend: data.backend, measured, datasheet, kernels };
}

let lastLoaded = null;

/** The file last loaded in the overlay (validated), or null: the device calculator compares with it. */
export function loadedBench() {
  return lastLoaded;
}

export class BenchOverlay {
  constructor(rl, lang) {
    this.rl = rl;
    this.lang = lang;
    this.data = null;
    this.error = null;
    this.precision = null;
    this.el = h('div', { class: 'bench' });
  }

  setLang(lang) {
    this.lang = lang;
    this.render();
  }

  async loadFile(file) {
    this.error = null;
    try {
      if (!file) return;
      if (file.size > MAX_BYTES) throw new BenchError('bench.error.tooBig');
      const text = await file.text();
      let json;
      try {
        json = JSON.parse(text);
      } catch (e) {
        throw new BenchError('bench.error.json');
      }
      this.data = validateBench(json);
      this.fileName = String(file.name || '').slice(0, 120);
      lastLoaded = this.data;
      document.dispatchEvent(new CustomEvent('roofline-bench-loaded', { detail: this.data }));
      const ps = Object.keys(this.data.measured.peakFlopsPerSecond);
      this.precision = ps.includes('fp32') ? 'fp32' : ps[0];
    } catch (e) {
      if (!(e instanceof BenchError)) console.error(e);
      this.error = e instanceof BenchError ? e : new BenchError('bench.error.json');
      this.data = null;
    }
    this.render();
  }

  render() {
    const lang = this.lang;
    const el = clear(this.el);
    const inputId = 'bench-file';
    const input = h('input', { type: 'file', id: inputId, accept: '.json,application/json', class: 'file-input' });
    input.addEventListener('change', () => this.loadFile(input.files && input.files[0]));
    const drop = h('div', { class: 'drop-zone' },
      h('label', { for: inputId, class: 'file-label' }, t('bench.pick', lang)), input,
      h('p', { class: 'drop-hint' }, t('bench.drop', lang)));
    drop.addEventListener('dragover', (e) => { e.preventDefault(); drop.classList.add('over'); });
    drop.addEventListener('dragleave', () => drop.classList.remove('over'));
    drop.addEventListener('drop', (e) => {
      e.preventDefault();
      drop.classList.remove('over');
      const f = e.dataTransfer && e.dataTransfer.files && e.dataTransfer.files[0];
      this.loadFile(f);
    });
    el.append(drop);
    const status = h('div', { class: 'bench-status', 'aria-live': 'polite' });
    el.append(status);
    if (this.error) {
      status.append(h('p', { class: 'form-error', role: 'alert' }, t(this.error.key, lang, { field: this.error.field })));
      return;
    }
    if (!this.data) {
      status.append(h('p', { class: 'hint' }, t('bench.none', lang)));
      return;
    }
    const d = this.data;
    status.append(h('p', {}, t('bench.loaded', lang, { machine: d.machine.name, date: d.date.slice(0, 10), backend: d.backend.toUpperCase(), n: d.kernels.length })));
    const ps = Object.keys(d.measured.peakFlopsPerSecond);
    const sel = h('select', { id: 'bench-precision', onchange: () => { this.precision = sel.value; this.render(); } },
      ps.map((p) => h('option', { value: p }, p.toUpperCase())));
    sel.value = this.precision;
    el.append(h('div', { class: 'field field-select' }, h('label', { for: 'bench-precision' }, t('bench.precision', lang)), sel));
    el.append(this.chart());
  }

  chart() {
    const { rl, lang, data: d } = this;
    const p = this.precision;
    const rate = isIntegerDtype(rl, p) ? 'opsPerSecond' : 'flopsPerSecond';
    const mPeak = d.measured.peakFlopsPerSecond[p];
    const dPeak = d.datasheet ? d.datasheet.peakFlopsPerSecond[p] : undefined;
    const levels = d.measured.levels;
    const tops = [mPeak, dPeak, ...d.kernels.map((k) => k.flopsPerSecond)].filter(isPos);
    const yTop = 10 ** Math.ceil(Math.log10(Math.max(...tops)) + 0.3);
    // the axes span the kernels and the roofs' ridges, a decade or so around them, not a fixed
    // six decades: a run has dozens of kernels, and their numbers need the room
    const roofs = [
      ...(isPos(dPeak) ? [{ cls: 'datasheet', peak: dPeak, bw: d.datasheet.bytesPerSecond, text: t('bench.datasheet', lang) }] : []),
      { cls: 'measured', peak: mPeak, bw: d.measured.bytesPerSecond, text: t('bench.measured', lang) },
    ];
    const ridgeOf = (peak, bw) => rl.roofline({ peakFlopsPerSecond: peak, bytesPerSecond: bw, flopsPerByte: 1 }).ridgeFlopsPerByte;
    for (const r of roofs) r.ridge = ridgeOf(r.peak, r.bw);
    // one roof per memory level, under the chosen precision's peak
    const levelRoofs = levels.map((l, i) => ({
      level: l, cls: `hier hier-${i % 4}`, peak: mPeak, bw: l.bytesPerSecond, ridge: ridgeOf(mPeak, l.bytesPerSecond),
      text: t('bench.level.label', lang, { name: l.name, bw: format(l.bytesPerSecond, 'bytesPerSecond', lang) }),
    }));
    const xs = [...d.kernels.map((k) => k.flopsPerByte), ...roofs.map((r) => r.ridge), ...levelRoofs.map((r) => r.ridge)];
    const xMin = 10 ** Math.floor(Math.log10(Math.min(...xs) / 1.5));
    const xMax = 10 ** Math.ceil(Math.log10(Math.max(...xs) * 1.5));
    // down to the lowest point or roof (at the left edge)
    const lows = [...d.kernels.map((k) => k.flopsPerSecond), ...roofs.map((r) => r.bw * xMin), ...levelRoofs.map((r) => r.bw * xMin)];
    const yBottom = Math.min(yTop / 1e3, 10 ** Math.floor(Math.log10(Math.min(...lows))));
    const compact = this.el.clientWidth > 0 && this.el.clientWidth < 560;
    const tall = compact && d.kernels.length > 12;
    const levelDesc = levels.length
      ? ` ${t('bench.level.desc', lang, { levels: levels.map((l) => t('bench.level.descOne', lang, { name: l.name, bw: format(l.bytesPerSecond, 'bytesPerSecond', lang), size: binaryBytes(l.workingSetBytes, lang) })).join('; ') })}`
      : '';
    const f = logFrame({
      title: t('bench.chart.title', lang, { machine: d.machine.name }),
      desc: t('bench.chart.desc', lang, { bw: format(d.measured.bytesPerSecond, 'gbps', lang), peak: format(mPeak, rate, lang), n: d.kernels.length }) + levelDesc,
      x: [xMin, xMax], y: [yBottom, yTop],
      xLabel: t('chart.roofline.x', lang), yLabel: t(rate === 'opsPerSecond' ? 'chart.roofline.yOps' : 'chart.roofline.y', lang),
      xFormat: fmtTick('number', lang), yFormat: fmtTick(rate, lang), lang, compact,
      // in a narrow column, a run's dozens of points get a taller plot rather than a smaller one
      height: tall ? 520 : undefined,
    });
    if (tall) f.svg.classList.add('tall');
    const rows = [];
    const LABEL_PX = 13; // the overlay's chart text (page.css)
    const LEVEL_PX = 12; // a level's name along its slope (page.css)
    const R = tall ? 4.5 : 6; // a narrow column's crowded points drawn smaller
    const plot = { x0: f.PAD.l, x1: f.W - f.PAD.r, y0: f.PAD.t, y1: f.H - f.PAD.b };
    const points = d.kernels.map((k, i) => ({ x: f.X(k.flopsPerByte), y: f.Y(k.flopsPerSecond), label: String(i + 1) }));
    // a roof's name goes beside its flat part, above it where there is room (the kernels lie
    // below it), clear of the points and of the other roof's line and name
    const flatX = (r) => Math.min(Math.max(f.X(r.ridge), plot.x0), plot.x1);
    const taken = [
      ...points.map((p) => markerBox(p, R)),
      ...roofs.map((r) => ({ x0: flatX(r), x1: plot.x1, y0: f.Y(r.peak) - 2, y1: f.Y(r.peak) + 2 })),
    ];
    for (const r of levelRoofs) f.plot.append(roofSegments(rl, f, r.peak, r.bw, `roof ${r.cls}`).line);
    for (const r of roofs) f.plot.append(roofSegments(rl, f, r.peak, r.bw, `roof ${r.cls}`).line);
    // a level's name lies along its slope (the levels share the flat part: the peak), where it
    // covers no point and no other level's name
    const levelBoxes = [];
    const lx0 = Math.log10(xMin);
    for (const r of levelRoofs) {
      const lx1 = Math.log10(Math.min(r.ridge, xMax));
      // places tried along the slope, from its middle outwards (twentieths of its length)
      const along = [10, 7, 13, 4, 16, 2, 18].map((q) => 10 ** (lx0 + (q / 20) * (lx1 - lx0)));
      const at = placeSlopeLabel(f, r.bw, along, r.text, `hier-label ${r.cls}`, [...taken, ...levelBoxes], plot, { fontSize: LEVEL_PX });
      f.plot.append(at.el);
      levelBoxes.push(...at.boxes);
    }
    taken.push(...levelBoxes);
    const roofLabels = [...levelBoxes];
    for (const r of roofs) {
      const y = f.Y(r.peak);
      // at the right end, by the ridge or half way; above the line, below it, then a line further
      // out (where kernels sit on the roof itself)
      const along = [{ x: plot.x1 - 4, anchor: 'end' }, { x: flatX(r) + 4, anchor: 'start' }, { x: (flatX(r) + plot.x1) / 2, anchor: 'middle' }];
      const at = placeText(r.text, [-6, 16, -20, 30].flatMap((dy) => along.map((p) => ({ ...p, y: y + dy }))), taken, plot, LABEL_PX);
      f.plot.append(s('text', { class: `roof-label ${r.cls}`, x: at.x, y: at.y, 'text-anchor': at.anchor }, r.text));
      taken.push(at.box);
      roofLabels.push(at.box);
    }
    // points are numbered; the table below names them (a real run has dozens of kernels, many
    // close together: each number goes where it covers no other number or point)
    const sides = labelSides(points, plot, LABEL_PX, roofLabels, R);
    let unsized = null; // the level kernels without a working set are judged against
    d.kernels.forEach((k, i) => {
      f.plot.append(marker(points[i].x, points[i].y, points[i].label, `kernel series-${i % 6}`, sides[i], R));
      // its roof: the ceiling of the precision its arithmetic is in where the run measured one,
      // else the chosen one; its rate in that precision's unit (OPS for integer arithmetic)
      const own = Object.prototype.hasOwnProperty.call(d.measured.peakFlopsPerSecond, k.computeDtype) ? d.measured.peakFlopsPerSecond[k.computeDtype] : undefined;
      const peak = own ?? mPeak;
      const kRate = isIntegerDtype(rl, own !== undefined ? k.computeDtype : p) ? 'opsPerSecond' : 'flopsPerSecond';
      // and the bandwidth of the memory level its working set fits in, where the file has levels
      const level = levelFor(levels, k.workingSetBytes);
      if (level && k.workingSetBytes === null) unsized = level;
      const bw = level ? level.bytesPerSecond : d.measured.bytesPerSecond;
      let util = null;
      let roof = null;
      try {
        roof = rl.roofline({ peakFlopsPerSecond: peak, bytesPerSecond: bw, flopsPerByte: k.flopsPerByte });
        util = rl.utilization({ achievedFlopsPerSecond: k.flopsPerSecond, peakFlopsPerSecond: roof.attainableFlopsPerSecond });
      } catch (e) {
        util = null;
      }
      const kIntensity = kRate === 'opsPerSecond' ? 'opsPerByte' : 'flopsPerByte';
      const row = [`${i + 1}. ${k.name}`, k.dtype.toUpperCase(), format(k.flopsPerByte, kIntensity, lang), format(k.flopsPerSecond, kRate, lang),
        roof ? format(roof.attainableFlopsPerSecond, kRate, lang) : '—',
        util ? (util.possible ? format(util.fraction, 'percent', lang) : t('bench.impossible', lang)) : '—',
        roof ? t(`verdict.${roof.bound}`, lang) : '—'];
      if (level) {
        // without a working set, the level's name alone (the caption says why it is DRAM's)
        row.push(k.workingSetBytes === null ? level.name : t('bench.level.cell', lang, { name: level.name, size: binaryBytes(k.workingSetBytes, lang) }));
      }
      rows.push(row);
    });
    const cols = ['kernel', 'dtype', 'intensity', 'achieved', 'roof', 'utilization', 'bound', ...(levels.length ? ['level'] : [])];
    const caption = unsized
      ? [t('bench.table.caption', lang), ' ', h('span', { class: 'level-note' }, t('bench.level.unsized', lang, { name: unsized.name, bw: format(unsized.bytesPerSecond, 'bytesPerSecond', lang) }))]
      : [t('bench.table.caption', lang)];
    return h('div', { class: 'chart-box' }, f.svg,
      scrollBox(h('table', { class: 'bench-table' },
        h('caption', {}, ...caption),
        h('thead', {}, h('tr', {}, cols.map((c) => h('th', { scope: 'col' }, t(`bench.col.${c}`, lang))))),
        h('tbody', {}, rows.map((r) => h('tr', {}, r.map((c, i) => (i === 0 ? h('th', { scope: 'row' }, c) : h('td', {}, c))))))), t('bench.table.caption', lang)),
      this.roofTable(roofs, levelRoofs, rate));
  }

  /** The chart's roofs as a table: the datasheet's and the measured one, then every memory level. */
  roofTable(roofs, levelRoofs, rate) {
    const { lang } = this;
    const ridgeKind = rate === 'opsPerSecond' ? 'ridgeOpsPerByte' : 'ridgeFlopsPerByte';
    const rows = [
      ...roofs.slice().reverse().map((r) => [r.text, format(r.bw, 'bytesPerSecond', lang), format(r.peak, rate, lang), format(r.ridge, ridgeKind, lang), '—']),
      ...levelRoofs.map((r) => [r.level.name, format(r.bw, 'bytesPerSecond', lang), format(r.peak, rate, lang), format(r.ridge, ridgeKind, lang), binaryBytes(r.level.workingSetBytes, lang)]),
    ];
    return dataTable(t('bench.roofs.caption', lang), t('chart.data', lang),
      ['roof', 'bw', 'peak', 'ridge', 'size'].map((c) => t(`bench.roofs.col.${c}`, lang)), rows);
  }
}
