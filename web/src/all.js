// Entry point of the bundles that carry everything (roofline-calculator.js, roofline-lab.html):
// the module's request first (preload.js), then the later parts (more-parts.js), then the element
// and the page (main.js).
import './preload.js';
import './more-parts.js';
import './main.js';
