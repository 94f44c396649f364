// Entry point of roofline-page-more.js (the served page's later parts, see more.js); the bundles
// that carry everything import it before main.js, so its parts are there from the start.
import { provideMore } from './more.js';
import { DEFS } from './kinds-later.js';
import { purchases } from './kind-byhand.js';
import { rooflineListing, matmulListing } from './listings.js';
import { Practice, practiceIds, clearProgress, solvedCount, CHANGE_EVENT, RESET_EVENT } from './exercises.js';
import { gpuTable, listingTable, intensityTable, usesPerWeightTable, lessonGpuTable, prefixTable } from './tables.js';
import { workedCard } from './worked.js';
import { createDiagram } from './diagrams.js';
import { BenchOverlay } from './bench.js';

provideMore({
  kinds: DEFS,
  Practice, practiceIds, clearProgress, solvedCount, CHANGE_EVENT, RESET_EVENT,
  gpuTable, listingTable, intensityTable, usesPerWeightTable, lessonGpuTable, prefixTable, workedCard, rooflineListing, matmulListing, purchases,
  createDiagram, BenchOverlay,
});
