// Entry point of the bundles that carry everything (roofline-calculator.js, roofline-lab.html):
// the later parts first (more-parts.js), then the element and the page (main.js).
import { MORE_PROVIDED } from './more-parts.js';
import { MAIN_STARTED } from './main.js';
