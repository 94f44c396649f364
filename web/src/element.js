// <roofline-calculator kind="decode" lang="es">: one calculator, usable on any page. It loads
// roofline.js (next to this script) when the page has not loaded it, renders in a shadow root
// with a constructed stylesheet (no inline styles: works under a strict CSP), and follows its
// lang attribute.
import { CALC_CSS } from './data.js';
import { h, clear, focusReturn } from './dom.js';
import { t, detectLang, normalizeLang, hasLang, loadTexts } from './i18n.js';
import { Calc } from './calc.js';
import { PRESET_ATTRIBUTES } from './calc-presets.js';
import { KIND_NAMES } from './kinds.js';
import { DEFS as FIRST_DEFS } from './kinds-first.js';
import { MORE, loadMore, haveMore } from './more.js';
import { besideScript, injectScript } from './load.js';

// Every kind the element knows (kinds.js): the first ones here, the others with the page's later
// parts (more.js).
export { KIND_NAMES };
export const FIRST_KINDS = FIRST_DEFS;

/** Whether a kind's code and texts come with the later parts (more.js). */
function needsMore(kind) {
  return kind === 'exercise' || kind === 'question' || (KIND_NAMES.includes(kind) && !FIRST_KINDS[kind]);
}

let modulePromise = null;

/**
 * The module, created once per page. The served page loads roofline-web.js, which fetches
 * roofline.wasm beside it; where that fails (a page opened from file://), the self-contained
 * roofline.js takes over.
 */
export function loadModule() {
  if (!modulePromise) {
    modulePromise = (async () => {
      if (typeof globalThis.createRoofline !== 'function') await injectScript(besideScript('roofline.js'));
      try {
        return await globalThis.createRoofline();
      } catch (e) {
        if (!globalThis.createRoofline.split) throw e;
        await injectScript(besideScript('roofline.js'));
        return globalThis.createRoofline();
      }
    })();
  }
  return modulePromise;
}

/**
 * The texts of a language: here already in the bundles that carry all three; on the served
 * page, its first part loaded once when the language is first used, and its second part too
 * once the page's later parts are here (more.js).
 */
export function ensureLang(lang) {
  return loadTexts(lang, 'first').then(() => (haveMore() ? loadTexts(lang, 'more') : undefined));
}

/** What a calculator of `kind` in `lang` needs besides the module: its texts, and its code. */
function textsAndCode(kind, lang) {
  return Promise.all([ensureLang(lang), needsMore(kind) ? loadMore(lang) : null]);
}

let sheet = null;
export function calcSheet() {
  if (!sheet) {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(CALC_CSS);
  }
  return sheet;
}

/**
 * The calculator's styles in its shadow root: the one constructed sheet every calculator shares,
 * or where the browser cannot construct one (Safari before 16.4) a <style> of its own, first in
 * the root, which clear() keeps. A page whose CSP refuses inline styles refuses that <style>: the
 * calculator then works unstyled.
 */
function styleRoot(root) {
  if ('adoptedStyleSheets' in root) {
    try {
      root.adoptedStyleSheets = [calcSheet()];
      return;
    } catch (e) {
      /* no constructed style sheets: below */
    }
  }
  const style = document.createElement('style');
  style.textContent = CALC_CSS;
  style.rooflineKeep = true;
  root.prepend(style);
}

export function elementLang(el) {
  const own = normalizeLang(String(el.getAttribute('lang') || '').split('-')[0]);
  if (own) return own;
  const up = el.parentElement && el.parentElement.closest('[lang]');
  const inherited = up && normalizeLang(String(up.getAttribute('lang')).split('-')[0]);
  return inherited || detectLang();
}

// ---- rendering when needed -------------------------------------------------------------------
// An element near the viewport renders at once; the others render one by one when the browser is
// idle (so that find-in-page reaches them soon after the page is ready), when they come near the
// viewport, or all at once before printing.
const pending = new Map();  // element → its build
let observer = null;
let idleScheduled = false;

function buildNow(el) {
  const build = pending.get(el);
  if (!build) return;
  pending.delete(el);
  if (observer) observer.unobserve(el);
  el.removeAttribute('data-pending');
  build();
}

function scheduleIdle() {
  if (idleScheduled || !pending.size) return;
  idleScheduled = true;
  const idle = globalThis.requestIdleCallback || ((fn) => setTimeout(() => fn({ timeRemaining: () => 8 }), 30));
  idle((deadline) => {
    idleScheduled = false;
    do {
      const next = pending.keys().next();
      if (next.done) break;
      buildNow(next.value);
    } while (deadline.timeRemaining() > 4);
    scheduleIdle();
  }, { timeout: 1000 });
}

