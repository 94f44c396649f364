// Entry point of roofline-boot.js, the served page's first script, run before the page's body is
// parsed. It starts loading the reader's language's texts at once, in parallel with the page's
// code, which would otherwise ask for them only once it runs (the page's code then waits for this
// same request: see ensureLang); and it shows the prerendered first screen in the reader's
// language, or hides it where it is not the reader's (prerendered.js).
import { detectLang } from './lang.js';
import { besideScript, injectScript } from './load.js';
import { markStalePrerender } from './prerendered.js';

const lang = detectLang();
const loading = globalThis.__rooflineTextsLoading || (globalThis.__rooflineTextsLoading = {});
loading[lang] = injectScript(besideScript(`roofline-texts.${lang}.js`));
loading[lang].catch(() => {}); // the page reports the failure, once, if it needs these texts
markStalePrerender();
