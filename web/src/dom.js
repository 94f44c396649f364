// Tiny DOM helpers. Text always goes in as text nodes (never as HTML), so values from the URL
// or a dropped file cannot inject markup; no inline style attributes are ever written.
import { VNode, VElement, SVG_NS } from './vdom.js';

export function h(tag, attrs, ...children) {
  const el = virtual ? new VElement(tag) : document.createElement(tag);
  setAttrs(el, attrs);
  appendAll(el, children);
  return el;
}

export function s(tag, attrs, ...children) {
  const el = virtual ? new VElement(tag, SVG_NS) : document.createElementNS(SVG_NS, tag);
  setAttrs(el, attrs);
  appendAll(el, children);
  return el;
}

// ---- virtual nodes ---------------------------------------------------------------------------
// While a chart is drawn again over the one in the page (charts.js: frameIn keeps its frame, then
// showChart compares), h() and s() build plain objects (vdom.js) instead of elements that would
// be compared once and thrown away: the page gets only what differs, and elements are made (real)
// only for what is new.
let virtual = false;

/** From now on h() and s() build virtual nodes (on) or elements (off). */
export function buildVirtual(on) {
  virtual = Boolean(on);
}

/**
 * A node for the page: the node itself, or the element or text node a virtual node or a string
 * describes. (At build time the page's nodes are virtual ones too, web/prerender.mjs's: the
 * context's Node, which they are instances of, keeps them as they are.)
 */
export function real(node) {
  if (typeof node === 'string') return document.createTextNode(node);
  if (node instanceof Node || !(node instanceof VNode)) return node;
  if (node.nodeType === 3) return document.createTextNode(node.data);
  const el = node.namespaceURI ? document.createElementNS(node.namespaceURI, node.localName) : document.createElement(node.localName);
  for (const { name, value } of node.attributes) el.setAttribute(name, value);
  if (node.listeners) for (const [type, fn] of node.listeners) el.addEventListener(type, fn);
  for (const c of node.childNodes) el.append(real(c));
  return el;
}

function setAttrs(el, attrs) {
  if (!attrs) return;
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'style') throw new Error('inline styles are not allowed (strict CSP)');
    if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (k === 'class') el.setAttribute('class', Array.isArray(v) ? v.filter(Boolean).join(' ') : v);
    else if (k === 'text') el.textContent = v;
    else el.setAttribute(k, v === true ? '' : String(v));
  }
}

function appendAll(el, children) {
  for (const c of children.flat(Infinity)) {
    if (c === undefined || c === null || c === false) continue;
    const node = c instanceof Node || c instanceof VNode ? c : String(c);
    el.append(el instanceof VElement ? node : real(node));
  }
}

let uid = 0;
export function nextId(prefix) {
  uid += 1;
  return `${prefix}-${uid}`;
}

/**
 * Sets an element's text, writing only when it changed, and into its one text node when it has
 * one: an input change that leaves a result as it was does not lay it out again.
 */
export function setText(el, text) {
  const first = el.firstChild;
  if (first && first === el.lastChild && first.nodeType === 3) {
    if (first.data !== text) first.data = text;
  } else if (first || text !== '') {
    el.textContent = text;
  }
}

/** Empties an element; a node marked rooflineKeep stays first (a shadow root's own styles). */
export function clear(el) {
  const keep = el.firstChild && el.firstChild.rooflineKeep ? el.firstChild : null;
  while (el.lastChild && el.lastChild !== keep) el.lastChild.remove();
  return el;
}

/**
 * A way back to the control `a` once what holds it has been drawn again: a function of the new
 * root that focuses the control drawn in its place, with the same caret, or null where there is
 * no telling which that is. It is found by what the page draws the same every time: a
 * calculator's field (its text input or slider) or select, a language button, a link by its
 * address, and, with `buttonsByClass`, a button by its first class (inside one calculator, where
 * each class is one button).
 */
export function focusReturn(a, { buttonsByClass = false } = {}) {
  if (!a || !a.localName) return null;
  // (a field's own text input or slider; a glossary tip in its label is not the field)
  const field = a.localName === 'input' ? a.closest('.field[data-field]') : null;
  let selector = null;
  if (field) selector = `.field[data-field="${CSS.escape(field.dataset.field)}"] ${a.classList.contains('slider') ? 'input.slider' : 'input[name]'}`;
  else if (a.localName === 'select' && a.name) selector = `select[name="${CSS.escape(a.name)}"]`;
  else if (a.localName === 'button' && a.dataset.lang) selector = `button[data-lang="${CSS.escape(a.dataset.lang)}"]`;
  else if (a.localName === 'a' && a.getAttribute('href')) selector = `a[href="${CSS.escape(a.getAttribute('href'))}"]`;
  else if (buttonsByClass && a.localName === 'button' && a.classList.length) selector = `button.${CSS.escape(a.classList[0])}`;
  if (!selector) return null;
  const range = typeof a.selectionStart === 'number' ? [a.selectionStart, a.selectionEnd] : null;
  return (root) => {
    const el = root.querySelector(selector);
    if (!el) return;
    el.focus();
    if (range && typeof el.setSelectionRange === 'function') el.setSelectionRange(...range);
  };
}