// Printing renders everything pending, and whatever is added until the print is over.
let printing = false;
if (typeof globalThis.addEventListener === 'function') {
  globalThis.addEventListener('beforeprint', () => {
    printing = true;
    for (const x of [...pending.keys()]) buildNow(x);
  });
  globalThis.addEventListener('afterprint', () => {
    printing = false;
  });
}

function whenNeeded(el, build) {
  if (typeof IntersectionObserver !== 'function' || el.hasAttribute('eager') || printing) {
    build();
    return;
  }
  if (!observer) {
    observer = new IntersectionObserver((entries) => {
      for (const e of entries) if (e.isIntersecting) buildNow(e.target);
    }, { rootMargin: '50% 0px' });
  }
  pending.set(el, build);
  el.setAttribute('data-pending', '');
  observer.observe(el);
  // the first observation comes after layout; what is still pending then waits for idle time
  requestAnimationFrame(() => requestAnimationFrame(scheduleIdle));
}

// ---- following the page's language --------------------------------------------------------
// A single-page site may change <html lang> (or a container's lang) without reloading: one
// observer for the page re-reads the language of every connected element that does not set its
// own. It exists only while some element is connected.
const connected = new Set();
let langObserver = null;

function onPageLang() {
  for (const el of connected) el.followLang();
}

// A site may switch between light and dark without reloading (VitePress puts class="dark" on
// <html>), and the reader's setting may change: the elements that follow the host look again.
let schemeObserver = null;
let schemeQuery = null;
function onPageScheme() {
  for (const el of connected) applyScheme(el);
}

function track(el) {
  connected.add(el);
  if (!langObserver && typeof MutationObserver === 'function') {
    langObserver = new MutationObserver(onPageLang);
    langObserver.observe(document.documentElement, { attributes: true, attributeFilter: ['lang'], subtree: true });
    schemeObserver = new MutationObserver(onPageScheme);
    const attributeFilter = ['class', 'style', 'data-theme', 'data-color-scheme', 'data-mode', 'data-bs-theme'];
    schemeObserver.observe(document.documentElement, { attributes: true, attributeFilter });
    if (document.body) schemeObserver.observe(document.body, { attributes: true, attributeFilter });
    schemeQuery = globalThis.matchMedia ? globalThis.matchMedia('(prefers-color-scheme: dark)') : null;
    if (schemeQuery && schemeQuery.addEventListener) schemeQuery.addEventListener('change', onPageScheme);
  }
}

function untrack(el) {
  connected.delete(el);
  if (!connected.size && langObserver) {
    langObserver.disconnect();
    langObserver = null;
    schemeObserver.disconnect();
    schemeObserver = null;
    if (schemeQuery && schemeQuery.removeEventListener) schemeQuery.removeEventListener('change', onPageScheme);
    schemeQuery = null;
  }
}

/**
 * What the reader did to a prerendered calculator (a copy in the page's HTML, shown before the
 * code runs): the fields typed into or slid, { id: {text} | {slider} }, the selects changed,
 * { id: value }, and a function that puts the focus back on the same control of the calculator
 * built in its place.
 */
function carryOver(pre, root) {
  const fields = {};
  for (const field of pre.querySelectorAll('.field[data-field]')) {
    const text = field.querySelector('input[name]');
    const slider = field.querySelector('input.slider');
    if (text && text.value !== text.defaultValue) fields[field.dataset.field] = { text: text.value };
    else if (slider && slider.value !== slider.defaultValue) fields[field.dataset.field] = { slider: Number(slider.value) };
  }
  const selects = {};
  for (const sel of pre.querySelectorAll('select[name]')) {
    const first = [...sel.options].find((o) => o.defaultSelected) || sel.options[0];
    if (first && sel.value !== first.value) selects[sel.name] = sel.value;
  }
  const a = root.activeElement;
  const focus = a && pre.contains(a) ? focusReturn(a, { buttonsByClass: true }) : null;
  return { fields, selects, focus };
}

/**
 * Replays on a calculator just built what the reader did to its prerendered copy, through the
 * calculator's own handlers, as if done there: first the selects changed (a select's preset fills
 * its fields, as on a change), then the text typed and the sliders moved (what the reader set by
 * hand wins over a preset).
 */
function replay(calc, root, carried) {
  for (const [id, value] of Object.entries(carried.selects)) {
    const el = calc.selectEls && calc.selectEls[id];
    if (!el || ![...el.options].some((o) => o.value === value)) continue;
    el.value = value;
    el.dispatchEvent(new Event('change'));
  }
  for (const [id, v] of Object.entries(carried.fields)) {
    const [control, value] = 'text' in v ? ['input[name]', v.text] : ['input.slider', String(v.slider)];
    const input = root.querySelector(`.field[data-field="${CSS.escape(id)}"] ${control}`);
    if (input && input.value !== value) {
      input.value = value;
      input.dispatchEvent(new Event('input', { bubbles: true }));
    }
  }
}

