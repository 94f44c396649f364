// The engines suite in Firefox ESR (suite.mjs: what is checked; firefox.mjs: how it is driven).
import { engineSuite } from './suite.mjs';
import { launchFirefox } from './firefox.mjs';

engineSuite('firefox', launchFirefox);
