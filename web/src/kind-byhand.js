// Calculator 2: multiplying by hand. B sits above, A to the left, and each cell of C where its
// row of A and column of B cross, showing that dot product. The module multiplies and counts MACs.
import { h, clear, setText } from './dom.js';
import { parseNumber } from './parse.js';

const MAX = 6;
const CELL_TEXT = 16;

/** The lesson's purchases (A, one row per person) and prices and grams (B), as numbers. */
export function purchases() {
  const m = startMatrices();
  return { a: m.a.map((r) => r.map(Number)), b: m.b.map((r) => r.map(Number)) };
}

function startMatrices() {
  return {
    a: [['2', '1', '3'], ['1', '0', '2']],
    b: [['50', '200'], ['120', '100'], ['15', '50']],
  };
}

function parseMatrix(text) {
  const rows = String(text).slice(0, 600).split(';').slice(0, MAX)
    .map((r) => r.split(',').slice(0, MAX).map((x) => x.slice(0, CELL_TEXT)));
  const cols = Math.max(...rows.map((r) => r.length));
  if (!rows.length || cols < 1) return null;
  return rows.map((r) => Array.from({ length: cols }, (_, j) => (r[j] === undefined ? '' : r[j])));
}

function resize(mat, rows, cols) {
  const out = [];
  for (let i = 0; i < rows; i += 1) {
    out.push(Array.from({ length: cols }, (_, j) => (mat[i] && mat[i][j] !== undefined ? mat[i][j] : '0')));
  }
  return out;
}

function cellValue(text, lang) {
  const v = parseNumber(text, lang);
  return v;
}

export const byhandKind = {
  kind: 'byhand',
  fields: [],
  rows: [
    { id: 'size', term: 'matmul' },
    { id: 'macs', term: 'mac' },
    { id: 'flops', term: 'flop' },
  ],
  initExtra: startMatrices,
  readUrl(c, params) {
    for (const which of ['a', 'b']) {
      const key = c.key(which);
      if (!params.has(key)) continue;
      const m = parseMatrix(params.get(key));
      if (m) c.state.extra[which] = m;
    }
  },
  writeUrl(c) {
    return ['a', 'b'].map((w) => [c.key(w), c.state.extra[w].map((r) => r.join(',')).join(';')]);
  },
  renderInputsExtra(c, form) {
    c.parts.gridBox = h('div', { class: 'byhand' });
    form.append(c.parts.gridBox);
    buildGrid(c);
  },
  compute(c) {
    const { a, b } = c.state.extra;
    const lang = c.lang;
    // mark cells that are not numbers (the module decides what is wrong; this only points at the cell)
    for (const w of ['a', 'b']) {
      c.parts.cells[w].forEach((row, i) => row.forEach((input, j) => {
        const v = cellValue(c.state.extra[w][i][j], lang);
        if (typeof v === 'number' && Number.isFinite(v)) input.removeAttribute('aria-invalid');
        else input.setAttribute('aria-invalid', 'true');
      }));
    }
    let r = null;
    let err = null;
    try {
      r = c.rl.multiply({ a: a.map((row) => row.map((x) => cellValue(x, lang))), b: b.map((row) => row.map((x) => cellValue(x, lang))) });
    } catch (e) {
      if (!e || !e.code) throw e;
      err = e;
    }
    const int = (x) => c.fmt(x, 'integer');
    const num = (x) => c.fmt(x, 'number');
    const ka = a[0].length;
    const kb = b.length;
    setText(c.parts.message, err ? byhandError(c, err, ka, kb) : '');
    c.parts.message.hidden = !err;
    c.parts.cGrid.classList.toggle('off', Boolean(err));
    c.parts.cCells.forEach((row, i) => row.forEach((cell, j) => {
      if (!r) {
        setText(cell.value, '—');
        setText(cell.dot, '');
        return;
      }
      setText(cell.value, num(r.c[i][j]));
      const terms = [];
      for (let t = 0; t < r.inner; t += 1) terms.push(`${num(cellValue(a[i][t], lang))} × ${num(cellValue(b[t][j], lang))}`);
      setText(cell.dot, terms.join(' + '));
      cell.box.setAttribute('aria-label', c.t('byhand.cellLabel', { i: i + 1, j: j + 1, value: num(r.c[i][j]), dot: terms.join(' + ') }));
    }));
    c.row('size', r && `(${int(a.length)} × ${int(ka)}) · (${int(kb)} × ${int(b[0].length)})`, r && `${int(r.rows)} × ${int(r.cols)}`);
    c.row('macs', r && `${int(r.rows)} × ${int(r.cols)} × ${int(r.inner)}`, r && r.macs, 'integer');
    c.row('flops', r && `2 × ${int(r.macs)}`, r && r.flops, 'integer');
    setText(c.parts.macCounter, r ? c.t('byhand.counter', { macs: int(r.macs), flops: int(r.flops) }) : c.t('byhand.counterNone'));
    c.summary(r ? c.t('byhand.summary', { rows: int(r.rows), cols: int(r.cols), macs: int(r.macs) }) : c.parts.message.textContent);
  },
};

