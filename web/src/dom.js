// Tiny DOM helpers. Text always goes in as text nodes (never as HTML), so values from the URL
// or a dropped file cannot inject markup; no inline style attributes are ever written.

export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  setAttrs(el, attrs);
  appendAll(el, children);
  return el;
}

const SVG_NS = 'http://www.w3.org/2000/svg';
export function s(tag, attrs, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  setAttrs(el, attrs);
  appendAll(el, children);
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
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
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
