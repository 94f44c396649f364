// Entry point of roofline-calculator.js: defines <roofline-calculator> and, on the lesson's own
// page (which has <div id="lab">), renders the whole page.
import { defineElements } from './element.js';
import { startPage } from './page.js';

defineElements();
if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', () => startPage());
else startPage();
