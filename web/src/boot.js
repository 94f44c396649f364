// Entry point of roofline-boot.js, the served page's first script: it starts loading the reader's
// language's texts at once, in parallel with the page's code, which would otherwise ask for them
// only once it runs. The page's code then waits for this same request (see ensureLang).
import { detectLang } from './lang.js';

const lang = detectLang();
const src = new URL(`roofline-texts.${lang}.js`, (document.currentScript && document.currentScript.src) || location.href).href;
const loading = globalThis.__rooflineTextsLoading || (globalThis.__rooflineTextsLoading = {});
loading[lang] = new Promise((resolve, reject) => {
  const el = document.createElement('script');
  el.src = src;
  el.onload = resolve;
  el.onerror = () => reject(new Error(`could not load ${src}`));
  document.head.append(el);
});
loading[lang].catch(() => {}); // the page reports the failure, once, if it needs these texts
