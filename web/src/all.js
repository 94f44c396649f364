// Entry point of the bundles that carry everything (roofline-calculator.js, roofline-lab.html):
// the later parts first (more-parts.js), then the element and the page (main.js).
import './more-parts.js';
import './main.js';
