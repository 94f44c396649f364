// WebKitGTK's MiniBrowser (Debian's webkit2gtk-driver), driven by WebKitWebDriver over classic
// WebDriver with selenium-webdriver, on an Xvfb display of its own. The suite starts Xvfb (on a
// display it picks itself, -displayfd), the driver (on a free port) and a recording proxy that
// MiniBrowser sends every request to another host through; all are stopped on close and when the
// test process ends. Classic WebDriver has no preload script: the probe comes with the page
// (harness.mjs: served pages get it as their first script, file:// pages a copy with it inline).
import { spawn } from 'node:child_process';
import { Builder, Key } from 'selenium-webdriver';
import { writeFileSync } from 'node:fs';
import { fileUrl, freePort, requireProgram, sleep, startRecorder, stop, track } from './harness.mjs';

export const MINIBROWSER = process.env.MINIBROWSER || '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';
export const WEBDRIVER = process.env.WEBKITWEBDRIVER || 'WebKitWebDriver';
export const VIEWPORT = { width: 1100, height: 900 };

const KEYS = { Tab: Key.TAB, Enter: Key.ENTER, Space: Key.SPACE, Escape: Key.ESCAPE, ArrowDown: Key.ARROW_DOWN };

/** Xvfb on a free display: it writes the display's number to fd 3 once it listens. */
async function startXvfb() {
  const child = track(spawn('Xvfb', ['-displayfd', '3', '-screen', '0', '1400x1500x24', '-nolisten', 'tcp'],
    { detached: true, stdio: ['ignore', 'ignore', 'pipe', 'pipe'] }));
  let err = '';
  child.stderr.on('data', (d) => { err += d; });
  const display = await new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`Xvfb did not start in 10 s: ${err}`)), 10000);
    child.stdio[3].on('data', (d) => {
      out += d;
      if (out.includes('\n')) { clearTimeout(timer); resolve(out.trim()); }
    });
    child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`Xvfb exited (${code}): ${err}`)); });
  });
  return { child, display: `:${display}` };
}

async function waitForDriver(port, child, log) {
  const end = Date.now() + 15000;
  while (Date.now() < end) {
    if (child.exitCode !== null) throw new Error(`WebKitWebDriver exited (${child.exitCode}): ${log()}`);
    const ok = await fetch(`http://127.0.0.1:${port}/status`).then((r) => r.ok, () => false);
    if (ok) return;
    await sleep(100);
  }
  throw new Error(`WebKitWebDriver did not answer on port ${port}: ${log()}`);
}

/** Starts Xvfb, WebKitWebDriver and a MiniBrowser session; `dark` runs MiniBrowser in dark mode. */
export async function launchWebKit({ dark = false } = {}) {
  requireProgram(MINIBROWSER, "Debian's webkit2gtk-driver");
  requireProgram(WEBDRIVER, "Debian's webkit2gtk-driver");
  requireProgram('Xvfb', "Debian's xvfb");
  const parts = [];
  const cleanup = async () => { for (const p of parts.reverse()) await p().catch(() => {}); };
  try {
    const xvfb = await startXvfb();
    parts.push(() => stop(xvfb.child));
    const recorder = await startRecorder();
    parts.push(() => recorder.close());
    let driver;
    let port;
    let log = '';
    for (let attempt = 0; ; attempt += 1) {
      port = await freePort();
      log = '';
      driver = track(spawn(WEBDRIVER, [`--port=${port}`], {
        detached: true,
        env: { ...process.env, DISPLAY: xvfb.display, GDK_BACKEND: 'x11', NO_AT_BRIDGE: '1', WAYLAND_DISPLAY: '' },
        stdio: ['ignore', 'pipe', 'pipe'],
      }));
      driver.stdout.on('data', (d) => { log += d; });
      driver.stderr.on('data', (d) => { log += d; });
      try {
        await waitForDriver(port, driver, () => log);
        break;
      } catch (e) {
        await stop(driver);
        if (attempt >= 2) throw e;  // the free port was taken meanwhile: another one
      }
    }
    parts.push(() => stop(driver));
    const args = ['--automation', `--proxy=http://127.0.0.1:${recorder.port}`, '--ignore-host=127.0.0.1'];
    if (dark) args.push('--dark-mode');
    const session = await new Builder().usingServer(`http://127.0.0.1:${port}`).withCapabilities({
      browserName: 'MiniBrowser',
      'webkitgtk:browserOptions': { binary: MINIBROWSER, args },
    }).build();
    parts.push(() => session.quit());
    const version = (await session.getCapabilities()).get('browserVersion');
    // the window's size such that the viewport is VIEWPORT
    await session.manage().window().setRect({ width: VIEWPORT.width, height: VIEWPORT.height });
    const inner = await session.executeScript('return [innerWidth, innerHeight]');
    await session.manage().window().setRect({ width: 2 * VIEWPORT.width - inner[0], height: 2 * VIEWPORT.height - inner[1] });
    return engine(session, recorder, version, cleanup);
  } catch (e) {
    await cleanup();
    throw e;
  }
}

