// The served page's first screen, prerendered into index.html at build time (web/prerender.mjs):
// it is there before any script runs, in each of the page's languages, the reader's alone shown,
// styled, with the module's numbers; the page's code takes it over without a visible change and
// without losing what the reader typed meanwhile; where it is not the reader's (a link with
// inputs) it stays hidden.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { pathToFileURL } from 'node:url';
import { until, norm, SITE_DIR, LANGS, useBrowserAndSite, renderAll, holdRequests } from './helpers.mjs';

const env = useBrowserAndSite();
const require = createRequire(import.meta.url);
const html = () => readFileSync(join(SITE_DIR, 'index.html'), 'utf8');
const CASE = 'c01-last-layer';

/** The integer the page writes (1,234,567; in Portuguese 1.234.567) for a count the module returns. */
const grouped = (x, lang = 'en') => String(x).replace(/\B(?=(\d{3})+(?!\d))/g, lang === 'pt' ? '.' : ',');
/** The C01 last layer's FLOPs as the first screen shows them in each language. */
const FLOPS = { en: '65,536,000', es: '65,536,000', pt: '65.536.000' };
/** Each language's reader: an address and the browser's language. */
const READERS = {
  en: { query: '?lang=en', locale: 'en-US' },
  es: { query: '?lang=es', locale: 'en-US' }, // asked for in the address
  pt: { query: '', locale: 'pt-BR' }, // the browser's language, no ?lang
};

async function core() {
  return require(join(SITE_DIR, 'roofline.js'))();
}

/**
 * Opens index.html with the page's own code (roofline-page.js) held back until the returned
 * release() is called, so that a test sees the prerendered first screen alone.
 */
async function openHeld(query, { javaScriptEnabled = true, locale = 'en-US' } = {}) {
  const context = await env.browser.newContext({ viewport: { width: 1100, height: 900 }, locale, javaScriptEnabled });
  const errors = [];
  const requests = [];
  context.on('request', (r) => requests.push(r.url()));
  const release = await holdRequests(context, '**/roofline-page.js');
  const page = await context.newPage();
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  await page.goto(`${env.site.url}index.html${query}`, { waitUntil: 'commit' });
  await until(page, (n) => document.querySelectorAll('#lab > [data-screen] footer.page-foot').length === n
    && [...document.querySelectorAll('roofline-calculator')].every((c) => c.shadowRoot), LANGS.length);
  return { page, context, errors, release, requests };
}

/** The languages of the prerendered screens the page shows (each screen's lang, checked against its data-screen). */
function shownScreens() {
  return [...document.querySelectorAll('#lab > [data-screen]')].filter((s) => s.checkVisibility()).map((s) => (s.lang === s.dataset.screen ? s.lang : `${s.dataset.screen}≠${s.lang}`));
}

/**
 * What the first screen shows and where: texts, and the boxes of a few landmarks. Before the page's
 * code runs, in the prerendered screen shown (one per language in the HTML); after, in the page.
 */
