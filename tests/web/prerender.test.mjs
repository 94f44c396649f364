// The served page's first screen, prerendered into index.html at build time (web/prerender.mjs):
// it is there before any script runs, styled, with the module's numbers; the page's code takes it
// over without a visible change and without losing what the reader typed meanwhile; where it is
// not the reader's (another language, a link with inputs) it stays hidden.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { until, norm, SITE_DIR, useBrowserAndSite, renderAll, holdRequests } from './helpers.mjs';

const env = useBrowserAndSite();
const require = createRequire(import.meta.url);
const html = () => readFileSync(join(SITE_DIR, 'index.html'), 'utf8');
const CASE = 'c01-last-layer';

/** The integer the page writes (1,234,567) for a count the module returns. */
const grouped = (x) => String(x).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

async function core() {
  return require(join(SITE_DIR, 'roofline.js'))();
}

/**
 * Opens index.html with the page's own code (roofline-page.js) held back until the returned
 * release() is called, so that a test sees the prerendered first screen alone.
 */
async function openHeld(query, { javaScriptEnabled = true } = {}) {
  const context = await env.browser.newContext({ viewport: { width: 1100, height: 900 }, locale: 'en-US', javaScriptEnabled });
  const errors = [];
  const release = await holdRequests(context, '**/roofline-page.js');
  const page = await context.newPage();
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  await page.goto(`${env.site.url}index.html${query}`, { waitUntil: 'commit' });
  await until(page, () => document.querySelector('footer.page-foot') && document.querySelector('roofline-calculator').shadowRoot);
  return { page, context, errors, release };
}

/** What the first screen shows and where: texts, and the boxes of a few landmarks. */
function firstScreen() {
  const calc = document.querySelector('roofline-calculator[kind="matmul"]');
  const r = calc.shadowRoot;
  const box = (el) => {
    const b = el.getBoundingClientRect();
    return [Math.round(b.x), Math.round(b.y), Math.round(b.width), Math.round(b.height)];
  };
  const flops = r.querySelector('output[data-row="flops"]');
  return {
    header: document.querySelector('header.masthead').innerText,
    toc: document.querySelector('nav.toc').innerText,
    intro: document.querySelector('#matmul .intro').textContent, // (innerText is empty while content-visibility skips the section)
    calc: r.querySelector('section.calc').innerText,
    titles: [...r.querySelectorAll('[title]')].map((x) => x.title),
    inputs: [...r.querySelectorAll('input')].map((x) => `${x.name || x.className}=${x.value}`),
    boxes: {
      calc: box(calc), flops: box(flops), n: box(r.querySelector('input[name="n"]')), table: box(r.querySelector('table.work')),
    },
    flops: flops.textContent,
    flopsVisible: flops.checkVisibility(),
    border: getComputedStyle(r.querySelector('section.calc')).borderTopStyle,
  };
}

