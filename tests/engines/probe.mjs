// What the engines suite runs in a page before the page's own scripts: it records errors (uncaught
// ones, rejected promises nobody handled, console.error, a resource that failed to load) and
// Content-Security-Policy violations, and can remove a platform feature first (DecompressionStream,
// to run the module's own gzip decoder). Firefox gets it as a preload script (WebDriver BiDi);
// WebKit's classic WebDriver has none, so there the test server puts it first in the served HTML
// (a same-origin <script src>, which the strict CSP allows) and file:// pages get a copy with it
// inline.

/** Runs in the page: `options.remove` lists globals to take away (each read of one is counted). */
export function probe(options) {
  if (globalThis.__engineProbe) return;
  const log = { errors: [], csp: [], asked: {} };
  Object.defineProperty(globalThis, '__engineProbe', { value: log });
  addEventListener('error', (e) => {
    if (e.target && e.target !== window && e.target.localName) {
      log.errors.push(`failed to load: <${e.target.localName}> ${e.target.src || e.target.href || ''}`);
    } else {
      log.errors.push(`uncaught: ${e.message} (${e.filename}:${e.lineno})`);
    }
  }, true);
  addEventListener('unhandledrejection', (e) => {
    log.errors.push(`unhandled rejection: ${e.reason && e.reason.message ? e.reason.message : String(e.reason)}`);
  });
  document.addEventListener('securitypolicyviolation', (e) => {
    log.csp.push(`${e.violatedDirective} ${e.blockedURI || ''} (${e.sourceFile || ''}:${e.lineNumber || 0})`);
  }, true);
  const consoleError = console.error;
  console.error = function error(...args) {
    log.errors.push(`console.error: ${args.map((a) => (a && a.message) || String(a)).join(' ')}`);
    return consoleError.apply(this, args);
  };
  for (const name of (options && options.remove) || []) {
    log.asked[name] = 0;
    // a getter that answers undefined: `typeof DecompressionStream` is 'undefined', and the reads are counted
    Object.defineProperty(globalThis, name, { configurable: true, get() { log.asked[name] += 1; return undefined; } });
  }
}

/** The probe as the source of a classic script, with its options. */
export function probeSource(options = {}) {
  return `(${probe.toString()})(${JSON.stringify(options)});\n`;
}

/** `html` with `snippet` right after its <meta charset> (which must stay in the first 1024 bytes). */
export function injectAfterCharset(html, snippet) {
  const m = /<meta charset="utf-8">\n?/i.exec(html);
  if (!m) throw new Error('no <meta charset="utf-8"> to put the probe after');
  const at = m.index + m[0].length;
  return html.slice(0, at) + snippet + html.slice(at);
}
