// The served page's first screen as HTML, made at build time by the page's own code (a bundle of
// web/src/prerender.js) and the WebAssembly module, in Node: the header, the contents and the
// first calculator with its results, so that the browser paints them with the HTML instead of
// after three scripts, the module and the texts. The page's scripts then take over what is there
// (web/src/page.js, element.js). Every figure in it comes from the module, as on the page.
//
// The same for every calculator alone (prerenderCalculators): the snippets authors paste into a
// page (snippets/<kind>.<lang>.html, docs/embedding.md), charts included.
//
// The code runs against a small document made here of web/src/vdom.js's nodes, the ones the page
// draws a chart with again in the browser, given here the members only the build needs (enough
// for what that code touches; anything else throws, and so does an error the code would only
// log, so a change that needs more fails the build, not the page).
import { createRequire } from 'node:module';
import { Script, createContext } from 'node:vm';
import { VNode, VText, VElement, SVG_NS } from './src/vdom.js';

/**
 * Gives vdom.js's class `target` the members of `source` (an accessor keeps the half it has and
 * `source` lacks: vdom.js's nodes set textContent, the build's read it too). Those members are
 * the build's alone: the page's script, which carries its own copy of vdom.js, goes without.
 */
function addMembers(target, source) {
  for (const [name, d] of Object.entries(Object.getOwnPropertyDescriptors(source.prototype))) {
    if (name === 'constructor') continue;
    const had = Object.getOwnPropertyDescriptor(target.prototype, name);
    if (had && (d.get || d.set)) Object.assign(d, { get: d.get || had.get, set: d.set || had.set });
    Object.defineProperty(target.prototype, name, d);
  }
}

addMembers(VNode, class {
  get firstChild() {
    return this.childNodes[0] || null;
  }

  get lastChild() {
    return this.childNodes[this.childNodes.length - 1] || null;
  }

  get parentElement() {
    return this.parentNode instanceof VElement ? this.parentNode : null;
  }

  prepend(...nodes) {
    this.replaceChildren(...nodes, ...this.childNodes.filter((c) => !nodes.includes(c)));
  }

  replaceChildren(...nodes) {
    this.textContent = '';
    this.append(...nodes);
  }

  appendChild(node) {
    this.append(node);
    return node;
  }

  get textContent() {
    return this.childNodes.map((n) => n.textContent).join('');
  }

  removeEventListener() {}

  dispatchEvent() {
    return true;
  }

  querySelector(selector) {
    return this.querySelectorAll(selector)[0] || null;
  }

  /** Simple selectors only (a tag and classes: "details.chart-data"); anything else throws. */
  querySelectorAll(selector) {
    const m = /^([a-z][a-z0-9-]*)?((?:\.[\w-]+)*)$/i.exec(String(selector).trim());
    if (!m || (!m[1] && !m[2])) throw new Error(`prerender: selector "${selector}" is not supported at build time`);
    const tag = m[1] ? m[1].toLowerCase() : null;
    const classes = m[2].split('.').filter(Boolean);
    const found = [];
    const walk = (node) => {
      for (const c of node.childNodes) {
        if (!(c instanceof VElement)) continue;
        if ((!tag || c.localName === tag) && classes.every((x) => c.classList.contains(x))) found.push(c);
        walk(c);
      }
    };
    walk(this);
    return found;
  }
});

const NO_CHILDREN = Object.freeze([]);

addMembers(VText, class {
  get childNodes() {
    return NO_CHILDREN;
  }

  get nodeValue() {
    return this.data;
  }

  set nodeValue(v) {
    this.data = String(v);
  }

  get textContent() {
    return this.data;
  }

  set textContent(v) {
    this.data = String(v);
  }
});

/** An element's classes, read from and written to its class attribute. */
class ClassList {
  constructor(el) {
    this.el = el;
  }

  contains(c) {
    return (this.el.getAttribute('class') || '').split(/\s+/).includes(c);
  }

  add(...cs) {
    for (const c of cs) this.toggle(c, true);
  }

  remove(...cs) {
    for (const c of cs) this.toggle(c, false);
  }

  toggle(c, force) {
    const list = (this.el.getAttribute('class') || '').split(/\s+/).filter(Boolean);
    const on = force === undefined ? !list.includes(c) : Boolean(force);
    const next = list.filter((x) => x !== c);
    if (on) next.push(c);
    this.el.setAttribute('class', next.join(' '));
    return on;
  }
}

const dataName = (k) => `data-${String(k).replace(/[A-Z]/g, (m) => `-${m.toLowerCase()}`)}`;

