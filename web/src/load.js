// Files beside the running script (the module, a language's texts, the browser benchmark's
// worker) and loading a classic script. document.currentScript is read once, while the bundle
// runs: later it is null.
const SCRIPT_URL = (document.currentScript && document.currentScript.src) || location.href;

/** The address of a file in the running script's folder. */
export function besideScript(name) {
  return new URL(name, SCRIPT_URL).href;
}

/** Adds <script src> to the page; resolves once it has run, rejects when it cannot be loaded. */
export function injectScript(src) {
  return new Promise((resolve, reject) => {
    const el = document.createElement('script');
    el.src = src;
    el.onload = resolve;
    el.onerror = () => {
      el.remove(); // a later attempt adds its own
      reject(new Error(`could not load ${src}`));
    };
    document.head.append(el);
  });
}
