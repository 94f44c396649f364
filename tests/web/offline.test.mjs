// The single self-contained file works from file:// with networking blocked (every request is
// routed; any that is not a file:// URL fails the test), and the embed example works under the
// strict CSP served by the site's own server, with no CSP violation and no foreign request.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { readFileSync } from 'node:fs';
import { openPage, until, rows, field, norm, SITE_DIR, KINDS, useBrowserAndSite } from './helpers.mjs';

const env = useBrowserAndSite();

test('roofline-lab.html is one self-contained file: nothing but itself is loaded', () => {
  const html = readFileSync(join(SITE_DIR, 'roofline-lab.html'), 'utf8');
  assert.doesNotMatch(html, /<script[^>]+src=/i);
  assert.doesNotMatch(html, /<link[^>]+rel="stylesheet"/i);
  assert.doesNotMatch(html, /https?:\/\/(?!www\.w3\.org\/2000\/svg)/i, 'no absolute URL to another origin');
  assert.match(html, /createRoofline/);
});

test('the single file works from file:// with the network blocked', async () => {
  const url = pathToFileURL(join(SITE_DIR, 'roofline-lab.html')).href;
  const { page, context, foreign, errors } = await openPage(env.browser, `${url}?lang=es`, { allowedOrigin: 'file:' });
  try {
    const requests = [];
    page.on('request', (r) => requests.push(r.url()));
    assert.equal(await page.locator('roofline-calculator').count(), KINDS.length + 1 + 12 + 7, 'the calculators, the device panel, 12 exercises, 7 questions');
    assert.equal((await rows(page, 'matmul')).flops, '65,536,000');
    assert.equal((await rows(page, 'roofline')).ridge, '203.1 FLOPs/B');
    await field(page, 'decode', 'batch').fill('4');
    await field(page, 'decode', 'kv').fill('1.07');
    assert.equal((await rows(page, 'decode')).total, '59');
    assert.equal(await page.locator('.card').count(), 10);
    assert.deepEqual(foreign, [], 'requests to anything but file://');
    assert.deepEqual(requests.filter((u) => !u.startsWith('file:') && !u.startsWith('data:')), []);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

// Older browsers: without Uint8Array.fromBase64 (all but the newest), and without
// DecompressionStream as well (Safari before 16.4, Firefox before 113), where the module inflates
// its wasm with its own decoder (wasm/inflate.js).
for (const missing of [['Uint8Array.fromBase64'], ['Uint8Array.fromBase64', 'DecompressionStream']]) {
  test(`the single file also loads in a browser without ${missing.join(' or ')}`, async () => {
    const url = pathToFileURL(join(SITE_DIR, 'roofline-lab.html')).href;
    const context = await env.browser.newContext();
    try {
      await context.addInitScript((names) => {
        for (const name of names) {
          if (name === 'Uint8Array.fromBase64') delete Uint8Array.fromBase64;
          else delete globalThis[name];
        }
      }, missing);
      const page = await context.newPage();
      const errors = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(`${url}?lang=en`);
      assert.deepEqual(await page.evaluate(() => [typeof Uint8Array.fromBase64, typeof DecompressionStream]),
        ['undefined', missing.includes('DecompressionStream') ? 'undefined' : 'function']);
      await until(page, () => {
        const el = document.querySelector('roofline-calculator[kind="matmul"]');
        const o = el && el.shadowRoot && el.shadowRoot.querySelector('output[data-row="flops"]');
        return o && o.textContent === '65,536,000';
      });
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });
}

// Safari before 16.4 cannot construct a style sheet: each calculator then carries a <style> of its
// own (which a page without a CSP against inline styles, like the single file, applies), and keeps
// it when it is drawn again.
test('the single file works in a browser without constructed style sheets, styled, across a redraw', async () => {
  const url = pathToFileURL(join(SITE_DIR, 'roofline-lab.html')).href;
  const context = await env.browser.newContext();
  try {
    await context.addInitScript(() => {
      delete ShadowRoot.prototype.adoptedStyleSheets;
      delete Document.prototype.adoptedStyleSheets;
      globalThis.CSSStyleSheet = function CSSStyleSheet() { throw new TypeError('Illegal constructor'); };
    });
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${url}?lang=en`);
    const state = () => page.evaluate(() => {
      const root = document.querySelector('roofline-calculator[kind="matmul"]').shadowRoot;
      const out = root && root.querySelector('output[data-row="flops"]');
      return {
        adopted: 'adoptedStyleSheets' in root,
        styles: root.querySelectorAll('style').length,
        first: root.firstChild && root.firstChild.localName,
        flops: out && out.textContent,
        weight: out && getComputedStyle(out).fontWeight,
        title: root.querySelector('h2, h3') && root.querySelector('h2, h3').textContent,
      };
    });
    await until(page, () => {
      const el = document.querySelector('roofline-calculator[kind="matmul"]');
      const o = el && el.shadowRoot && el.shadowRoot.querySelector('output[data-row="flops"]');
      return o && o.textContent === '65,536,000';
    });
    const before = await state();
    assert.deepEqual({ ...before, title: undefined }, { adopted: false, styles: 1, first: 'style', flops: '65,536,000', weight: '700', title: undefined });
    // drawn again in another language: the shadow root is emptied and filled, its <style> stays
    await page.evaluate(() => document.querySelector('roofline-calculator[kind="matmul"]').setAttribute('lang', 'es'));
    await until(page, (t) => {
      const h = document.querySelector('roofline-calculator[kind="matmul"]').shadowRoot.querySelector('h2, h3');
      return h && h.textContent !== t;
    }, before.title);
    const after = await state();
    assert.deepEqual({ ...after, title: undefined }, { ...before, title: undefined });
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('the served page and the embed example make no request to another origin', async () => {
  for (const path of ['index.html?lang=pt', 'embed-example.html']) {
    const { page, context, foreign, errors } = await openPage(env.browser, env.site.url + path, { allowedOrigin: env.site.url });
    try {
      await page.waitForTimeout(200);
      assert.deepEqual(foreign, [], path);
      assert.deepEqual(errors, [], path);
    } finally {
      await context.close();
    }
  }
});

test('the embed example works under the strict CSP, in Spanish, with its own styles', async () => {
  const { page, context, foreign, errors } = await openPage(env.browser, `${env.site.url}embed-example.html`, { allowedOrigin: env.site.url });
  try {
    const res = await page.request.get(`${env.site.url}embed-example.html`);
    assert.equal(res.headers()['content-security-policy'], "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self' data:");
    const violations = await page.evaluate(() => new Promise((resolve) => {
      const seen = [];
      document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.violatedDirective} ${e.blockedURI}`));
      setTimeout(() => resolve(seen), 300);
    }));
    assert.deepEqual(violations, []);
    assert.ok(!errors.some((e) => /Content Security Policy/i.test(e)), errors.join('\n'));
    const el = page.locator('roofline-calculator[kind="decode"]');
    assert.equal(norm(await el.locator('.calc-title').textContent()), 'Tokens por segundo al decodificar');
    // by default each conversation's KV cache is counted (1.07 GB at 8,192 tokens), and said
    assert.equal((await rows(page, 'decode')).total, '17.5');
    assert.match(norm(await el.locator('.summary').textContent()), /Cuenta el KV cache de cada conversación: 1.07 GB con 8,192 tokens\.$/);
    // styles applied through the constructed stylesheet: the card has a border and the summary a background
    const styled = await el.locator('.summary').evaluate((x) => getComputedStyle(x).backgroundColor);
    assert.notEqual(styled, 'rgba(0, 0, 0, 0)');
    await field(page, 'decode', 'batch').fill('4');
    await field(page, 'decode', 'kv').fill('1.07');
    assert.equal((await rows(page, 'decode')).total, '59');
    // terms in an embedded calculator open their definition in place
    assert.ok(await el.locator('details.term-tip').count() > 0);
    // the element follows its lang attribute
    await page.evaluate(() => document.querySelector('roofline-calculator').setAttribute('lang', 'pt'));
    await until(page, () => document.querySelector('roofline-calculator').shadowRoot.querySelector('.calc-title').textContent === 'Tokens por segundo na decodificação');
    assert.equal((await rows(page, 'decode')).total, '59');
    // every kind can be embedded; an unknown kind says so
    await page.evaluate((kinds) => {
      for (const k of [...kinds, 'nope']) {
        const x = document.createElement('roofline-calculator');
        x.setAttribute('kind', k);
        x.setAttribute('lang', 'en');
        document.body.append(x);
      }
    }, KINDS);
    await until(page, () => [...document.querySelectorAll('roofline-calculator')].every((x) => x.shadowRoot && x.shadowRoot.querySelector('.calc, .practice, .form-error')));
    assert.match(await page.locator('roofline-calculator[kind="nope"] .form-error').textContent(), /nope/);
    // the by-hand grid places its cells through element.style, which the strict CSP allows
    const placed = await page.locator('roofline-calculator[kind="byhand"] .c-cell').first().evaluate((x) => getComputedStyle(x).gridRowStart);
    assert.equal(placed, '6');
    assert.deepEqual(await page.locator('roofline-calculator[kind="byhand"] .c-value').allTextContents(), ['265', '650', '80', '300']);
    assert.deepEqual(foreign, []);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});