addMembers(VElement, class {
  get tagName() {
    return this.nodeName;
  }

  getAttribute(name) {
    const a = this.attributes.find((x) => x.name === name);
    return a ? a.value : null;
  }

  removeAttribute(name) {
    const i = this.attributes.findIndex((x) => x.name === name);
    if (i >= 0) this.attributes.splice(i, 1);
  }

  get id() {
    return this.getAttribute('id') || '';
  }

  get hidden() {
    return this.hasAttribute('hidden');
  }

  set hidden(v) {
    if (v) this.setAttribute('hidden', '');
    else this.removeAttribute('hidden');
  }

  get classList() {
    return new ClassList(this);
  }

  get dataset() {
    return new Proxy({}, {
      get: (t, k) => this.getAttribute(dataName(k)) ?? undefined,
      set: (t, k, v) => {
        this.setAttribute(dataName(k), String(v));
        return true;
      },
    });
  }

  // an input's value is written as its value attribute: what the browser shows, and the default
  // value the page compares with to find what the reader typed before it took over
  get value() {
    if (this.localName === 'textarea') return this.textContent;
    if (this.localName === 'select') {
      const options = this.options;
      const chosen = options.find((o) => o.hasAttribute('selected')) || options[0];
      return chosen ? chosen.value : '';
    }
    return this.getAttribute('value') ?? '';
  }

  // a select's choice is written as its option's selected attribute, as the browser reads it
  set value(v) {
    if (this.localName === 'select') {
      for (const o of this.options) {
        if (o.value === String(v)) o.setAttribute('selected', '');
        else o.removeAttribute('selected');
      }
      return;
    }
    if (this.localName === 'textarea') {
      this.textContent = String(v);  // a textarea's default value is its text
      return;
    }
    if (this.localName !== 'input') throw new Error(`prerender: value of <${this.localName}> is not supported at build time`);
    this.setAttribute('value', String(v));
  }

  get options() {
    if (this.localName !== 'select') throw new Error(`prerender: options of <${this.localName}>`);
    // its options, those inside an <optgroup> included, in document order
    const out = [];
    for (const n of this.childNodes) {
      if (!(n instanceof VElement)) continue;
      if (n.localName === 'option') out.push(n);
      else if (n.localName === 'optgroup') out.push(...n.childNodes.filter((o) => o instanceof VElement && o.localName === 'option'));
    }
    return out;
  }

  focus() {}

  get shadowRoot() {
    return this.shadow || null;
  }

  attachShadow({ mode }) {
    if (this.shadow) throw new Error('prerender: shadow root attached twice');
    this.shadow = new ShadowRoot(mode);
    return this.shadow;
  }
});

/** A shadow root, written as a declarative shadow root (<template shadowrootmode>: toHtml). */
class ShadowRoot extends VNode {
  constructor(mode) {
    super(11, '#document-fragment');
    this.childNodes = [];
    this.mode = mode;
  }
}

const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);
const escapeText = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\u00a0/g, '&nbsp;');
const escapeAttr = (s) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/\u00a0/g, '&nbsp;');

/** The HTML of `node`'s children. */
function innerHtml(node, opts) {
  return node.childNodes.map((n) => toHtml(n, opts)).join('');
}

/**
 * `node` as HTML. A shadow root is written as a declarative shadow root (<template
 * shadowrootmode>) holding `opts.style` (the calculator's style sheet as a link, allowed by a
 * strict CSP, and render-blocking in Chromium; or a <style>) and the content, hidden until that
 * sheet says otherwise (calculator.css shows [data-prerendered]), so that no browser paints it
 * unstyled; the content is marked with its language `opts.lang` (what the element compares
 * before it carries the reader's typing over).
 */
function toHtml(node, opts) {
  if (node.nodeType === 3) return escapeText(node.data);
  if (node.nodeType === 11) {
    return `<template shadowrootmode="${node.mode}">${opts.style}<div data-prerendered lang="${escapeAttr(opts.lang)}" hidden>${innerHtml(node, opts)}</div></template>`;
  }
  if (node.nodeType !== 1) throw new Error(`prerender: a node of type ${node.nodeType} cannot be written as HTML`);
  const attrs = node.attributes.map(({ name, value }) => (value === '' ? ` ${name}` : ` ${name}="${escapeAttr(value)}"`)).join('');
  if (VOID.has(node.localName) && node.namespaceURI !== SVG_NS) return `<${node.localName}${attrs}>`;
  const shadow = node.shadowRoot ? toHtml(node.shadowRoot, opts) : '';
  return `<${node.localName}${attrs}>${shadow}${innerHtml(node, opts)}</${node.localName}>`;
}

/** The file the served page's prerendered shadow roots link to (calculator.css, beside the page). */
export const PRERENDER_CSS = 'roofline-calculator.css';

function makeDocument() {
  const documentElement = new VElement('html');
  return {
    documentElement,
    title: '',
    activeElement: null,
    currentScript: null,
    createElement: (tag) => new VElement(String(tag).toLowerCase()),
    createElementNS: (ns, tag) => {
      if (ns !== SVG_NS) throw new Error(`prerender: elements of ${ns} are not supported at build time`);
      return new VElement(String(tag), SVG_NS);
    },
    createTextNode: (text) => new VText(String(text)),
    addEventListener() {},
    removeEventListener() {},
    getElementById() {
      return null;
    },
  };
}

/**
 * The bundle of web/src/prerender.js run in a fresh context with a small document, in `lang`.
 * Its animation frames are queued, for `flush()` to run (a chart is drawn in one); timers and
 * idle callbacks never run.
 */
