// The gzip decoder that comes with the module (wasm/inflate.js) for browsers without
// DecompressionStream: byte for byte what zlib compressed, whatever kind of DEFLATE blocks zlib
// chose, and a clear error for anything damaged.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';
import zlib from 'node:zlib';
import { siteDir } from './helpers.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
// evaluated on its own, as the packaged files hold it (a plain function, no module syntax)
const gunzip = vm.runInNewContext(`${readFileSync(join(ROOT, 'wasm/inflate.js'), 'utf8')}\nrooflineGunzip;`);
const inflate = (buf) => Buffer.from(gunzip(new Uint8Array(buf)));

// deterministic pseudo-random bytes (no seedless Math.random: a failure must be reproducible)
function noise(n, seed = 1) {
  const out = Buffer.alloc(n);
  let x = seed;
  for (let i = 0; i < n; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
}

const inputs = {
  empty: Buffer.alloc(0),
  'one byte': Buffer.from([7]),
  'one byte repeated 100,000 times': Buffer.alloc(100000, 0x61),
  'random bytes (70 kB)': noise(70000),
  'a text with long repeats': Buffer.from('The roofline: attainable FLOPS = min(peak, bandwidth × intensity). '.repeat(3000)),
  'the module (roofline.wasm)': readFileSync(join(siteDir, 'roofline.wasm')),
};
const settings = {
  'level 0 (stored blocks)': { level: 0 },
  'level 1': { level: 1 },
  'level 9': { level: 9 },
  'fixed Huffman codes': { level: 9, strategy: zlib.constants.Z_FIXED },
  'Huffman only': { level: 9, strategy: zlib.constants.Z_HUFFMAN_ONLY },
  'run-length matches': { level: 9, strategy: zlib.constants.Z_RLE },
};

test('inflates what zlib compressed, for every kind of block', () => {
  for (const [what, data] of Object.entries(inputs)) {
    for (const [how, options] of Object.entries(settings)) {
      const out = inflate(zlib.gzipSync(data, options));
      assert.equal(out.length, data.length, `${what}, ${how}: length`);
      assert.ok(out.equals(data), `${what}, ${how}: bytes`);
    }
  }
});

test('reads the optional gzip header fields (extra field, name, comment, header CRC)', () => {
  const data = Buffer.from('seventeen bytes!!');
  const plain = zlib.gzipSync(data);
  const header = Buffer.from(plain.subarray(0, 10));
  header[3] = 4 | 8 | 16 | 2;
  const extra = Buffer.from([3, 0, 1, 2, 3]);
  const withFields = Buffer.concat([header, extra, Buffer.from('roofline.wasm\0c\0'), Buffer.from([0xab, 0xcd]), plain.subarray(10)]);
  assert.ok(inflate(withFields).equals(data));
});

test('anything damaged is an error that says so, never bytes', () => {
  const good = zlib.gzipSync(inputs['a text with long repeats'], { level: 9 });
  const damaged = (edit) => { const b = Buffer.from(good); edit(b); return b; };
  const cases = {
    'not gzip': damaged((b) => { b[0] = 0x50; }),
    'another method': damaged((b) => { b[2] = 7; }),
    truncated: good.subarray(0, good.length >> 1),
    'only a header': good.subarray(0, 18),
    'a byte of the data changed': damaged((b) => { b[200] ^= 0x10; }),
    'the CRC-32 changed': damaged((b) => { b[b.length - 8] ^= 1; }),
    'the size said larger': damaged((b) => { b[b.length - 4] += 1; }),
    'the size said smaller': damaged((b) => { b[b.length - 4] -= 1; }),
    'an absurd size': damaged((b) => { b.writeUInt32LE(0xffffffff, b.length - 4); }),
  };
  for (const [what, bytes] of Object.entries(cases)) {
    assert.throws(() => inflate(bytes), /Roofline Lab: the inlined module cannot be inflated \(.+\)/, what);
  }
});

test('the packaged files carry the decoder where the wasm is inlined, and only there', () => {
  for (const name of ['roofline.js', 'roofline.mjs', 'roofline.browser.mjs']) {
    assert.match(readFileSync(join(siteDir, name), 'utf8'), /the inlined module cannot be inflated/, name);
  }
  assert.doesNotMatch(readFileSync(join(siteDir, 'roofline-web.js'), 'utf8'), /the inlined module cannot be inflated/);
});