/**
 * The module's error, in a learner's words: which matrix, and what to type instead. A cell that
 * reads as infinite (1e400, Infinity) is too large; NaN, text and empty cells want a number.
 */
function byhandError(c, err, ka, kb) {
  const int = (x) => c.fmt(x, 'integer');
  if (err.code === 'shape_mismatch') return c.t('byhand.mismatch', { acols: int(ka), brows: int(kb) });
  if (err.code === 'too_large') return c.t('byhand.error.resultTooLarge');
  const w = err.field === 'b' ? 'b' : 'a';
  const matrix = w.toUpperCase();
  if (err.code === 'ragged_matrix') return c.t('byhand.error.ragged', { matrix });
  if (err.code === 'not_a_number' || err.code === 'not_finite') {
    // the first cell that is not a finite number, row by row, as the module reads them
    const first = c.state.extra[w].flat().map((x) => cellValue(x, c.lang)).find((v) => typeof v !== 'number' || !Number.isFinite(v));
    const huge = first === Infinity || first === -Infinity;
    return c.t(huge ? 'byhand.error.tooLarge' : 'byhand.error.notANumber', { matrix });
  }
  return c.t('byhand.error.other', { matrix });
}

function buildGrid(c) {
  const box = c.parts.gridBox;
  const focused = c.root && c.root.activeElement && c.root.activeElement.dataset ? c.root.activeElement.dataset.action : null;
  clear(box);
  const { a, b } = c.state.extra;
  c.parts.cells = { a: [], b: [] };
  const change = (w, fn) => () => {
    fn(c.state.extra);
    buildGrid(c);
    c.update();
  };
  const ctl = (w, what, label, fn, disabled) => h('button', {
    type: 'button', class: 'mini', 'data-action': `${w}-${what}`, 'aria-label': c.tr(`byhand.ctl.${what}`, { m: w.toUpperCase() }),
    title: c.tr(`byhand.ctl.${what}`, { m: w.toUpperCase() }), disabled, onclick: change(w, fn),
  }, label);
  const controls = (w) => {
    const m = c.state.extra[w];
    return h('div', { class: 'mat-controls', role: 'group', 'aria-label': c.tr('byhand.controls', { m: w.toUpperCase(), rows: m.length, cols: m[0].length }) },
      h('span', { class: 'mat-size', 'aria-hidden': 'true' }, `${w.toUpperCase()}: ${m.length} × ${m[0].length}`),
      ctl(w, 'addRow', '+ ↓', (s) => { s[w] = resize(s[w], s[w].length + 1, s[w][0].length); }, m.length >= MAX),
      ctl(w, 'removeRow', '− ↓', (s) => { s[w] = resize(s[w], s[w].length - 1, s[w][0].length); }, m.length <= 1),
      ctl(w, 'addCol', '+ →', (s) => { s[w] = resize(s[w], s[w].length, s[w][0].length + 1); }, m[0].length >= MAX),
      ctl(w, 'removeCol', '− →', (s) => { s[w] = resize(s[w], s[w].length, s[w][0].length - 1); }, m[0].length <= 1));
  };
  // One CSS grid for the three matrices, so that each cell of C shares its row with the row of A
  // and its column with the column of B that make it. Positions are set through element.style,
  // which the strict CSP allows (no style attribute is written from markup).
  const ka = a[0].length;
  const kb = b.length;
  const n = a.length;
  const mcols = b[0].length;
  const grid = h('div', { class: 'bh-grid' });
  // (widths from the style sheet, which narrows them on a phone so that A, B and C fit)
  grid.style.gridTemplateColumns = `repeat(${ka}, var(--bh-a)) var(--bh-gap) repeat(${mcols}, minmax(var(--bh-c), max-content))`;
  const place = (el, row, col, rowSpan = 1, colSpan = 1) => {
    el.style.gridRow = `${row} / span ${rowSpan}`;
    el.style.gridColumn = `${col} / span ${colSpan}`;
    grid.append(el);
    return el;
  };
  const cCol = ka + 2;
  const cells = (w, rowStart, colStart) => {
    const m = c.state.extra[w];
    m.forEach((row, i) => {
      c.parts.cells[w][i] = [];
      row.forEach((text, j) => {
        const input = h('input', {
          type: 'text', inputmode: 'decimal', class: ['cell', `cell-${w}`], autocomplete: 'off', size: 6,
          'aria-label': c.tr('byhand.cell', { m: w.toUpperCase(), i: i + 1, j: j + 1 }),
          'data-row': i, 'data-col': j,
        });
        input.value = text;
        input.addEventListener('input', () => {
          c.state.extra[w][i][j] = input.value.slice(0, CELL_TEXT * 4);
          c.update();
          showIndex(c, w, i, j);
        });
        input.addEventListener('focus', () => showIndex(c, w, i, j));
        input.addEventListener('mouseenter', () => showIndex(c, w, i, j));
        c.parts.cells[w][i][j] = input;
        place(input, rowStart + i, colStart + j);
      });
    });
  };
  c.parts.macCounter = h('p', { class: 'mac-counter', 'aria-live': 'polite' });
  const reset = h('button', {
    type: 'button', class: 'secondary', 'data-action': 'reset',
    onclick: () => {
      c.state.extra = startMatrices();
      buildGrid(c);
      c.update();
    },
  }, c.tr('byhand.reset'));
  place(h('div', { class: 'bh-corner' }, reset, c.parts.macCounter), 1, 1, kb + 1, ka);
  place(h('div', { class: 'bh-head' }, h('p', { class: 'mat-name' }, c.tr('byhand.matrix.b')), controls('b')), 1, cCol, 1, mcols);
  cells('b', 2, cCol);
  place(h('div', { class: 'bh-head' }, h('p', { class: 'mat-name' }, c.tr('byhand.matrix.a')), controls('a')), kb + 2, 1, 1, ka);
  place(h('div', { class: 'bh-head' }, h('p', { class: 'mat-name' }, c.tr('byhand.matrix.c'))), kb + 2, cCol, 1, mcols);
  cells('a', kb + 3, 1);
  c.parts.cCells = [];
  for (let i = 0; i < n; i += 1) {
    c.parts.cCells[i] = [];
    for (let j = 0; j < mcols; j += 1) {
      const value = h('span', { class: 'c-value' });
      const dot = h('span', { class: 'c-dot' });
      const boxEl = h('div', { class: 'c-cell', tabindex: 0, 'data-row': i, 'data-col': j }, value, dot);
      const on = () => highlight(c, i, j, true);
      const off = () => highlight(c, i, j, false);
      boxEl.addEventListener('mouseenter', on);
      boxEl.addEventListener('mouseleave', off);
      boxEl.addEventListener('focus', on);
      boxEl.addEventListener('blur', off);
      c.parts.cCells[i][j] = { box: boxEl, value, dot };
      place(boxEl, kb + 3 + i, cCol + j);
    }
  }
  c.parts.cGrid = grid;
  c.parts.message = h('p', { class: 'byhand-message', role: 'alert', hidden: true });
  // a cell's place in both notations: A₁₃ (row 1, column 3, counted from 1) is A[0][2] in Python
  c.parts.indexLine = h('p', { class: 'cell-index hint', 'aria-live': 'polite', 'data-cell-index': '' });
  box.append(grid, c.parts.indexLine, c.parts.message);
  // at first the lesson's example, row 1 and column 3 of A, where A has them
  if (a.length >= 1 && a[0].length >= 3) showIndex(c, 'a', 0, 2);
  else showIndex(c, 'a', 0, 0);
  if (focused) {
    const el = box.querySelector(`[data-action="${focused}"]`);
    if (el && !el.disabled) el.focus();
  }
}

const SUBSCRIPT = ['₀', '₁', '₂', '₃', '₄', '₅', '₆', '₇', '₈', '₉'];
const sub = (n) => String(n).split('').map((d) => SUBSCRIPT[Number(d)]).join('');

/** Says where a cell of A or B is, in the lesson's notation (from 1) and in Python's (from 0). */
function showIndex(c, w, i, j) {
  if (!c.parts.indexLine) return;
  const m = w.toUpperCase();
  const cell = c.state.extra[w] && c.state.extra[w][i];
  const value = cell ? String(cell[j] ?? '').trim() : '';
  c.parts.indexLine.textContent = c.tr('byhand.index', {
    m, i: String(i + 1), j: String(j + 1), math: `${m}${sub(i + 1)}${sub(j + 1)}`, python: `${m}[${i}][${j}]`, value: value || '—',
  });
}

function highlight(c, i, j, on) {
  c.parts.cCells[i][j].box.classList.toggle('hot', on);
  (c.parts.cells.a[i] || []).forEach((x) => x.classList.toggle('hot', on));
  c.parts.cells.b.forEach((row) => row[j] && row[j].classList.toggle('hot', on));
}
