// Entry point of roofline-page-more.js (the served page's later parts, see more.js); the bundles
// that carry everything import it before main.js, so its parts are there from the start.
import { provideMore } from './more.js';
import { byhandKind, purchases } from './kind-byhand.js';
import { rooflineListing, matmulListing } from './listings.js';
import { utilizationKind } from './kind-utilization.js';
import { rooflineKind } from './kind-roofline.js';
import { decodeKind } from './kind-decode.js';
import { batchingKind } from './kind-batching.js';
import { clocksKind } from './kind-clocks.js';
import { tileKind } from './kind-tile.js';
import { quantKind } from './kind-quant.js';
import { deviceKind } from './kind-device.js';
import { Practice, practiceIds, clearProgress, solvedCount, CHANGE_EVENT, RESET_EVENT } from './exercises.js';
import { gpuTable, listingTable, intensityTable, usesPerWeightTable, lessonGpuTable, prefixTable } from './tables.js';
import { workedCard } from './worked.js';
import { createDiagram } from './diagrams.js';
import { BenchOverlay } from './bench.js';

provideMore({
  kinds: {
    byhand: byhandKind, utilization: utilizationKind, roofline: rooflineKind, decode: decodeKind, batching: batchingKind,
    clocks: clocksKind, tile: tileKind, quant: quantKind, device: deviceKind,
  },
  Practice, practiceIds, clearProgress, solvedCount, CHANGE_EVENT, RESET_EVENT,
  gpuTable, listingTable, intensityTable, usesPerWeightTable, lessonGpuTable, prefixTable, workedCard, rooflineListing, matmulListing, purchases,
  createDiagram, BenchOverlay,
});
