// The engines suite in WebKitGTK's MiniBrowser (suite.mjs: what is checked; webkit.mjs: how it is driven).
import { engineSuite } from './suite.mjs';
import { launchWebKit } from './webkit.mjs';

engineSuite('webkit', launchWebKit);
