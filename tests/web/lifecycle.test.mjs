// <roofline-calculator> in single-page sites: removed and inserted again it still works and
// leaves nothing behind; many elements share one module; an element without its own lang
// follows the page's <html lang>; while the module loads it shows a loading state that holds
// the calculator's room; printed, it drops its controls.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  SITE_DIR, until, norm, frames, field, shotPath, loadUi, useBrowserAndSite, countWasmInstances, rememberCalculators,
} from './helpers.mjs';
import { aliveAfterCollections } from '../sites/heap.mjs';

const env = useBrowserAndSite();
const ui = loadUi();

async function open(url, { delayModule = 0, viewport = { width: 1100, height: 900 }, waitUntil = 'load' } = {}) {
  const context = await env.browser.newContext({ viewport, locale: 'en-US' });
  await countWasmInstances(context);
  const errors = [];
  if (delayModule) {
    await context.route('**/roofline.js', async (route) => {
      await new Promise((r) => setTimeout(r, delayModule));
      return route.continue();
    });
  }
  const page = await context.newPage();
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  await page.goto(url, { waitUntil });
  return { page, context, errors };
}

// the calculators the embed example holds (its own markup says how many)
const EMBEDDED = (readFileSync(join(SITE_DIR, 'embed-example.html'), 'utf8').match(/<roofline-calculator\b/g) || []).length;

const RENDERED = (n) => {
  const els = [...document.querySelectorAll('roofline-calculator')];
  return els.length === n && els.every((el) => el.shadowRoot && el.shadowRoot.querySelector('.calc, .practice'));
};

function title(page, selector) {
  return page.evaluate((s) => document.querySelector(s).shadowRoot.querySelector('.calc-title').textContent, selector);
}