test('index.html holds the first screen: the first calculator with the module\'s result, in a declarative shadow root', async () => {
  const rl = await core();
  const mm = rl.matmul(rl.caseArgs({ id: CASE, function: 'matmul' }));
  const page = html();
  const lab = page.slice(page.indexOf('<div id="lab"'));
  assert.match(lab, /^<div id="lab" data-prerendered="en">/);
  assert.match(lab, /<roofline-calculator kind="matmul"[^>]*><template shadowrootmode="open"><link rel="stylesheet" href="roofline-calculator.css">/);
  assert.ok(lab.includes(`<output class="value" data-row="flops">${grouped(mm.flops)}</output>`), `the module's ${mm.flops} FLOPs`);
  assert.equal(grouped(mm.flops), '65,536,000', "the lesson's C01 last layer");
  assert.doesNotMatch(page, /\{[A-Za-z0-9_.]+\}/, 'no unfilled {placeholder}');
  assert.doesNotMatch(page, /<style|style="/, 'no inline style (strict CSP)');
});

test('the single file holds the same first screen, its styles inline, its check in the head and its scripts after it', async () => {
  const lab = readFileSync(join(SITE_DIR, 'roofline-lab.html'), 'utf8');
  const body = lab.slice(lab.indexOf('<body>'));
  const head = lab.slice(0, lab.indexOf('<body>'));
  assert.match(body, /^<body>\n<div id="lab" data-prerendered="en">/);
  assert.match(body, /<roofline-calculator kind="matmul"[^>]*><template shadowrootmode="open"><style>/);
  assert.ok(body.includes('<output class="value" data-row="flops">65,536,000</output>'));
  assert.ok(body.indexOf('<script>') > body.indexOf('</roofline-calculator>'), 'the scripts come after the first screen');
  assert.match(head, /<script>[^<]*markStalePrerender/, 'the check that hides it runs in the head');
  assert.doesNotMatch(head, /createRoofline/, 'the module is not in the head');
});

test('before any script of the page runs, the first screen is shown, styled; the code then takes it over unchanged', async () => {
  const { page, context, errors, release } = await openHeld('?lang=en');
  try {
    const before = await page.evaluate(firstScreen);
    assert.equal(await page.evaluate(() => Boolean(customElements.get('roofline-calculator'))), false, 'the page\'s code is held back');
    assert.equal(before.flops, '65,536,000');
    assert.ok(before.flopsVisible, 'the result is visible');
    assert.equal(before.border, 'solid', 'the calculator is styled');
    assert.ok(before.titles.every((x) => !/[{}]/.test(x)), before.titles.join(' | '));
    release();
    await until(page, () => document.getElementById('lab').dataset.rendered && !document.querySelector('roofline-calculator').shadowRoot.querySelector('[data-prerendered]'));
    const after = await page.evaluate(firstScreen);
    for (const key of ['header', 'toc', 'intro', 'calc', 'titles', 'inputs', 'flops', 'border']) {
      assert.deepEqual(norm(JSON.stringify(after[key])), norm(JSON.stringify(before[key])), key);
    }
    assert.deepEqual(after.boxes, before.boxes, 'nothing on the first screen moved');
    assert.equal(await page.evaluate(() => document.documentElement.hasAttribute('data-prerender') || document.getElementById('lab').hasAttribute('data-prerendered')), false);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('what the reader types before the code runs is kept, and so is the focus and the caret', async () => {
  const rl = await core();
  const args = rl.caseArgs({ id: CASE, function: 'matmul' });
  const { page, context, errors, release } = await openHeld('?lang=en');
  try {
    const n = page.locator('roofline-calculator[kind="matmul"] input[name="n"]');
    await n.fill('64');
    await n.press('ArrowLeft');
    const m = page.locator('roofline-calculator[kind="matmul"] [data-field="m"] input.slider');
    await m.focus();
    await m.press('End'); // the slider's top: 10,000
    await n.focus();
    await n.press('End');
    await n.press('ArrowLeft');
    release();
    await until(page, () => !document.querySelector('roofline-calculator').shadowRoot.querySelector('[data-prerendered]') && document.getElementById('lab').dataset.rendered);
    const state = await page.evaluate(() => {
      const r = document.querySelector('roofline-calculator').shadowRoot;
      const a = r.activeElement;
      return {
        n: r.querySelector('input[name="n"]').value, m: r.querySelector('input[name="m"]').value,
        flops: r.querySelector('output[data-row="flops"]').textContent,
        focus: document.activeElement.localName, inner: a && a.name, caret: a && a.selectionStart,
      };
    });
    const mm = rl.matmul({ ...args, n: 64, m: 10000 });
    assert.deepEqual(state, { n: '64', m: '10000', flops: grouped(mm.flops), focus: 'roofline-calculator', inner: 'n', caret: 1 });
    await until(page, () => location.search.includes('matmul.n=64'));
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

for (const [query, why] of [['?lang=es', 'another language'], ['?lang=en&matmul.n=64', 'a link with inputs']]) {
  test(`where the prerendered screen is not the reader's (${why}) it stays hidden until the page draws the right one`, async () => {
    const { page, context, errors, release } = await openHeld(query);
    try {
      assert.equal(await page.evaluate(() => document.documentElement.getAttribute('data-prerender')), 'stale');
      assert.equal(await page.evaluate(() => document.querySelector('header.masthead').checkVisibility()), false);
      assert.equal(await page.evaluate(() => document.querySelector('roofline-calculator').checkVisibility()), false);
      release();
      await until(page, () => document.getElementById('lab').dataset.rendered && document.querySelector('roofline-calculator').shadowRoot.querySelector('output[data-row="flops"]'));
      const shown = await page.evaluate(() => ({
        h1: document.querySelector('h1').innerText,
        lang: document.documentElement.lang,
        n: document.querySelector('roofline-calculator').shadowRoot.querySelector('input[name="n"]').value,
        visible: document.querySelector('roofline-calculator').checkVisibility(),
      }));
      assert.equal(shown.visible, true);
      if (query.includes('es')) {
        assert.equal(shown.lang, 'es');
        assert.match(shown.h1, /ancho de banda/);
      } else {
        assert.equal(shown.n, '64');
      }
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });
}

test('a reader whose browser asks for Spanish, with no ?lang: the page is in Spanish, and so is its address', async () => {
  const context = await env.browser.newContext({ viewport: { width: 1100, height: 900 }, locale: 'es-MX' });
  try {
    // the Spanish texts arrive late: the hidden English copy must not speak for the page meanwhile
    await context.route('**/roofline-texts.es.js', async (route) => {
      await new Promise((r) => setTimeout(r, 700));
      await route.continue();
    });
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${env.site.url}index.html`);
    await until(page, () => document.getElementById('lab').dataset.rendered && document.querySelector('roofline-calculator').shadowRoot.querySelector('output[data-row="flops"]'));
    await page.waitForTimeout(800); // past the calculators' address updates (250 ms after a change)
    const s = await page.evaluate(() => ({ lang: document.documentElement.lang, search: location.search, calcs: document.querySelectorAll('roofline-calculator[kind="matmul"]').length }));
    assert.equal(s.lang, 'es');
    assert.doesNotMatch(s.search, /lang=en/);
    assert.equal(s.calcs, 1);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('without JavaScript the first screen still reads, with its numbers', async () => {
  const { page, context } = await openHeld('?lang=en', { javaScriptEnabled: false });
  try {
    const s = await page.evaluate(firstScreen);
    assert.equal(s.flops, '65,536,000');
    assert.ok(s.flopsVisible);
  } finally {
    await context.close();
  }
});

test('no calculator on the page shows an unfilled {placeholder}, in its text or its titles', async () => {
  const { page, context, errors, release } = await openHeld('?lang=en');
  try {
    release();
    await until(page, () => document.getElementById('lab').dataset.rendered === 'all'
      && [...document.querySelectorAll('roofline-calculator')].every((el) => el.shadowRoot && el.shadowRoot.querySelector('.calc, .practice')), null, { timeout: 30000 });
    await renderAll(page);
    const found = await page.evaluate(() => {
      const bad = [];
      const re = /\{[A-Za-z0-9_.]+\}/;
      for (const el of document.querySelectorAll('roofline-calculator')) {
        const r = el.shadowRoot;
        if (re.test(r.textContent)) bad.push(`${el.getAttribute('kind')}: text`);
        for (const x of r.querySelectorAll('[title], [aria-label]')) {
          if (re.test(x.title) || re.test(x.getAttribute('aria-label') || '')) bad.push(`${el.getAttribute('kind')}: ${x.title}`);
        }
      }
      return bad;
    });
    assert.deepEqual(found, []);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});
