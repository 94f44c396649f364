// Entry point of the build's prerender (web/prerender.mjs runs it in Node against a small
// document): the served page's first screen, drawn by the page's own code, with the first
// calculator's content in a shadow root of its own, as the element draws it.
import { Page } from './page.js';
import { Calc } from './calc.js';
import { FIRST_KINDS } from './element.js';

globalThis.__rooflinePrerender = (rl, root) => {
  const page = new Page(root, rl);
  page.render();
  for (const [kind, host] of Object.entries(page.calcs)) {
    const def = FIRST_KINDS[kind];
    if (!def) throw new Error(`prerender: ${kind} is not one of the first screen's calculators`);
    const calc = new Calc(def, rl, { lang: page.lang, linkTerms: host.hasAttribute('link-terms') });
    calc.render(host.attachShadow({ mode: 'open' }));
  }
  return { lang: page.lang, kinds: Object.keys(page.calcs) };
};