function runBundle(code, lang) {
  const document = makeDocument();
  const url = `http://localhost/index.html?lang=${lang}`;
  const noop = () => {};
  const frames = [];
  const context = createContext({
    // (Node: vdom.js's, which the document's nodes are, so that dom.js's real() keeps them as they are)
    document, Node: VNode, HTMLElement: VElement, URL, URLSearchParams,
    // an error the page's code would only log (a chart that failed to draw) fails the build
    // (an Error made inside the context is of its own realm: recognised by its stack, kept whole)
    console: { ...console, error: (...args) => { throw args.find((a) => a && typeof a === 'object' && 'stack' in a) || new Error(`prerender: ${args.join(' ')}`); } },
    location: { href: url, search: `?lang=${lang}`, hash: '' },
    navigator: { languages: [lang], language: lang },
    requestAnimationFrame: (fn) => frames.push(fn), requestIdleCallback: noop, setTimeout: noop, clearTimeout: noop,
  });
  new Script(code, { filename: 'roofline-prerender.js' }).runInContext(context);
  const flush = () => {
    for (let i = 0; frames.length; i += 1) {
      if (i > 100) throw new Error('prerender: animation frames keep asking for more');
      frames.shift()(0);
    }
  };
  return { context, flush };
}

/**
 * `node` as HTML (`outer`), or its children, with `style` (the calculator's styles: a <link> or a
 * <style>) first in each shadow root, and each prerendered copy marked with its language `lang`.
 */
function serialize(node, { style, lang, outer }) {
  const opts = { style, lang };
  return outer ? toHtml(node, opts) : innerHtml(node, opts);
}

const modules = new Map();
/** The module built at `modulePath` (roofline.js), created once for all the prerenders. */
function core(modulePath) {
  if (!modules.has(modulePath)) modules.set(modulePath, createRequire(import.meta.url)(modulePath)());
  return modules.get(modulePath);
}

/**
 * Runs `code` (the bundle of web/src/prerender.js) with the module built at `modulePath`
 * (roofline.js) in `lang`, and returns { html(style): the content of <div id="lab"> with `style`
 * (the calculator's styles: a <link> or a <style>) first in each shadow root, lang, kinds: the
 * calculators in it }.
 */
export async function prerender(code, modulePath, lang, { idSuffix = '' } = {}) {
  const rl = await core(modulePath);
  const { context } = runBundle(code, lang);
  const render = context.__rooflinePrerender;
  if (typeof render !== 'function') throw new Error('prerender: the bundle provided no __rooflinePrerender');
  const root = new VElement('div');
  const { kinds } = render(rl, root);
  if (!kinds.length) throw new Error('prerender: the first screen has no calculator');
  if (idSuffix) suffixIds(root, idSuffix);
  return { html: (style) => serialize(root, { style, lang, outer: false }), lang, kinds: [...kinds] };
}

const ID_REFS = ['for', 'aria-labelledby', 'aria-describedby', 'aria-controls', 'aria-owns'];

/**
 * Gives every id of `root`'s light DOM (not its shadow roots: each has ids of its own) `suffix`,
 * and the references to them (href="#id", for, aria-labelledby, ...) with them: several copies of
 * the first screen, one per language, sit in one document, and an id must name one element (a
 * section's name, the skip link's target). The page's code gives the copy it keeps its plain ids.
 */
function suffixIds(root, suffix) {
  const elements = [];
  const walk = (node) => {
    for (const c of node.childNodes) {
      if (!(c instanceof VElement)) continue;
      elements.push(c);
      walk(c);
    }
  };
  walk(root);
  const ids = new Set(elements.filter((e) => e.id).map((e) => e.id));
  const rename = (id) => (ids.has(id) ? `${id}${suffix}` : id);
  for (const e of elements) {
    if (e.id) e.setAttribute('id', rename(e.id));
    for (const name of ID_REFS) {
      const v = e.getAttribute(name);
      if (v) e.setAttribute(name, v.split(/\s+/).map(rename).join(' '));
    }
    const href = e.getAttribute('href');
    if (href && href.startsWith('#')) e.setAttribute('href', `#${rename(href.slice(1))}`);
  }
}

/**
 * One <roofline-calculator kind lang> per entry of `list` ({ kind, lang }), each holding its
 * calculator with the lesson's default inputs and its chart, drawn by the same bundle and module,
 * in a declarative shadow root (`style` first in it): what an author pastes into a page for the
 * calculator to show before its script has run. Returns the HTML of each, in order.
 */
export async function prerenderCalculators(code, modulePath, list, style) {
  const rl = await core(modulePath);
  return list.map(({ kind, lang }) => {
    const { context, flush } = runBundle(code, lang);
    const render = context.__rooflinePrerenderCalculator;
    if (typeof render !== 'function') throw new Error('prerender: the bundle provided no __rooflinePrerenderCalculator');
    const host = new VElement('roofline-calculator');
    host.setAttribute('kind', kind);
    host.setAttribute('lang', lang);
    render(rl, host, kind, lang);
    flush();
    return serialize(host, { style, lang, outer: true });
  });
}