test('removed and inserted again, an element works; many share one module; removed ones are released', async () => {
  const { page, context, errors } = await open(`${env.site.url}embed-example.html`);
  try {
    await until(page, RENDERED, EMBEDDED);
    // (read through the DOM: a Playwright locator keeps a reference to the element it read)
    const before = await page.evaluate(() => document.querySelector('roofline-calculator[kind="decode"]').shadowRoot.querySelector('output[data-row="total"]').textContent);
    // client-side navigation: out of the document, then back
    await page.evaluate(async () => {
      const el = document.querySelector('roofline-calculator[kind="decode"]');
      const parent = el.parentNode;
      const next = el.nextSibling;
      el.remove();
      await new Promise((r) => requestAnimationFrame(r));
      parent.insertBefore(el, next);
    });
    // typed through the DOM, for the same reason
    await page.evaluate(() => {
      const input = document.querySelector('roofline-calculator[kind="decode"]').shadowRoot.querySelector('[data-field="batch"] input[type="text"]');
      input.focus();
      input.value = '2';
      input.dispatchEvent(new Event('input', { bubbles: true }));
    });
    await until(page, (b) => {
      const t = document.querySelector('roofline-calculator[kind="decode"]').shadowRoot.querySelector('output[data-row="total"]').textContent;
      return t && t.replace(/\s/g, '') !== b.replace(/\s/g, '');
    }, before);
    // a dozen more: still one module
    await page.evaluate(() => {
      for (let i = 0; i < 12; i += 1) {
        const el = document.createElement('roofline-calculator');
        el.setAttribute('kind', i % 2 ? 'matmul' : 'tile');
        el.setAttribute('eager', '');
        document.querySelector('main').append(el);
      }
    });
    await until(page, RENDERED, EMBEDDED + 12);
    assert.equal(await page.evaluate(() => globalThis.__wasmInstances), 1, 'one module for every element');
    // removed for good (some before they rendered): nothing keeps them
    await page.evaluate(() => {
      const late = document.createElement('roofline-calculator');
      late.setAttribute('kind', 'quant');
      document.body.append(late);
    });
    await rememberCalculators(page);
    await page.evaluate(() => { for (const el of document.querySelectorAll('roofline-calculator')) el.remove(); });
    await frames(page);
    // collections forced through the DevTools protocol until the count settles (tests/sites/heap.mjs)
    const alive = await aliveAfterCollections(page);
    assert.equal(alive, 0, `removed elements still referenced: ${await page.evaluate(() => globalThis.__alive.join(', '))}`);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test("an element without lang follows the page's <html lang>; one with lang keeps it", async () => {
  const { page, context, errors } = await open(`${env.site.url}embed-example.html`);
  try {
    await until(page, RENDERED, EMBEDDED);
    await page.evaluate(() => {
      const el = document.createElement('roofline-calculator');
      el.setAttribute('kind', 'matmul');
      el.setAttribute('eager', '');
      el.id = 'follows';
      document.querySelector('main').append(el);
    });
    await until(page, RENDERED, EMBEDDED + 1);
    assert.equal(norm(await title(page, '#follows')), norm(ui['matmul.title'].en));
    for (const lang of ['pt', 'es', 'en']) {
      await page.evaluate((l) => { document.documentElement.lang = l; }, lang);
      await until(page, (want) => document.querySelector('#follows').shadowRoot.querySelector('.calc-title').textContent.trim() === want, ui['matmul.title'][lang].trim());
      assert.equal(norm(await title(page, 'roofline-calculator[kind="decode"]')), norm(ui['decode.title'].es), 'its own lang="es" wins');
    }
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('while the module loads: a loading state, and nothing on screen moves when the calculator appears', async () => {
  for (const kind of ['matmul', 'byhand', 'decode', 'exercise']) {
    const { page, context, errors } = await open(`${env.site.url}embed-example.html`, { delayModule: 1500, waitUntil: 'domcontentloaded' });
    try {
      // a page with one calculator at the top of a documentation-width column, text after it
      await page.evaluate((k) => {
        document.querySelector('main').replaceChildren();
        const col = document.createElement('div');
        const el = document.createElement('roofline-calculator');
        el.setAttribute('kind', k);
        el.setAttribute('lang', 'en');
        if (k === 'exercise') el.setAttribute('exercise', '7');
        const after = document.createElement('p');
        after.id = 'after';
        after.textContent = 'The text after the calculator.';
        col.append(el, after);
        document.querySelector('main').append(col);
      }, kind);
      const loading = await page.evaluate(() => {
        const el = document.querySelector('roofline-calculator');
        const p = el.shadowRoot.querySelector('.loading');
        return { text: p && p.textContent, role: p && p.getAttribute('role'), afterTop: document.querySelector('#after').getBoundingClientRect().top };
      });
      assert.equal(norm(loading.text), norm(ui['calc.loading'].en), `${kind}: the loading state`);
      assert.equal(loading.role, 'status');
      if (kind === 'matmul') await page.screenshot({ path: shotPath('lifecycle-loading.png') });
      await until(page, RENDERED, 1);
      await frames(page);
      const after = await page.evaluate(() => document.querySelector('#after').getBoundingClientRect().top);
      const vh = 900;
      // on screen, it moves by less than 1 rem (the room held is the calculator's height in a
      // documentation column, rounded up)
      assert.ok(loading.afterTop >= vh || Math.abs(after - loading.afterTop) < 16,
        `${kind}: the text after it was on screen at ${loading.afterTop}px and moved to ${after}px`);
      assert.deepEqual(errors.filter((e) => !/Content Security Policy/.test(e)), []);
    } finally {
      await context.close();
    }
  }
});

test('printed, a calculator keeps its numbers and drops its controls', async () => {
  const { page, context, errors } = await open(`${env.site.url}embed-example.html`);
  try {
    await until(page, RENDERED, EMBEDDED);
    await page.emulateMedia({ media: 'print' });
    const shown = await page.evaluate(() => {
      const root = document.querySelector('roofline-calculator[kind="decode"]').shadowRoot;
      const visible = (s) => [...root.querySelectorAll(s)].some((x) => x.getClientRects().length > 0);
      return { sliders: visible('input[type="range"]'), copy: visible('.calc-foot button'), results: visible('output[data-row]'), inputs: visible('input[type="text"]') };
    });
    assert.deepEqual(shown, { sliders: false, copy: false, results: true, inputs: true });
    await page.screenshot({ path: shotPath('lifecycle-print.png'), fullPage: true });
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('an attribute changed on an element still waiting to be built does not build it twice', async () => {
  const { page, context, errors } = await open(`${env.site.url}embed-example.html`);
  try {
    await until(page, RENDERED, EMBEDDED);
    // Far below the fold, it waits for the viewport or for idle time. The attribute changes as
    // soon as the element is marked pending (a mutation observer's callback runs before any frame
    // or idle callback could build it), however slow the machine.
    const built = await page.evaluate(async () => {
      const spacer = document.createElement('div');
      spacer.setAttribute('aria-hidden', 'true');
      spacer.append(...Array.from({ length: 400 }, () => document.createElement('p')));
      for (const p of spacer.children) p.textContent = '·';
      document.querySelector('main').append(spacer);
      const el = document.createElement('roofline-calculator');
      el.setAttribute('kind', 'matmul');
      el.id = 'late';
      let builds = 0;
      let pendingAfterChange = null;
      const changed = new Promise((resolve) => {
        const watch = new MutationObserver(() => {
          if (!el.hasAttribute('data-pending') || pendingAfterChange !== null) return;
          watch.disconnect();
          // each build draws a new calculator section into the shadow root
          new MutationObserver((records) => {
            for (const r of records) for (const n of r.addedNodes) if (n.nodeType === 1 && n.matches('section.calc')) builds += 1;
          }).observe(el.shadowRoot, { childList: true });
          el.setAttribute('lang', 'es');
          pendingAfterChange = el.hasAttribute('data-pending');
          resolve();
        });
        watch.observe(el, { attributes: true, attributeFilter: ['data-pending'] });
      });
      document.querySelector('main').append(el);
      await Promise.race([changed, new Promise((r) => setTimeout(r, 10000))]);
      for (let i = 0; i < 100 && !builds; i += 1) await new Promise((r) => setTimeout(r, 50));
      el.scrollIntoView();
      await new Promise((r) => setTimeout(r, 1500));
      return { pendingAfterChange, builds, title: el.shadowRoot.querySelector('.calc-title') && el.shadowRoot.querySelector('.calc-title').textContent };
    });
    assert.equal(built.pendingAfterChange, true, 'below the fold it waits to be built, and the attribute change does not build it at once');
    assert.equal(built.builds, 1, 'built once, when its turn came');
    assert.equal(norm(built.title), norm(ui['matmul.title'].es), 'in the language it had then');
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test("the element's script asks for roofline.js as it starts (a preload, used once); a page that has the module already gets none", async () => {
  const { page, context, errors } = await open(`${env.site.url}embed-example.html`);
  const warnings = [];
  page.on('console', (m) => { if (m.type() === 'warning') warnings.push(m.text()); });
  try {
    await until(page, RENDERED, EMBEDDED);
    const requests = await page.evaluate(() => performance.getEntriesByType('resource')
      .filter((e) => new URL(e.name).pathname.endsWith('/roofline.js'))
      .map((e) => ({ initiator: e.initiatorType, start: e.startTime })));
    const script = await page.evaluate(() => performance.getEntriesByType('resource')
      .find((e) => new URL(e.name).pathname.endsWith('/roofline-calculator.js')));
    assert.equal(requests.length, 1, `roofline.js fetched once: ${JSON.stringify(requests)}`);
    assert.equal(requests[0].initiator, 'link', 'by the preload the script adds before running its modules');
    assert.ok(requests[0].start >= script.responseEnd - 1, 'once the element script is here');
    // Chromium warns when a preload goes unused; here the element's <script src> takes it
    await page.waitForTimeout(3500);
    assert.deepEqual(warnings.filter((w) => /preload/i.test(w)), []);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
  // a page that loads the module itself first, and one with the element's script but no
  // calculator (a documentation site's other pages): neither preloads
  const pages = {
    'module-first.html': '<script src="roofline.js" defer></script><script src="roofline-calculator.js" defer></script><roofline-calculator kind="matmul"></roofline-calculator>',
    'no-calculator.html': '<script src="roofline-calculator.js" defer></script><p>Nothing to compute here.</p>',
  };
  const context2 = await env.browser.newContext();
  await context2.route(/\/(module-first|no-calculator)\.html$/, (route) => route.fulfill({
    contentType: 'text/html', body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>t</title></head><body>${pages[new URL(route.request().url()).pathname.slice(1)]}</body></html>`,
  }));
  try {
    for (const name of Object.keys(pages)) {
      const page = await context2.newPage();
      const errs = [];
      page.on('pageerror', (e) => errs.push(e.message));
      await page.goto(`${env.site.url}${name}`);
      if (name === 'module-first.html') await until(page, () => document.querySelector('roofline-calculator').shadowRoot?.querySelector('.calc'));
      else await page.waitForTimeout(1000);
      const seen = await page.evaluate(() => ({
        preloads: document.querySelectorAll('link[rel="preload"]').length,
        module: performance.getEntriesByType('resource').filter((e) => new URL(e.name).pathname.endsWith('/roofline.js')).map((e) => e.initiatorType),
      }));
      assert.equal(seen.preloads, 0, name);
      assert.deepEqual(seen.module, name === 'module-first.html' ? ['script'] : [], name);
      assert.deepEqual(errs, [], name);
    }
  } finally {
    await context2.close();
  }
});

test("the roofline-change event's detail is plain data: the inputs, the selects' ids, ok (no internal object)", async () => {
  const { page, context, errors } = await open(`${env.site.url}embed-example.html`);
  try {
    await until(page, RENDERED, EMBEDDED);
    await page.evaluate(() => {
      globalThis.__details = [];
      document.addEventListener('roofline-change', (e) => {
        // structuredClone refuses functions and class instances with them: only data passes
        let cloned;
        try { cloned = structuredClone(e.detail); } catch (err) { cloned = { error: String(err) }; }
        globalThis.__details.push({ keys: Object.keys(e.detail).sort(), cloned });
      });
    });
    await field(page, 'decode', 'batch').fill('4');
    await until(page, () => globalThis.__details.some((d) => d.cloned && d.cloned.kind === 'decode'));
    const d = await page.evaluate(() => globalThis.__details.find((x) => x.cloned && x.cloned.kind === 'decode'));
    assert.deepEqual(d.keys, ['kind', 'ok', 'selects', 'values']);
    assert.equal(d.cloned.values.batch, 4);
    assert.equal(typeof d.cloned.selects.gpu, 'string');
    assert.equal(d.cloned.ok, true);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});
