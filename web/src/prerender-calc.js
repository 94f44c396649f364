// Entry point of the build's other prerender (web/prerender.mjs, prerenderCalculators): any one
// calculator alone, with the lesson's default inputs and its chart, in the shadow root of its
// <roofline-calculator>, as the element draws it on an author's page.
import './more-parts.js';
import { Calc } from './calc.js';
import { FIRST_KINDS, KIND_NAMES } from './element.js';
import { MORE } from './more.js';

globalThis.__rooflinePrerenderCalculator = (rl, host, kind, lang) => {
  const def = FIRST_KINDS[kind] || MORE.kinds[kind];
  if (!def || !KIND_NAMES.includes(kind)) throw new Error(`prerender: no calculator of kind ${kind}`);
  const calc = new Calc(def, rl, { lang });
  calc.render(host.attachShadow({ mode: 'open' }));
};