function firstScreen() {
  const screens = [...document.querySelectorAll('#lab > [data-screen]')].filter((s) => s.checkVisibility());
  if (screens.length > 1) throw new Error(`${screens.length} prerendered screens shown`);
  const scope = screens[0] || document.getElementById('lab');
  const calc = scope.querySelector('roofline-calculator[kind="matmul"]');
  const r = calc.shadowRoot;
  const box = (el) => {
    const b = el.getBoundingClientRect();
    return [Math.round(b.x), Math.round(b.y), Math.round(b.width), Math.round(b.height)];
  };
  const flops = r.querySelector('output[data-row="flops"]');
  return {
    lang: (scope.closest('[lang]') || document.documentElement).lang,
    header: scope.querySelector('header.masthead').innerText,
    toc: scope.querySelector('nav.toc').innerText,
    intro: scope.querySelector('section.section-matmul .intro').textContent, // (innerText is empty while content-visibility skips the section)
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

/** The prerendered screens of a page's HTML, in order: { lang, html }; and its light DOM's ids. */
function screensOf(page) {
  const lab = page.slice(page.indexOf('<div id="lab"'), page.lastIndexOf('</body>'));
  const parts = lab.split(/(?=<div data-screen=")/).slice(1);
  const light = lab.replace(/<template shadowrootmode[\s\S]*?<\/template>/g, '');
  return { lab, screens: parts.map((x) => ({ lang: /^<div data-screen="([a-z]+)"/.exec(x)[1], html: x })), ids: [...light.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]) };
}

test('index.html holds the first screen in every language: the first calculator with the module\'s result, in a declarative shadow root', async () => {
  const rl = await core();
  const mm = rl.matmul(rl.caseArgs({ id: CASE, function: 'matmul' }));
  const page = html();
  const { lab, screens, ids } = screensOf(page);
  assert.match(lab, /^<div id="lab" data-prerendered="en es pt">/);
  assert.deepEqual(screens.map((x) => x.lang), LANGS, 'one screen per language, English first');
  for (const { lang, html: screen } of screens) {
    assert.match(screen, new RegExp(`^<div data-screen="${lang}" lang="${lang}">`));
    assert.match(screen, /<roofline-calculator kind="matmul" lang="([a-z]+)"[^>]*><template shadowrootmode="open"><link rel="stylesheet" href="roofline-calculator.css"><div data-prerendered lang="([a-z]+)"/);
    assert.equal(/<roofline-calculator kind="matmul" lang="([a-z]+)"/.exec(screen)[1], lang);
    assert.ok(screen.includes(`<output class="value" data-row="flops">${grouped(mm.flops, lang)}</output>`), `the module's ${mm.flops} FLOPs in ${lang}`);
    assert.equal(grouped(mm.flops, lang), FLOPS[lang], "the lesson's C01 last layer");
  }
  assert.deepEqual(ids.filter((id, i) => ids.indexOf(id) !== i), [], 'each id names one element');
  assert.ok(ids.includes('main') && ids.includes('calc-matmul') && ids.includes('main-es') && ids.includes('calc-matmul-pt'), ids.join(' '));
  assert.doesNotMatch(page, /\{[A-Za-z0-9_.]+\}/, 'no unfilled {placeholder}');
  assert.doesNotMatch(page, /<style|style="/, 'no inline style (strict CSP)');
});

test('the single file holds the same first screen, its styles inline, its check in the head and its scripts after it', async () => {
  const lab = readFileSync(join(SITE_DIR, 'roofline-lab.html'), 'utf8');
  const body = lab.slice(lab.indexOf('<body>'));
  const head = lab.slice(0, lab.indexOf('<body>'));
  assert.match(body, /^<body>\n<div id="lab" data-prerendered="en es pt">/);
  assert.match(body, /<roofline-calculator kind="matmul"[^>]*><template shadowrootmode="open"><style>/);
  const { screens } = screensOf(lab);
  assert.deepEqual(screens.map((x) => x.lang), LANGS);
  for (const { lang, html: screen } of screens) assert.ok(screen.includes(`<output class="value" data-row="flops">${FLOPS[lang]}</output>`), lang);
  assert.ok(body.indexOf('<script>') > body.indexOf('</roofline-calculator>'), 'the scripts come after the first screen');
  assert.match(head, /<script>\s*\/\* Roofline Lab — the prerendered first screen's check[^<]*data-prerender/, 'the check that hides it runs in the head');
  assert.doesNotMatch(head, /createRoofline/, 'the module is not in the head');
});

for (const [lang, reader] of Object.entries(READERS)) {
  test(`before any script of the page runs, the first screen is shown, styled, in the reader's language (${lang}: ${reader.query || reader.locale}); the code then takes it over unchanged`, async () => {
    const { page, context, errors, release, requests } = await openHeld(reader.query, { locale: reader.locale });
    try {
      assert.deepEqual(await page.evaluate(shownScreens), [lang], 'the reader\'s screen alone is shown');
      const before = await page.evaluate(firstScreen);
      assert.equal(await page.evaluate(() => Boolean(customElements.get('roofline-calculator'))), false, 'the page\'s code is held back');
      assert.equal(before.lang, lang);
      assert.equal(before.flops, FLOPS[lang]);
      assert.ok(before.flopsVisible, 'the result is visible');
      assert.equal(before.border, 'solid', 'the calculator is styled');
      assert.ok(before.titles.every((x) => !/[{}]/.test(x)), before.titles.join(' | '));
      release();
      await until(page, () => document.getElementById('lab').dataset.rendered && !document.querySelector('roofline-calculator').shadowRoot.querySelector('[data-prerendered]'));
      const after = await page.evaluate(firstScreen);
      for (const key of ['header', 'toc', 'intro', 'calc', 'titles', 'inputs', 'flops', 'border']) {
        assert.deepEqual(norm(JSON.stringify(after[key])), norm(JSON.stringify(before[key])), key);
      }
      assert.equal(after.lang, lang);
      assert.deepEqual(after.boxes, before.boxes, 'nothing on the first screen moved');
      const left = await page.evaluate(() => ({
        marks: ['data-prerender', 'data-screen'].filter((a) => document.documentElement.hasAttribute(a)).concat(document.getElementById('lab').hasAttribute('data-prerendered') ? ['data-prerendered'] : []),
        screens: document.querySelectorAll('[data-screen]').length,
        calcs: [...document.querySelectorAll('roofline-calculator[kind="matmul"]')].map((c) => c.id),
        main: document.querySelectorAll('#main').length,
      }));
      assert.deepEqual(left, { marks: [], screens: 0, calcs: ['calc-matmul'], main: 1 }, 'the other screens are gone, the one kept has its plain ids');
      const otherTexts = requests.filter((u) => /roofline-texts\.([a-z]+)\.js/.test(u) && !u.includes(`roofline-texts.${lang}.js`));
      assert.deepEqual(otherTexts, [], 'no other language\'s texts asked for');
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });
}

test('the single file from file://: its first screen shows in the reader\'s language before its scripts run', async () => {
  // the file with its scripts after the first screen taken out: what shows before they run
  const dir = mkdtempSync(join(tmpdir(), 'roofline-prerender-'));
  try {
    const lab = readFileSync(join(SITE_DIR, 'roofline-lab.html'), 'utf8');
    const cut = lab.indexOf('<script>', lab.indexOf('<body>'));
    writeFileSync(join(dir, 'first.html'), `${lab.slice(0, cut)}</body>\n</html>\n`);
    const url = pathToFileURL(join(dir, 'first.html')).href;
    for (const [lang, reader] of Object.entries(READERS)) {
      const context = await env.browser.newContext({ viewport: { width: 1100, height: 900 }, locale: reader.locale });
      try {
        const page = await context.newPage();
        const errors = [];
        page.on('pageerror', (e) => errors.push(e.message));
        await page.goto(`${url}${reader.query}`);
        assert.deepEqual(await page.evaluate(shownScreens), [lang], lang);
        const s = await page.evaluate(firstScreen);
        assert.equal(s.lang, lang);
        assert.equal(s.flops, FLOPS[lang]);
        assert.ok(s.flopsVisible);
        assert.equal(s.border, 'solid', 'the calculator is styled');
        assert.deepEqual(errors, []);
      } finally {
        await context.close();
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

for (const lang of ['en', 'pt']) {
  test(`what the reader types before the code runs is kept, and so is the focus and the caret (${lang})`, async () => {
    const rl = await core();
    const args = rl.caseArgs({ id: CASE, function: 'matmul' });
    const { page, context, errors, release } = await openHeld(READERS[lang].query, { locale: READERS[lang].locale });
    try {
      const calc = `#lab > [data-screen="${lang}"] roofline-calculator[kind="matmul"]`;
      const n = page.locator(`${calc} input[name="n"]`);
      await n.fill('64');
      await n.press('ArrowLeft');
      const m = page.locator(`${calc} [data-field="m"] input.slider`);
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
      assert.deepEqual(state, { n: '64', m: '10000', flops: grouped(mm.flops, lang), focus: 'roofline-calculator', inner: 'n', caret: 1 });
      await until(page, () => location.search.includes('matmul.n=64'));
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });
}

for (const [query, why] of [['?lang=es&matmul.n=64', 'a link with inputs, in Spanish'], ['?lang=en&matmul.n=64', 'a link with inputs']]) {
  test(`where the prerendered screen is not the reader's (${why}) it stays hidden until the page draws the right one`, async () => {
    const { page, context, errors, release } = await openHeld(query);
    try {
      assert.equal(await page.evaluate(() => document.documentElement.getAttribute('data-prerender')), 'stale');
      assert.deepEqual(await page.evaluate(shownScreens), []);
      assert.equal(await page.evaluate(() => [...document.querySelectorAll('header.masthead, roofline-calculator')].some((x) => x.checkVisibility())), false);
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
      }
      assert.equal(shown.n, '64');
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

test('without JavaScript the first screen still reads, with its numbers: in English, whatever the reader\'s language', async () => {
  for (const reader of Object.values(READERS)) {
    const { page, context } = await openHeld(reader.query, { javaScriptEnabled: false, locale: reader.locale });
    try {
      assert.deepEqual(await page.evaluate(shownScreens), ['en']);
      const s = await page.evaluate(firstScreen);
      assert.equal(s.lang, 'en');
      assert.equal(s.flops, '65,536,000');
      assert.ok(s.flopsVisible);
    } finally {
      await context.close();
    }
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
