#!/usr/bin/env node
// Size of what a reader downloads: each published file raw and gzipped (level 9), and the share
// of it that is the inlined wasm. Usage: node wasm/size.mjs [site-dir]   (default build-wasm/site)
import { readFileSync, existsSync } from 'node:fs';
import { gzipSync, gunzipSync } from 'node:zlib';
import { join } from 'node:path';

const dir = process.argv[2] || 'build-wasm/site';
const files = ['roofline.mjs', 'roofline.js', 'roofline-lab.html'];
const kb = (n) => (n / 1000).toFixed(1).padStart(7) + ' kB';
console.log(`${'file'.padEnd(20)}${'raw'.padStart(10)}${'gzip -9'.padStart(10)}${'wasm (decoded)'.padStart(16)}`);
for (const f of files) {
  const path = join(dir, f);
  if (!existsSync(path)) { console.log(`${f.padEnd(20)} (not built)`); continue; }
  const text = readFileSync(path, 'utf8');
  // the wasm is inlined gzip-compressed, as base64 (wasm/package.mjs)
  const b64 = /ROOFLINE_WASM_GZIP = '([A-Za-z0-9+/=]+)'/.exec(text);
  const wasm = b64 ? gunzipSync(Buffer.from(b64[1], 'base64')).length : 0;
  console.log(`${f.padEnd(20)}${kb(Buffer.byteLength(text))}${kb(gzipSync(text, { level: 9 }).length)}${kb(wasm).padStart(16)}`);
}
