// Nodes as plain objects, with members of the browser's DOM: one set of classes for two uses.
// - In the browser, a chart drawn again over the one in the page (dom.js, buildVirtual): h() and
//   s() build these instead of elements, showChart (charts.js) compares them with the page's
//   nodes (nodeType, nodeName, localName, data, attributes by index, hasAttribute, childNodes),
//   and real() (dom.js) makes elements only for what is new, with their listeners.
// - At build time, the document the page's code runs against in Node to prerender the first
//   screen and the snippets (web/prerender.mjs). The members only that needs (firstChild,
//   getAttribute, classList, a form control's value …), its shadow roots and its HTML are added
//   there, so that the page's script does not carry them.
// An element's attributes are an array of { name, value } in the order they were first set, as
// the DOM's `attributes`. No imports and nothing of the browser's: it runs in both.

export const SVG_NS = 'http://www.w3.org/2000/svg';

export class VNode {
  constructor(nodeType, nodeName) {
    this.nodeType = nodeType;
    this.nodeName = nodeName;
    this.parentNode = null;
  }

  /** Appends nodes, and strings (or other values) as text; a node is taken from where it was. */
  append(...nodes) {
    const list = this.childNodes;
    for (let n of nodes) {
      if (n === null || typeof n !== 'object') n = new VText(String(n));
      else if (n.parentNode) n.remove();
      list.push(n);
      n.parentNode = this;
    }
  }

  remove() {
    const p = this.parentNode;
    if (!p) return;
    p.childNodes.splice(p.childNodes.indexOf(this), 1);
    this.parentNode = null;
  }

  set textContent(text) {
    for (const c of this.childNodes) c.parentNode = null;
    this.childNodes.length = 0;
    if (text != null && text !== '') this.append(String(text)); // (null and undefined: none)
  }

  // kept for real() to give the element it makes (never called here)
  addEventListener(type, fn) {
    (this.listeners || (this.listeners = [])).push([type, fn]);
  }
}

export class VText extends VNode {
  constructor(data) {
    super(3, '#text');
    this.data = data;
  }
}

/** The attribute of `el` named `name`, or undefined. */
function attribute(el, name) {
  const list = el.attributes;
  for (let i = 0; i < list.length; i += 1) if (list[i].name === name) return list[i];
  return undefined;
}

export class VElement extends VNode {
  /** An HTML element (namespaceURI null) or one of `namespaceURI` (SVG_NS). */
  constructor(localName, namespaceURI = null) {
    super(1, namespaceURI ? localName : localName.toUpperCase()); // as the DOM names an SVG and an HTML element
    this.localName = localName;
    this.namespaceURI = namespaceURI;
    this.childNodes = [];
    this.attributes = [];
    this.listeners = null;
  }

  // (an HTML element's attribute names in lower case, as the DOM keeps them)
  setAttribute(name, value) {
    const n = this.namespaceURI ? name : name.toLowerCase();
    const a = attribute(this, n);
    if (a) a.value = String(value);
    else this.attributes.push({ name: n, value: String(value) });
  }

  hasAttribute(name) {
    return attribute(this, name) !== undefined;
  }
}
