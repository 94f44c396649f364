// Packages the Emscripten output (a MODULARIZE factory named createRooflineModule, and its wasm)
// with api.js into the published files:
//   roofline.js   a classic script: defines the global createRoofline (and module.exports under
//                 CommonJS); works in pages opened from file://. The wasm is inlined gzip-compressed
//                 (base64), and inflated by api.js when the module is created.
//   roofline.mjs  an ES module whose default export is createRoofline (browsers and Node); the wasm
//                 inlined the same way.
//   roofline.browser.mjs  the same without its Node shim (for bundlers: no top-level await).
//   roofline-web.js + roofline.wasm  the classic script with the wasm beside it instead of inlined
//                 (for served pages: the binary is a third smaller than its base64, is compiled
//                 while it downloads, and is cached apart from the script). It fetches
//                 roofline.wasm from its own folder, so it needs http(s), not file://.
// Usage: node wasm/package.mjs <emscripten-output.js> <outdir>   (its .wasm beside it)
import { readFileSync, writeFileSync, mkdirSync, copyFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { minifyScript } from './esbuild.mjs';

const [, , input, outdir] = process.argv;
if (!input || !outdir) {
  console.error('usage: node wasm/package.mjs <emscripten-output.js> <outdir>');
  process.exit(2);
}
const here = dirname(fileURLToPath(import.meta.url));
const module = readFileSync(input, 'utf8');
const api = readFileSync(join(here, 'api.js'), 'utf8');
// the gzip decoder for browsers without DecompressionStream, in the files that inline the wasm
const inflate = readFileSync(join(here, 'inflate.js'), 'utf8');
const banner = '/* Roofline Lab core, compiled to WebAssembly. API: docs/api.md */\n';
mkdirSync(outdir, { recursive: true });

// The binary Emscripten wrote beside its glue (roofline.wasm, the name the glue fetches when it
// is given no binary): copied as it is for roofline-web.js, and inlined gzip-compressed
// (ROOFLINE_WASM_GZIP, inflated by api.js into the module's wasmBinary, so that nothing is
// fetched; less than half the size of base64) in the self-contained files.
const wasmPath = input.replace(/\.js$/, '.wasm');
if (!existsSync(wasmPath)) throw new Error(`package.mjs: ${wasmPath} not found beside ${input}`);
if (!module.includes("'roofline.wasm'") && !module.includes('"roofline.wasm"')) {
  throw new Error('package.mjs: the Emscripten glue does not name roofline.wasm (link it as roofline.js)');
}
const wasm = readFileSync(wasmPath);
writeFileSync(join(outdir, 'roofline.wasm'), wasm);
const gzipped = `const ROOFLINE_WASM_GZIP = '${gzipSync(wasm, { level: 9 }).toString('base64')}';`;


const classic = (wasmLine, runtime, extra = '') => `${banner}(function (root) {
'use strict';
${wasmLine}
${runtime}
${api}
if (typeof module === 'object' && module && module.exports) module.exports = createRoofline;
${extra}root.createRoofline = createRoofline;
})(typeof globalThis !== 'undefined' ? globalThis : this);
`;
// the classic scripts, loaded by pages, minified (esbuild: wasm/esbuild.mjs); the ES modules, for
// Node and for bundlers, which minify themselves, stay as they are
writeFileSync(join(outdir, 'roofline.js'), minifyScript(classic(`${gzipped}\n${inflate}`, module)));
writeFileSync(join(outdir, 'roofline-web.js'), minifyScript(classic('', module,
  'createRoofline.split = true;  // the page falls back to roofline.js where the fetch fails\n')));

// Under Node, the Emscripten runtime expects CommonJS's require and __dirname.
const nodeShim = `const __rooflineNode = typeof process === 'object' && process !== null &&
  typeof process.versions === 'object' && process.versions !== null && !!process.versions.node;
const require = __rooflineNode
  ? (process.getBuiltinModule ? process.getBuiltinModule('module') : await import('node:module')).createRequire(import.meta.url)
  : undefined;
const __dirname = __rooflineNode ? require('path').dirname(require('url').fileURLToPath(import.meta.url)) : '';
`;
const esm = `${banner}${nodeShim}${gzipped}
${inflate}
${module}
${api}
export { RooflineError, createRoofline };
export default createRoofline;
`;
writeFileSync(join(outdir, 'roofline.mjs'), esm);
// The same ES module for browsers and bundlers only: without the Node shim, whose top-level
// await bundlers targeting older browsers reject (the npm package's "browser" entry).
writeFileSync(join(outdir, 'roofline.browser.mjs'), `${banner}${gzipped}
${inflate}
${module}
${api}
export { RooflineError, createRoofline };
export default createRoofline;
`);
copyFileSync(join(here, 'roofline.d.ts'), join(outdir, 'roofline.d.ts'));
copyFileSync(join(here, 'roofline.d.ts'), join(outdir, 'roofline.d.mts'));