/**
 * The host's own background behind `el`: the first ancestor (across shadow roots) painted with
 * an opaque colour, 'light' or 'dark' by its luminance; null where none is (the browser's canvas).
 */
function hostBackground(el) {
  for (let n = el.parentElement || (el.getRootNode && el.getRootNode().host); n; n = n.parentElement || (n.getRootNode && n.getRootNode().host) || null) {
    const m = /rgba?\(([^)]+)\)/.exec(getComputedStyle(n).backgroundColor || '');
    if (!m) continue;
    const [r, g, b, a = 1] = m[1].split(/[\s,/]+/).filter(Boolean).map(Number);
    if (!(a >= 0.5)) continue;
    // relative luminance (sRGB), light above the middle grey
    const lin = (c) => { const x = c / 255; return x <= 0.04045 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b) > 0.18 ? 'light' : 'dark';
  }
  return null;
}

/**
 * The colours an element shows, as its data-scheme attribute, which the style sheet reads:
 * "light" or "dark", or none where the reader's own setting decides (prefers-color-scheme).
 * theme="light" or "dark" pins them; `auto` (the default, and any other value) follows the host:
 * its declared color-scheme where it names one only, else the background the host paints behind
 * the element, else the browser's canvas, which is light unless the page declares it may be dark.
 */
function applyScheme(el) {
  const theme = el.getAttribute('theme');
  let scheme = theme === 'light' || theme === 'dark' ? theme : null;
  if (!scheme) {
    const declared = String(getComputedStyle(el).colorScheme || 'normal').split(/\s+/);
    if (declared.includes('light') !== declared.includes('dark')) scheme = declared.includes('light') ? 'light' : 'dark';
    else scheme = hostBackground(el) || (declared.includes('dark') ? null : 'light');
  }
  if (scheme) {
    if (el.getAttribute('data-scheme') !== scheme) el.setAttribute('data-scheme', scheme);
  } else if (el.hasAttribute('data-scheme')) {
    el.removeAttribute('data-scheme');
  }
}

export class RooflineCalculatorElement extends HTMLElement {
  static get observedAttributes() {
    return ['lang', 'kind', 'exercise', 'question', 'theme', ...PRESET_ATTRIBUTES];
  }

  connectedCallback() {
    applyScheme(this);
    if (!this.styled) {
      // a shadow root may be here already: the served page's first calculator, prerendered
      // (web/prerender.mjs) in a declarative shadow root, which it keeps showing until it builds
      const root = this.shadowRoot || this.attachShadow({ mode: 'open' });
      styleRoot(root);
      this.styled = true;
      this.prerendered = root.querySelector('[data-prerendered]');
    }
    track(this);
    if (this.started) {
      // inserted again (a single-page site navigating back): what was released comes back
      if (this.calc && this.calc.resizeObserver) this.calc.resizeObserver.observe(this);
      if (this.calc && this.calc.def.connect) this.calc.def.connect(this.calc);
      if (this.practice) this.practice.connect();
      if (this.rl && !this.built) whenNeeded(this, () => this.build());
      this.followLang();
      return;
    }
    this.started = true;
    const lang = elementLang(this);
    this.shownLang = lang;
    // a prerendered calculator stays as it is (no loading note, no room held) until it builds
    if (!this.prerendered) {
      if (hasLang(lang)) this.shadowRoot.append(h('p', { class: 'loading', role: 'status' }, t('calc.loading', lang)));
      this.setAttribute('data-loading', '');
    }
    Promise.all([loadModule(), textsAndCode(this.getAttribute('kind'), lang)]).then(([rl]) => {
      this.rl = rl;
      // a prerendered copy the page has marked as not the reader's is left to be replaced, not built
      const replaced = this.prerendered && document.documentElement.getAttribute('data-prerender') === 'stale';
      if (this.isConnected && !replaced) whenNeeded(this, () => this.build());
    }).catch((e) => {
      this.removeAttribute('data-loading');
      console.error(e);
      const l = elementLang(this);
      clear(this.shadowRoot).append(h('p', { class: 'form-error', role: 'alert' }, hasLang(l) ? t('calc.loadFailed', l) : 'Roofline Lab could not load.'));
    });
  }