function engine(session, recorder, version, cleanup) {
  let current = null;

  async function open(url, { remove = [] } = {}) {
    if (current) await current.close();
    let target = url;
    if (url.startsWith('file:')) {
      // a copy with the probe inline (and any feature it removes), beside the others
      const u = new URL(url);
      const name = decodeURIComponent(u.pathname.split('/').pop());
      target = fileUrl(name, { remove }) + u.search + u.hash;
    } else if (remove.length) {
      throw new Error('removing a feature needs a file:// page here (the probe of a served page has no options)');
    }
    const firstSeen = recorder.seen.length;
    await session.get(target);
    current = wrap(firstSeen);
    return current;
  }

  // WebDriver scrolls an element into view before it acts on it, but WebKitGTK 2.50 first finds an
  // element in a section skipped by content-visibility: auto "not interactable": scroll it there
  // first, and let a frame lay the section out.
  const inView = (el) => session.executeScript((e) => new Promise((r) => {
    e.scrollIntoView({ block: 'center' });
    requestAnimationFrame(() => requestAnimationFrame(r));
  }), el);

  function wrap(firstSeen) {
    const self = {
      eval: (fn, ...args) => session.executeScript(fn, ...args),
      async until(fn, arg, { timeout = 20000, interval = 50 } = {}) {
        const end = Date.now() + timeout;
        for (;;) {
          const v = await session.executeScript(fn, arg);
          if (v) return v;
          if (Date.now() > end) throw new Error(`timed out waiting for ${String(fn).slice(0, 200)}`);
          await sleep(interval);
        }
      },
      async element(fn, ...args) {
        const el = await session.executeScript(fn, ...args);
        if (!el || typeof el.click !== 'function') throw new Error(`no element from ${String(fn).slice(0, 200)}`);
        return {
          async click() {
            await inView(el);
            await el.click();
          },
          async fill(text) {
            await inView(el);
            await el.clear();
            await el.sendKeys(text);
          },
          focus: () => session.executeScript((e) => e.focus(), el),
        };
      },
      press: (key) => session.actions({ async: true }).sendKeys(KEYS[key] || key).perform(),
      type: (text) => session.actions({ async: true }).sendKeys(text).perform(),
      async screenshot(path) {
        writeFileSync(path, Buffer.from(await session.takeScreenshot(), 'base64'));
      },
      foreign: () => recorder.seen.slice(firstSeen),
      async problems() {
        const log = await session.executeScript(() => globalThis.__engineProbe || null);
        return { errors: log ? log.errors : ['the probe did not run'], csp: log ? log.csp : [], asked: log ? log.asked : {} };
      },
      close: async () => { if (current === self) current = null; },
    };
    return self;
  }

  return {
    name: 'webkit',
    label: `WebKitGTK ${version} (MiniBrowser)`,
    version,
    open,
    async close() {
      current = null;
      await cleanup();
    },
  };
}
