// Builds the npm package roofline-lab from the built site folder, with `npm pack`:
//   node wasm/npm.mjs --site build-wasm/site --version 0.1.0 --out build-wasm/npm
// leaves <out>/roofline-lab-<version>.tgz (and the staged folder <out>/package/). The version
// comes from the project's version in CMakeLists.txt (CMake passes it). Entry points:
//   roofline-lab             roofline.mjs: the ES module API (types: roofline.d.mts); bundlers
//                            for the browser get roofline.browser.mjs, the same without Node's shim
//   roofline-lab/classic     roofline.js: the classic script (global createRoofline; CommonJS too)
//   roofline-lab/calculator  calculator.mjs: defines <roofline-calculator> (for bundlers)
// roofline-calculator.js and roofline.js are also shipped as plain files, to copy next to a page,
// with roofline-calculator.css and snippets/ (each calculator prerendered, docs/embedding.md).
import { writeFileSync, mkdirSync, copyFileSync, cpSync, rmSync, existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';

const HERE = dirname(fileURLToPath(import.meta.url));

function args(argv) {
  const out = {};
  for (let i = 0; i < argv.length; i += 1) {
    const name = { '--site': 'site', '--version': 'version', '--out': 'out' }[argv[i]];
    if (!name) throw new Error(`npm.mjs: unknown argument ${argv[i]} (usage: --site DIR --version X.Y.Z --out DIR)`);
    out[name] = argv[++i];
  }
  for (const k of ['site', 'version', 'out']) if (!out[k]) throw new Error(`npm.mjs: --${k} is required`);
  if (!/^\d+\.\d+\.\d+$/.test(out.version)) throw new Error(`npm.mjs: version ${out.version} is not X.Y.Z`);
  return out;
}

// The ES-module entry for bundlers: the module API comes from roofline.mjs (so the element
// injects no script), the element from the classic bundle, which carries the texts of every
// language. The first import must run before the element is defined: it is its own module.
const CALCULATOR_MJS = `// Defines <roofline-calculator> (docs/embedding.md).
import './calculator-module.mjs';
import './roofline-calculator.js';

/** Sets an element's attributes from a typed object (a boolean attribute: present when true). */
export function setCalculatorAttributes(el, attrs) {
  for (const [name, value] of Object.entries(attrs)) {
    if (value === false || value === undefined || value === null) el.removeAttribute(name);
    else el.setAttribute(name, value === true ? '' : String(value));
  }
}
export const RooflineCalculatorElement = customElements.get('roofline-calculator');
`;
const CALCULATOR_MODULE_MJS = `// Gives <roofline-calculator> the module API of roofline.mjs (once per page).
import createRoofline from './roofline.browser.mjs';
if (typeof globalThis.createRoofline !== 'function') globalThis.createRoofline = createRoofline;
`;

const CLASSIC_TYPES = `// Types of roofline.js, the classic script: loaded with <script src>, it defines the global
// createRoofline; under CommonJS it is also module.exports.
import type { Roofline } from './roofline.mjs';
declare function createRoofline(options?: object): Promise<Roofline>;
declare global {
  /** Defined by <script src="roofline.js">. */
  function createRoofline(options?: object): Promise<Roofline>;
}
export = createRoofline;
`;

function main() {
  const opt = args(process.argv.slice(2));
  const site = resolve(opt.site);
  const out = resolve(opt.out);
  const pkg = join(out, 'package');
  rmSync(pkg, { recursive: true, force: true });
  mkdirSync(pkg, { recursive: true });
  for (const f of ['roofline.mjs', 'roofline.browser.mjs', 'roofline.js', 'roofline-calculator.js', 'roofline-calculator.css']) {
    if (!existsSync(join(site, f))) throw new Error(`npm.mjs: ${join(site, f)} not found: build the module and the site first`);
    copyFileSync(join(site, f), join(pkg, f));
  }
  // the calculators prerendered, to paste into a page (docs/embedding.md), with the sheet above
  cpSync(join(site, 'snippets'), join(pkg, 'snippets'), { recursive: true });
  copyFileSync(join(HERE, 'roofline.d.ts'), join(pkg, 'roofline.d.mts'));
  writeFileSync(join(pkg, 'classic.d.ts'), CLASSIC_TYPES);
  writeFileSync(join(pkg, 'calculator.mjs'), CALCULATOR_MJS);
  writeFileSync(join(pkg, 'calculator-module.mjs'), CALCULATOR_MODULE_MJS);
  // the element's types, written by the page's build beside the element (web/calculator-types.mjs)
  copyFileSync(join(site, 'roofline-calculator.d.ts'), join(pkg, 'calculator.d.mts'));
  copyFileSync(join(HERE, 'npm', 'README.md'), join(pkg, 'README.md'));

  const manifest = {
    name: 'roofline-lab',
    version: opt.version,
    description: 'Roofline Lab: FLOPs, memory bandwidth and the roofline model, computed by a WebAssembly core; <roofline-calculator> for documentation pages.',
    keywords: ['roofline', 'flops', 'gpu', 'bandwidth', 'webassembly', 'custom-element'],
    // The project has chosen no license yet: until it does, the package says so.
    license: 'UNLICENSED',
    main: './roofline.js',
    module: './roofline.mjs',
    types: './roofline.d.mts',
    exports: {
      // bundlers building for the browser take the module without its Node shim
      '.': { types: './roofline.d.mts', browser: './roofline.browser.mjs', default: './roofline.mjs' },
      './classic': { types: './classic.d.ts', default: './roofline.js' },
      './calculator': { types: './calculator.d.mts', default: './calculator.mjs' },
      './roofline.js': './roofline.js',
      './roofline.mjs': './roofline.mjs',
      './roofline-calculator.js': './roofline-calculator.js',
      './roofline-calculator.css': './roofline-calculator.css',
      './snippets/*': './snippets/*',
      './package.json': './package.json',
    },
    // calculator.mjs defines the element when imported
    sideEffects: ['./calculator.mjs', './calculator-module.mjs', './roofline-calculator.js', './roofline.js'],
    files: ['roofline.mjs', 'roofline.browser.mjs', 'roofline.d.mts', 'roofline.js', 'classic.d.ts', 'roofline-calculator.js',
      'roofline-calculator.css', 'snippets/', 'calculator.mjs', 'calculator-module.mjs', 'calculator.d.mts', 'README.md'],
  };
  writeFileSync(join(pkg, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  // No "type": "module": the ES modules are .mjs, and roofline.js stays a classic script that
  // Node loads as CommonJS.
  const name = execFileSync('npm', ['pack', '--pack-destination', out, '--loglevel=error'], { cwd: pkg, encoding: 'utf8' }).trim().split('\n').pop();
  console.log(`npm: wrote ${join(out, name)}`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
