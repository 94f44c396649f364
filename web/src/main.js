// Entry point of roofline-page.js (the served page's first script of its own): defines
// <roofline-calculator> and, on the lesson's own page (which has <div id="lab">), renders the
// whole page. all.js adds the later parts in front of it for the bundles that carry everything.
import { defineElements } from './element.js';
import { startPage } from './page.js';
import { readerScreen } from './prerendered.js';
import { detectLang } from './lang.js';

// the first screen prerendered in the other languages goes before the element is defined: its
// calculators are never built, nor their texts asked for (this script runs after <div id="lab">
// is parsed: deferred on the served page, after it in the single file)
readerScreen(detectLang());
defineElements();
if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', () => startPage());
else startPage();
