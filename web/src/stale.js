// Entry point of the single file's first inline script (and part of the served page's boot
// script): shows the prerendered first screen in the reader's language, and hides it where it is
// not the reader's (see prerendered.js).
import { markStalePrerender } from './prerendered.js';

markStalePrerender();
