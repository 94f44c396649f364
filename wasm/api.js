// The public JavaScript API of the Roofline Lab core (docs/api.md). This file is appended to the
// Emscripten output in both roofline.js and roofline.mjs; it computes nothing itself: every
// function writes its one plain argument object as JSON into the module's memory, the core
// (wasm/bindings.cpp) answers with JSON, and the function returns the parsed result or throws a
// RooflineError.
/* global rooflineGunzip, ROOFLINE_WASM_GZIP, createRooflineModule -- from inflate.js, the build and Emscripten's output */
/* exported createRoofline */

/**
 * A bad argument: `code` is stable (see errorCodes()), `field` names the argument at fault, and
 * `errors` lists every bad argument of the call as { code, field, message } (this one first).
 */
class RooflineError extends Error {
  constructor(code, field, message, errors) {
    super(message);
    this.name = 'RooflineError';
    this.code = code;
    this.field = field;
    this.errors = Array.isArray(errors) && errors.length
      ? errors.map(function (e) { return { code: e[0], field: e[1], message: e[2] }; })
      : [{ code: code, field: field, message: message }];
  }
}

// The core's limits on arguments (core/include/roofline/json.hpp); checked here as well, while
// encoding, so that a cyclic or huge object fails fast with the core's error instead of
// overflowing the stack or building a huge text.
const ROOFLINE_MAX_DEPTH = 8;
const ROOFLINE_MAX_VALUES = 1e6;

function rooflineTooLarge(message) {
  return new RooflineError('too_large', '', message);
}

/** A JSON string literal: as is when nothing needs escaping (the usual short key or id). */
function rooflineQuote(s) {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x22 || c === 0x5c || (c >= 0xd800 && c <= 0xdfff)) return JSON.stringify(s);
  }
  return '"' + s + '"';
}

/**
 * One argument value as JSON text, with the conversions the core expects: keys whose value is
 * undefined are left out; undefined and null are null; numbers are written exactly (String(x)
 * is the shortest text that reads back identically; -0 keeps its sign; NaN, Infinity and
 * -Infinity are written as those tokens so that the core reports them as not_finite); arrays
 * by index; other objects by Object.keys; functions, symbols and bigints as {} (the core then
 * says what it expected).
 */
function rooflineEncode(v, depth, budget) {
  if (depth > ROOFLINE_MAX_DEPTH) throw rooflineTooLarge('arguments are nested too deeply');
  if (++budget.values > ROOFLINE_MAX_VALUES) throw rooflineTooLarge('arguments hold too many values');
  switch (typeof v) {
    case 'number': return v === 0 && 1 / v < 0 ? '-0' : '' + v;
    case 'string': return rooflineQuote(v);
    case 'boolean': return v ? 'true' : 'false';
    case 'undefined': return 'null';
    case 'object': break;
    default: return '{}';
  }
  if (v === null) return 'null';
  if (Array.isArray(v)) {
    const n = v.length;
    if (n > ROOFLINE_MAX_VALUES) throw rooflineTooLarge('arguments hold too many values');
    let s = '[';
    for (let i = 0; i < n; i++) s += (i === 0 ? '' : ',') + rooflineEncode(v[i], depth + 1, budget);
    return s + ']';
  }
  const keys = Object.keys(v);
  let s = '{';
  for (let i = 0; i < keys.length; i++) {
    const field = v[keys[i]];
    if (field === undefined) continue;  // {n: undefined} is the same as no n
    s += (s.length === 1 ? '' : ',') + rooflineQuote(keys[i]) + ':' + rooflineEncode(field, depth + 1, budget);
  }
  return s + '}';
}

/**
 * The inlined wasm (roofline.js, roofline.mjs) is gzip-compressed, then base64: less than half
 * the size of the plain base64 (docs/building.md). It is inflated here: by Node's zlib, by the
 * browser's DecompressionStream, or where a browser has none by rooflineGunzip (inflate.js).
 */
function rooflineInflate(base64) {
  if (typeof process === 'object' && process && process.versions && process.versions.node && typeof require === 'function') {
    // Node: zlib, several times faster here than the stream below
    return Promise.resolve(require('zlib').gunzipSync(Buffer.from(base64, 'base64')));
  }
  let bytes;
  if (typeof Uint8Array.fromBase64 === 'function') {
    bytes = Uint8Array.fromBase64(base64); // native: ≈ 0.1 ms here against 1.4–6.5 ms for the loop below (Chromium, this module)
  } else {
    const text = atob(base64);
    bytes = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  }
  if (typeof DecompressionStream !== 'function') {
    // Safari before 16.4, Firefox before 113: the decoder that comes with the module (inflate.js)
    try {
      return Promise.resolve(rooflineGunzip(bytes));
    } catch (e) {
      return Promise.reject(e);
    }
  }
  return new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'))).arrayBuffer();
}

/**
 * Loads the module (the wasm is inlined: nothing is fetched) and resolves to the API object.
 * @param {object} [options] Emscripten module options (e.g. print, printErr).
 */
function createRoofline(options) {
  const settings = Object.assign({}, options);
  const ready = typeof ROOFLINE_WASM_GZIP === 'string' && !settings.wasmBinary
    ? rooflineInflate(ROOFLINE_WASM_GZIP).then(function (binary) { settings.wasmBinary = binary; })
    : Promise.resolve();
  return ready.then(function () { return createRooflineModule(settings); }).then(function (module) {
    // TextEncoder and TextDecoder are the fastest way across in Node (a few tens of
    // nanoseconds for a call's text) and exist in every browser that runs WebAssembly.
    const encoder = new TextEncoder();
    const decoder = new TextDecoder();
    let requestAt = 0;
    let requestSize = 0;

    // Writes `text` as UTF-8 into the request buffer; returns its length in bytes.
    function send(text) {
      if (3 * text.length > requestSize) {  // a UTF-16 unit takes at most 3 bytes of UTF-8
        requestSize = Math.max(3 * text.length, 2 * requestSize, 256);
        requestAt = module._roofline_request(requestSize);
      }
      // module.HEAPU8 is read after the calls: the memory may have grown.
      return encoder.encodeInto(text, module.HEAPU8.subarray(requestAt, requestAt + requestSize)).written;
    }

    // The reply buffer as text.
    function receive() {
      const at = module._roofline_reply();
      return decoder.decode(module.HEAPU8.subarray(at, at + module._roofline_reply_size()));
    }

    module._roofline_function_names();
    const names = JSON.parse(receive());
    const api = { RooflineError: RooflineError };
    names.forEach(function (name, index) {
      api[name] = function (args) {
        let status;
        let reply;
        try {
          const bytes = send(rooflineEncode(args === undefined ? {} : args, 0, { values: 0 }));
          status = module._roofline_invoke(index, bytes);
          reply = JSON.parse(receive());
        } catch (e) {
          if (e instanceof RooflineError) throw e;
          // Only a failure outside the core gets here (e.g. a getter on the argument threw).
          throw new RooflineError('internal_error', '', String(e && e.message ? e.message : e));
        }
        if (status === 0) return reply;
        throw new RooflineError(reply[0], reply[1], reply[2], reply[3]);
      };
    });
    return Object.freeze(api);
  });
}
