// The first module of the bundles that carry everything (all.js imports it first, so that it runs
// before the texts and the other modules): every calculator needs roofline.js, which the element
// would otherwise ask for only once the whole of roofline-calculator.js has run. Where the page has
// not loaded the module itself and already holds a calculator (a deferred script runs once the
// page is parsed; a page of a documentation site without one asks for nothing), the request
// leaves now; the element's <script src="roofline.js"> (loadModule) then takes the answer from the
// browser's memory cache. In the single file, whose scripts are inline, the module is already
// there.
import { besideScript } from './load.js';

if (typeof globalThis.createRoofline !== 'function' && document.currentScript && document.currentScript.src
  && document.querySelector('roofline-calculator')) {
  const preload = document.createElement('link');
  preload.rel = 'preload';
  preload.as = 'script';
  preload.href = besideScript('roofline.js');
  document.head.append(preload);
}
