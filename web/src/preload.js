// The first lines of roofline-calculator.js, run before the rest of it (web/build.mjs puts them
// ahead of its modules and texts): every calculator needs roofline.js, which the element would
// otherwise ask for only once this whole script has run. Where the page has not loaded the module
// itself and already holds a calculator (a deferred script runs once the page is parsed; a page
// of a documentation site without one asks for nothing), the request leaves now; the element's
// <script src="roofline.js"> then takes the answer from the browser's memory cache. A plain
// script, no imports.
if (typeof globalThis.createRoofline !== 'function' && typeof document === 'object' && document.currentScript && document.currentScript.src && document.head
  && document.querySelector('roofline-calculator')) {
  const preload = document.createElement('link');
  preload.rel = 'preload';
  preload.as = 'script';
  preload.href = new URL('roofline.js', document.currentScript.src).href;
  document.head.append(preload);
}
