// The page's HTML holds its first screen prerendered at build time (web/prerender.mjs) with the
// default inputs in each of the page's languages, each in a <div data-screen lang> of its own
// (English first, the one shown without JavaScript): PRERENDER says which languages and which
// calculators. Run before the body is parsed (the served page's boot script, the single file's
// check in its head), markStalePrerender sets <html data-screen> to the reader's language, which
// shows that screen alone (page.css); where no screen is the reader's (a link with inputs of those
// calculators), <html data-prerender="stale"> hides them all until the page has drawn the right
// one. So no other screen ever shows.
import { detectLang } from './lang.js';
import { PRERENDER } from './data.js';

export function markStalePrerender() {
  if (!PRERENDER) return;
  const lang = detectLang();
  const html = document.documentElement;
  html.setAttribute('data-screen', lang);
  const keys = [...new URLSearchParams(location.search).keys()];
  const linked = keys.some((k) => PRERENDER.kinds.some((kind) => k.startsWith(`${kind}.`)));
  if (!PRERENDER.langs.includes(lang) || linked) html.setAttribute('data-prerender', 'stale');
}

/**
 * The prerendered screen in `lang`, once the page's code runs, with the others taken out of the
 * page (before the element is defined: their calculators are never built, nor their texts asked
 * for). Null where there is none.
 */
export function readerScreen(lang) {
  const lab = document.getElementById('lab');
  if (!lab || !lab.hasAttribute('data-prerendered')) return null;
  let mine = null;
  for (const s of [...lab.children]) {
    if (!s.hasAttribute('data-screen')) continue;
    if (s.getAttribute('data-screen') === lang && !mine) mine = s;
    else s.remove();
  }
  return mine;
}