  /** Removed from the page: nothing outside the element keeps it or calls it any more. */
  disconnectedCallback() {
    untrack(this);
    if (pending.delete(this)) {
      this.removeAttribute('data-pending');
      if (observer) observer.unobserve(this);
    }
    if (this.calc && this.calc.resizeObserver) this.calc.resizeObserver.disconnect();
    // a kind's own hold on the page (a document listener, a running measurement) is released too
    if (this.calc && this.calc.def.disconnect) this.calc.def.disconnect(this.calc);
    if (this.practice) this.practice.disconnect();
  }

  /** Follows the language of the page when the element sets none of its own. */
  followLang() {
    if (!this.rl || !this.built) return;
    const lang = elementLang(this);
    if (lang !== this.shownLang) this.attributeChangedCallback('lang', this.shownLang, lang);
  }

  /** The author's presets: { model, gpu, format, dtype, values }, each its attribute's text or null. */
  presets() {
    return Object.fromEntries(PRESET_ATTRIBUTES.map((name) => [name, this.getAttribute(name)]));
  }

  build() {
    this.built = true;
    this.rebuild = false;
    this.removeAttribute('data-loading');
    const lang = elementLang(this);
    this.shownLang = lang;
    const kind = this.getAttribute('kind');
    const def = FIRST_KINDS[kind] || (MORE.kinds && MORE.kinds[kind]);
    const root = this.shadowRoot;
    // what the reader typed into a prerendered calculator before this build is kept, where it is
    // a copy of this kind, prerendered in the language it is built in (numbers are typed in a
    // language's own way)
    const pre = this.prerendered;
    const preKind = pre && pre.querySelector('section[data-kind]');
    const same = pre && pre.isConnected && preKind && preKind.getAttribute('data-kind') === kind && (!pre.lang || pre.lang === lang);
    const carried = same ? carryOver(pre, root) : null;
    this.prerendered = null;
    // the calculator replaced (another kind) no longer speaks for the address
    if (this.calc) clearTimeout(this.calc.urlTimer);
    clear(root);
    if (this.practice) this.practice.disconnect();
    this.practice = null;
    if (kind === 'exercise' || kind === 'question') {
      // <roofline-calculator kind="exercise" exercise="7">: one exercise (or check question)
      const id = Number(this.getAttribute(kind));
      try {
        if (!Number.isInteger(id)) throw Object.assign(new Error('no id'), { code: 'out_of_range' });
        this.practice = new MORE.Practice(this.rl, { type: kind, id, lang, host: this });
        this.practice.render(root);
      } catch (e) {
        if (!e || e.code !== 'out_of_range') throw e;
        if (this.practice) this.practice.disconnect();
        this.practice = null;
        clear(root).append(h('p', { class: 'form-error', role: 'alert' }, t(`${kind === 'exercise' ? 'ex' : 'q'}.unknown`, lang, { id: String(this.getAttribute(kind)).slice(0, 20) })));
      }
      this.calc = null;
      return;
    }
    if (!def) {
      root.append(h('p', { class: 'form-error', role: 'alert' }, t('calc.unknownKind', lang, { kind: String(kind).slice(0, 40), kinds: KIND_NAMES.join(', ') })));
      this.calc = null;
      return;
    }
    this.calc = new Calc(def, this.rl, {
      lang, host: this, urlState: this.hasAttribute('url-state'), linkTerms: this.hasAttribute('link-terms'), presets: this.presets(),
    });
    this.calc.render(root);
    if (carried) replay(this.calc, root, carried);
    if (carried && carried.focus) carried.focus(root);
  }

  attributeChangedCallback(name, oldValue, newValue) {
    if (name === 'theme') {
      // colours only: nothing to build again
      if (this.isConnected) applyScheme(this);
      return;
    }
    if (!this.rl || oldValue === newValue) return;
    const lang = elementLang(this);
    if (name === 'lang') this.shownLang = lang;
    // kind, exercise, question or a preset: built again (a preset is applied to the defaults
    // again, and the page URL again over it); a language alone only redraws
    else this.rebuild = true;
    // several attributes set at once (setCalculatorAttributes) make one build, by the last change
    const turn = (this.changes = (this.changes || 0) + 1);
    textsAndCode(this.getAttribute('kind'), lang).then(() => {
      if (turn !== this.changes) return;
      if (!this.rebuild && this.calc) this.calc.setLang(lang);
      else if (!this.rebuild && this.practice) this.practice.setLang(lang);
      // an element still waiting to be built (near the viewport, or idle time) is built then,
      // with the attributes it has then: building it now too would build it twice
      else if (!pending.has(this)) this.build();
    }).catch((e) => console.error(e));
  }
}

export function defineElements() {
  if (!customElements.get('roofline-calculator')) customElements.define('roofline-calculator', RooflineCalculatorElement);
}
