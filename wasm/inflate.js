/**
 * A gzip decoder (RFC 1952 around RFC 1951's DEFLATE) for the inlined wasm, where the browser has
 * no DecompressionStream (Safari before 16.4, Firefox before 113: both run the module otherwise).
 * Small and plain rather than fast: a Huffman code is read one bit at a time, which inflates this
 * module's wasm in a few milliseconds. The length and the CRC-32 in the gzip trailer are checked,
 * so a damaged file is reported, never run.
 * @param {Uint8Array} src a whole gzip member
 * @returns {Uint8Array} the inflated bytes
 */
/* exported rooflineGunzip -- used by api.js, joined after it */
function rooflineGunzip(src) {
  function fail(what) {
    throw new Error('Roofline Lab: the inlined module cannot be inflated (' + what + ')');
  }
  if (src.length < 18 || src[0] !== 0x1f || src[1] !== 0x8b || src[2] !== 8) fail('not gzip');
  const flags = src[3];
  let pos = 10;
  if (flags & 4) pos += 2 + (src[pos] | (src[pos + 1] << 8)); // FEXTRA
  if (flags & 8) while (pos < src.length && src[pos++] !== 0); // FNAME
  if (flags & 16) while (pos < src.length && src[pos++] !== 0); // FCOMMENT
  if (flags & 2) pos += 2; // FHCRC
  const end = src.length - 8; // the trailer: CRC-32, then the size modulo 2^32
  const word = (at) => (src[at] | (src[at + 1] << 8) | (src[at + 2] << 16) | (src[at + 3] << 24)) >>> 0;
  const size = word(end + 4);
  if (size > 1032 * src.length) fail('size'); // DEFLATE expands at most ≈ 1032 times
  const out = new Uint8Array(size);
  let o = 0;

  let bitBuf = 0;
  let bitCnt = 0;
  function bits(n) {
    while (bitCnt < n) {
      if (pos >= end) fail('truncated');
      bitBuf |= src[pos++] << bitCnt;
      bitCnt += 8;
    }
    const v = bitBuf & ((1 << n) - 1);
    bitBuf >>>= n;
    bitCnt -= n;
    return v;
  }

  // A canonical Huffman code from its code lengths: how many codes of each length, and the
  // symbols in code order.
  function code(lengths) {
    const count = new Uint16Array(16);
    const symbol = new Uint16Array(lengths.length);
    for (let s = 0; s < lengths.length; s++) count[lengths[s]]++;
    count[0] = 0;
    let left = 1;
    for (let len = 1; len < 16; len++) {
      left = (left << 1) - count[len];
      if (left < 0) fail('over-subscribed code');
    }
    const offs = new Uint16Array(16);
    for (let len = 1; len < 15; len++) offs[len + 1] = offs[len] + count[len];
    for (let s = 0; s < lengths.length; s++) if (lengths[s]) symbol[offs[lengths[s]]++] = s;
    return { count, symbol };
  }
  function decode(h) {
    let c = 0;
    let first = 0;
    let index = 0;
    for (let len = 1; len < 16; len++) {
      c |= bits(1);
      const n = h.count[len];
      if (c - n < first) return h.symbol[index + (c - first)];
      index += n;
      first = (first + n) << 1;
      c <<= 1;
    }
    return fail('invalid code');
  }

  const LBASE = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258];
  const LEXT = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0];
  const DBASE = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073,
    4097, 6145, 8193, 12289, 16385, 24577];
  const DEXT = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13];

  function inflateCodes(lit, dist) {
    for (;;) {
      let sym = decode(lit);
      if (sym < 256) {
        if (o >= size) fail('longer than its size');
        out[o++] = sym;
      } else if (sym === 256) {
        return;
      } else {
        sym -= 257;
        if (sym >= 29) fail('invalid length');
        const len = LBASE[sym] + bits(LEXT[sym]);
        const ds = decode(dist);
        if (ds >= 30) fail('invalid distance');
        const d = DBASE[ds] + bits(DEXT[ds]);
        if (d > o) fail('distance too far back');
        if (o + len > size) fail('longer than its size');
        for (let k = 0; k < len; k++, o++) out[o] = out[o - d];
      }
    }
  }

  let fixed = null;
  const ORDER = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15];
  let last = 0;
  while (!last) {
    last = bits(1);
    const type = bits(2);
    if (type === 0) {
      // stored: the rest of the current byte is padding
      bitBuf = 0;
      bitCnt = 0;
      if (pos + 4 > end) fail('truncated');
      const len = src[pos] | (src[pos + 1] << 8);
      if (len !== (~(src[pos + 2] | (src[pos + 3] << 8)) & 0xffff)) fail('stored block length');
      pos += 4;
      if (pos + len > end) fail('truncated');
      if (o + len > size) fail('longer than its size');
      out.set(src.subarray(pos, pos + len), o);
      pos += len;
      o += len;
    } else if (type === 1) {
      if (!fixed) {
        const l = new Uint8Array(288);
        l.fill(8, 0, 144);
        l.fill(9, 144, 256);
        l.fill(7, 256, 280);
        l.fill(8, 280, 288);
        fixed = [code(l), code(new Uint8Array(30).fill(5))];
      }
      inflateCodes(fixed[0], fixed[1]);
    } else if (type === 2) {
      const nlen = bits(5) + 257;
      const ndist = bits(5) + 1;
      const ncode = bits(4) + 4;
      if (nlen > 286 || ndist > 30) fail('too many codes');
      const cl = new Uint8Array(19);
      for (let i = 0; i < ncode; i++) cl[ORDER[i]] = bits(3);
      const clCode = code(cl);
      const lengths = new Uint8Array(nlen + ndist);
      let i = 0;
      while (i < nlen + ndist) {
        const sym = decode(clCode);
        if (sym < 16) {
          lengths[i++] = sym;
          continue;
        }
        let len = 0;
        let rep;
        if (sym === 16) {
          if (i === 0) fail('repeat with nothing before it');
          len = lengths[i - 1];
          rep = 3 + bits(2);
        } else if (sym === 17) {
          rep = 3 + bits(3);
        } else {
          rep = 11 + bits(7);
        }
        if (i + rep > nlen + ndist) fail('too many lengths');
        while (rep--) lengths[i++] = len;
      }
      if (lengths[256] === 0) fail('no end-of-block code');
      inflateCodes(code(lengths.subarray(0, nlen)), code(lengths.subarray(nlen)));
    } else {
      fail('invalid block type');
    }
  }
  if (o !== size) fail('shorter than its size');

  let crc = -1;
  const table = new Int32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c;
  }
  for (let i = 0; i < size; i++) crc = table[(crc ^ out[i]) & 0xff] ^ (crc >>> 8);
  if (((crc ^ -1) >>> 0) !== word(end)) fail('CRC-32 mismatch');
  return out;
}
