// The parts of the page its first screen does not need: every calculator but the first, the
// exercises, the diagrams, the tables and the benchmark overlay (more-parts.js gathers them).
// The bundles that carry everything (roofline-calculator.js, roofline-lab.html) have them from
// the start. The served page loads them, and their texts, from roofline-page-more.js and
// roofline-texts-more.<lang>.js once its first calculator is on screen, or at once when a
// calculator or section that needs them is asked for first.
import { hasMoreTexts, loadTexts } from './i18n.js';
import { besideScript, injectScript } from './load.js';

export const MORE = {};

/** Called by more-parts.js when its bundle runs. */
export function provideMore(parts) {
  Object.assign(MORE, parts);
}

export function haveMore() {
  return Boolean(MORE.kinds);
}

/** Whether the later parts and their texts in `lang` are here (nothing to wait for). */
export function haveMoreIn(lang) {
  return haveMore() && hasMoreTexts(lang);
}

let codePromise = null;

function loadCode() {
  if (haveMore()) return Promise.resolve();
  if (!codePromise) {
    codePromise = injectScript(besideScript('roofline-page-more.js')).then(() => {
      if (!haveMore()) throw new Error('roofline-page-more.js ran but provided nothing');
    });
    codePromise.catch(() => {
      codePromise = null; // a later call may try again
    });
  }
  return codePromise;
}

/** The later parts and their texts in `lang`; resolves to MORE. */
export function loadMore(lang) {
  return Promise.all([loadCode(), loadTexts(lang, 'more')]).then(() => MORE);
}
