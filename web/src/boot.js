// Entry point of roofline-boot.js, the served page's first script: it starts loading the reader's
// language's texts at once, in parallel with the page's code, which would otherwise ask for them
// only once it runs. The page's code then waits for this same request (see ensureLang).
import { detectLang, LOCALES } from './lang.js';
import { besideScript, injectScript } from './load.js';

const lang = detectLang();
const loading = globalThis.__rooflineTextsLoading || (globalThis.__rooflineTextsLoading = {});
loading[lang] = injectScript(besideScript(`roofline-texts.${lang}.js`));
loading[lang].catch(() => {}); // the page reports the failure, once, if it needs these texts

// The browser's first number formatter for a language loads that locale's data, which takes
// tens of milliseconds: do it now, while the page's code is still on its way, rather than
// before the first number is shown.
try {
  new Intl.NumberFormat(LOCALES[lang]).format(1234.5);
} catch (e) {
  /* the page formats its numbers (and reports any problem) itself */
}
