// Firefox ESR (Debian's firefox-esr), driven over WebDriver BiDi by puppeteer-core: no geckodriver.
// Each page opens in a fresh browser context (its own storage); the probe is a preload script;
// requests are intercepted, and any to another origin than the page's is recorded and aborted.
import puppeteer from 'puppeteer-core';
import { probe } from './probe.mjs';
import { requireProgram, sleep } from './harness.mjs';

export const FIREFOX = process.env.FIREFOX || '/usr/bin/firefox-esr';
export const VIEWPORT = { width: 1100, height: 900 };

const KEYS = { Tab: 'Tab', Enter: 'Enter', Space: 'Space', Escape: 'Escape', ArrowDown: 'ArrowDown' };

/** Starts Firefox (headless); `dark` sets its colour scheme for pages to dark. */
export async function launchFirefox({ dark = false } = {}) {
  requireProgram(FIREFOX, "Debian's firefox-esr");
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX,
    headless: true,
    extraPrefsFirefox: {
      'intl.accept_languages': 'en-US',
      // 0: pages see prefers-color-scheme: dark, 1: light
      'layout.css.prefers-color-scheme.content-override': dark ? 0 : 1,
    },
  });
  const version = (await browser.version()).replace(/^firefox\//i, '');
  let current = null;

  async function open(url, { remove = [], allowedOrigin = null } = {}) {
    if (current) await current.close();
    const context = await browser.createBrowserContext();
    const page = await context.newPage();
    await page.setViewport(VIEWPORT);
    const foreign = [];
    const engineErrors = [];
    page.on('pageerror', (e) => engineErrors.push(`pageerror: ${e.message || e}`));
    page.on('console', (m) => { if (m.type() === 'error') engineErrors.push(`console: ${m.text()}`); });
    await page.setRequestInterception(true);
    page.on('request', (req) => {
      const u = req.url();
      if (/^(file|data|blob):/.test(u) || (allowedOrigin && u.startsWith(allowedOrigin))) {
        req.continue().catch(() => {});
      } else {
        foreign.push(u);
        req.abort().catch(() => {});
      }
    });
    await page.evaluateOnNewDocument(probe, { remove });
    await page.goto(url, { waitUntil: 'load' });
    current = wrap(page, context, foreign, engineErrors);
    return current;
  }

  function wrap(page, context, foreign, engineErrors) {
    const self = {
      eval: (fn, ...args) => page.evaluate(fn, ...args),
      async until(fn, arg, { timeout = 20000, interval = 50 } = {}) {
        const end = Date.now() + timeout;
        for (;;) {
          const v = await page.evaluate(fn, arg);
          if (v) return v;
          if (Date.now() > end) throw new Error(`timed out waiting for ${String(fn).slice(0, 200)}`);
          await sleep(interval);
        }
      },
      /** The element fn(...args) returns, to click or type into as a user would. */
      async element(fn, ...args) {
        const handle = await page.evaluateHandle(fn, ...args);
        const el = handle.asElement();
        if (!el) throw new Error(`no element from ${String(fn).slice(0, 200)}`);
        return {
          click: () => el.click(),
          async fill(text) {
            await el.evaluate((e) => { e.focus(); e.select(); });
            await el.type(text);
          },
          focus: () => el.focus(),
        };
      },
      press: (key) => page.keyboard.press(KEYS[key] || key),
      type: (text) => page.keyboard.type(text),
      screenshot: (path) => page.screenshot({ path }),
      foreign: () => [...foreign],
      async problems() {
        const log = await page.evaluate(() => globalThis.__engineProbe || null);
        return { errors: [...engineErrors, ...(log ? log.errors : ['the probe did not run'])], csp: log ? log.csp : [], asked: log ? log.asked : {} };
      },
      close: async () => { await context.close().catch(() => {}); if (current === self) current = null; },
    };
    return self;
  }

  return {
    name: 'firefox',
    label: `Firefox ${version}`,
    version,
    open,
    async close() {
      if (current) await current.close();
      await browser.close();
    },
  };
}
