// Entry point of roofline-page.js (the served page's first script of its own): defines
// <roofline-calculator> and, on the lesson's own page (which has <div id="lab">), renders the
// whole page. all.js adds the later parts in front of it for the bundles that carry everything.
import { defineElements } from './element.js';
import { startPage } from './page.js';

defineElements();
if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', () => startPage());
else startPage();
