// Entry point of the single file's first inline script (and part of the served page's boot
// script): hides the prerendered first screen where it is not the reader's (see prerendered.js).
import { markStalePrerender } from './prerendered.js';

markStalePrerender();
