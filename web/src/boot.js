// Entry point of roofline-boot.js, the served page's first script: it starts loading the reader's
// language's texts at once, in parallel with the page's code, which would otherwise ask for them
// only once it runs. The page's code then waits for this same request (see ensureLang).
import { detectLang } from './lang.js';
import { besideScript, injectScript } from './load.js';

const lang = detectLang();
const loading = globalThis.__rooflineTextsLoading || (globalThis.__rooflineTextsLoading = {});
loading[lang] = injectScript(besideScript(`roofline-texts.${lang}.js`));
loading[lang].catch(() => {}); // the page reports the failure, once, if it needs these texts

