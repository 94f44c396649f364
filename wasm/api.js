// The public JavaScript API of the Roofline Lab core (docs/api.md). This file is appended to the
// Emscripten output in both roofline.js and roofline.mjs; it computes nothing itself: every
// function forwards one plain object to the core and either returns its plain result or throws
// a RooflineError.

/** A bad argument: `code` is stable (see errorCodes()), `field` names the argument at fault. */
class RooflineError extends Error {
  constructor(code, field, message) {
    super(message);
    this.name = 'RooflineError';
    this.code = code;
    this.field = field;
  }
}

/**
 * Loads the module (the wasm is inlined: nothing is fetched) and resolves to the API object.
 * @param {object} [options] Emscripten module options (e.g. print, printErr).
 */
function createRoofline(options) {
  return createRooflineModule(Object.assign({}, options)).then(function (module) {
    const api = { RooflineError: RooflineError };
    for (const name of module.functionNames()) {
      api[name] = function (args) {
        let reply;
        try {
          reply = module.invoke(name, args === undefined ? {} : args);
        } catch (e) {
          // Only a failure inside the runtime gets here (e.g. a getter on the argument threw).
          throw new RooflineError('internal_error', '', String(e && e.message ? e.message : e));
        }
        if (reply.ok) return reply.value;
        throw new RooflineError(reply.code, reply.field, reply.message);
      };
    }
    return Object.freeze(api);
  });
}
