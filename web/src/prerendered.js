// The page's HTML holds its first screen prerendered at build time (web/prerender.mjs) in one
// language with the default inputs: PRERENDER says which language and which calculators. Where
// that is not what the reader gets, another language or a link with inputs of those calculators,
// <html data-prerender="stale"> hides it (page.css) until the page has drawn the right one. Run
// before the body is parsed, so that it never shows.
import { detectLang } from './lang.js';
import { PRERENDER } from './data.js';

export function markStalePrerender() {
  if (!PRERENDER) return;
  const keys = [...new URLSearchParams(location.search).keys()];
  const linked = keys.some((k) => PRERENDER.kinds.some((kind) => k.startsWith(`${kind}.`)));
  if (detectLang() !== PRERENDER.lang || linked) document.documentElement.setAttribute('data-prerender', 'stale');
}
