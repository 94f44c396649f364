// Calculators prerendered for authors (snippets/<kind>.<lang>.html, web/prerender.mjs): pasted
// into a page, each shows its calculator before any script has run, styled and under the strict
// CSP, with what the element then draws in its place, to the pixel; the element takes it over
// keeping what the reader typed meanwhile. The embed example holds one (its decode calculator).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { until, norm, SITE_DIR, LANGS, useBrowserAndSite, holdRequests } from './helpers.mjs';
import { SNIPPET_KINDS } from '../../web/src/kinds.js';

const env = useBrowserAndSite();
// every calculator but byhand (its grid is placed through element.style) and device (it measures
// the reader's machine): see SNIPPET_KINDS in web/build.mjs
const KINDS = SNIPPET_KINDS;
const snippet = (kind, lang) => readFileSync(join(SITE_DIR, 'snippets', `${kind}.${lang}.html`), 'utf8');

/** An author's page: a paragraph, the element script and the snippet, served with the site's CSP. */
function authorPage(body) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>An article</title>
<link rel="icon" href="favicon.svg"><link rel="stylesheet" href="embed-example.css"></head>
<body><main><p>Someone else's article.</p><script src="roofline-calculator.js" defer></script>
${body}</main></body></html>`;
}

/**
 * Opens `html` at the site's address, with roofline-calculator.js held back until release()
 * (or refused, with `block`): the test sees the prerendered calculator alone first.
 */
async function openAuthor(html, { block = false, javaScriptEnabled = true, plain = false } = {}) {
  const context = await env.browser.newContext({ viewport: { width: 1100, height: 900 }, locale: 'en-US', javaScriptEnabled });
  const errors = [];
  // (plain: an element with nothing prerendered, its script let through at once)
  let release = () => {};
  if (block) await context.route('**/roofline-calculator.js', (route) => route.abort());
  else if (!plain) release = await holdRequests(context, '**/roofline-calculator.js');
  const page = await context.newPage();
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error' && !(block && /ERR_FAILED/.test(m.text()))) errors.push(m.text());
  });
  // the page is the site's own server's answer, CSP included, with this body
  await page.route('**/author.html', async (route) => {
    const response = await route.fetch({ url: `${env.site.url}embed-example.html` });
    await route.fulfill({ response, body: html });
  });
  // (not until 'load': that waits for the held script)
  await page.goto(`${env.site.url}author.html`, { waitUntil: 'commit' });
  // the whole page parsed (a deferred script held back leaves readyState at "interactive"): a
  // prerendered copy shows while the parser is still inside it, its last lines not there yet
  await until(page, () => {
    if (document.readyState === 'loading') return false;
    const el = document.querySelector('roofline-calculator');
    const out = el && el.shadowRoot && el.shadowRoot.querySelector('output');
    return Boolean(out && out.checkVisibility() && out.textContent.trim() !== '');
  });
  return { page, context, errors, release };
}

/** The calculator as the reader sees it: its text and every output, and whether it is styled. */
function shown(kind) {
  const r = document.querySelector(`roofline-calculator[kind="${kind}"]`).shadowRoot;
  const calc = r.querySelector('section.calc');
  return {
    text: calc.innerText,
    outputs: [...r.querySelectorAll('output')].map((o) => o.textContent),
    visible: r.querySelector('output').checkVisibility(),
    border: getComputedStyle(calc).borderTopStyle,
    prerendered: Boolean(r.querySelector('[data-prerendered]')),
  };
}

/** Chooses the GPU list's last entry (not "custom") in the page's calculator; returns its value. */
async function pickLastGpu(page) {
  const gpu = page.locator('roofline-calculator select[name="gpu"]');
  const options = await gpu.evaluate((el) => [...el.options].map((o) => o.value));
  const last = options.filter((v) => v !== 'custom').at(-1);
  await gpu.selectOption(last);
  return last;
}

/** Moves a field's slider in the page's calculator to its 'min' or 'max' end, as a drag would. */
function moveSlider(page, fieldId, end) {
  return page.locator(`roofline-calculator [data-field="${fieldId}"] input.slider`).evaluate((el, e) => {
    el.value = el[e];
    el.dispatchEvent(new Event('input', { bubbles: true }));
  }, end);
}

const built = (kind) => {
  const r = document.querySelector(`roofline-calculator[kind="${kind}"]`).shadowRoot;
  return Boolean(r.querySelector('.calc') && !r.querySelector('[data-prerendered]'));
};

test('a snippet for every calculator and language: its element, a declarative shadow root, the linked sheet, its language', () => {
  const files = readdirSync(join(SITE_DIR, 'snippets')).sort();
  assert.deepEqual(files, KINDS.flatMap((k) => LANGS.map((l) => `${k}.${l}.html`)).sort());
  for (const kind of KINDS) {
    for (const lang of LANGS) {
      const html = snippet(kind, lang);
      assert.ok(html.startsWith(`<roofline-calculator kind="${kind}" lang="${lang}"><template shadowrootmode="open"><link rel="stylesheet" href="roofline-calculator.css"><div data-prerendered lang="${lang}" hidden>`), `${kind}.${lang}`);
      assert.ok(html.trimEnd().endsWith('</div></template></roofline-calculator>'), `${kind}.${lang}`);
      assert.doesNotMatch(html, /<script|\sstyle=|\son[a-z]+=/i, `${kind}.${lang}: no script, inline style or handler`);
      assert.doesNotMatch(html, /\{[a-zA-Z]+\}|NaN|Infinity|undefined/, `${kind}.${lang}: no placeholder or non-number`);
    }
  }
  // the charts are in it (drawn at build time), with their data tables
  assert.match(snippet('decode', 'es'), /<svg[^>]*viewBox="/);
});

test('pasted into a page, each calculator shows before its script, styled, and the element draws exactly the same in its place', async () => {
  for (const [kind, lang] of [['matmul', 'pt'], ['roofline', 'en'], ['decode', 'es'], ['batching', 'en'], ['clocks', 'es'], ['tile', 'pt'], ['quant', 'en']]) {
    const { page, context, errors, release } = await openAuthor(authorPage(snippet(kind, lang)));
    try {
      const before = await page.evaluate(shown, kind);
      assert.equal(before.prerendered, true, `${kind}: still the prerendered copy`);
      assert.equal(before.visible, true, `${kind}: visible before the script`);
      assert.equal(before.border, 'solid', `${kind}: styled by roofline-calculator.css before the script`);
      assert.ok(before.outputs.length > 3 && before.outputs.every((o) => o.trim() !== ''), `${kind}: every output written`);
      const pixels = createHash('md5').update(await page.locator('roofline-calculator').screenshot()).digest('hex');
      release();
      await until(page, built, kind);
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      const after = await page.evaluate(shown, kind);
      assert.deepEqual(after.outputs, before.outputs, `${kind}.${lang}: the module draws the same figures`);
      assert.equal(after.text, before.text, `${kind}.${lang}: the same text`);
      const pixelsAfter = createHash('md5').update(await page.locator('roofline-calculator').screenshot()).digest('hex');
      assert.equal(pixelsAfter, pixels, `${kind}.${lang}: the same pixels`);
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  }
});

test('typed into a prerendered calculator before its script: the element keeps it, with the focus and the caret', async () => {
  const { page, context, errors, release } = await openAuthor(authorPage(snippet('decode', 'es')));
  try {
    const input = page.locator('roofline-calculator[kind="decode"] [data-field="batch"] input[type="text"]');
    await input.fill('');
    await input.type('16');
    const typedTotal = await page.evaluate(() => document.querySelector('roofline-calculator').shadowRoot.querySelector('output[data-row="total"]').textContent);
    release();
    await until(page, built, 'decode');
    const after = await page.evaluate(() => {
      const r = document.querySelector('roofline-calculator').shadowRoot;
      const field = r.querySelector('[data-field="batch"] input[type="text"]');
      return { value: field.value, focused: r.activeElement === field, caret: field.selectionStart, total: r.querySelector('output[data-row="total"]').textContent };
    });
    assert.equal(after.value, '16');
    assert.equal(after.focused, true);
    assert.equal(after.caret, 2);
    // the total follows the typed batch once the element has built it (16 conversations, not 1)
    assert.notEqual(norm(after.total), norm(typedTotal));
    await input.type('0');
    await until(page, () => document.querySelector('roofline-calculator').shadowRoot.querySelector('[data-field="batch"] input[type="text"]').value === '160');
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('the embed example: its decode calculator shows before the script, the module takes it over; without JavaScript it stays readable', async () => {
  const embed = readFileSync(join(SITE_DIR, 'embed-example.html'), 'utf8');
  assert.ok(embed.includes(snippet('decode', 'es').trim()), 'the embed example holds snippets/decode.es.html');
  // no script at all: the figures are there to read
  {
    const { page, context } = await openAuthor(embed, { javaScriptEnabled: false });
    try {
      const s = await page.evaluate(shown, 'decode');
      assert.equal(s.visible, true);
      assert.ok(s.outputs.every((o) => o.trim() !== ''));
    } finally {
      await context.close();
    }
  }
  // the element script refused: the same, and nothing else breaks
  {
    const { page, context, errors } = await openAuthor(embed, { block: true });
    try {
      const s = await page.evaluate(shown, 'decode');
      assert.equal(s.visible, true);
      assert.equal(s.prerendered, true);
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  }
});

test('a prerendered copy in another language than the element is built in is replaced, not carried over', async () => {
  // an element whose lang an author changed after pasting: the Spanish copy, an English element
  const html = snippet('matmul', 'es').replace('lang="es"><template', 'lang="en"><template');
  const { page, context, errors, release } = await openAuthor(authorPage(html));
  try {
    await page.locator('roofline-calculator input[name="n"]').fill('3');
    release();
    await until(page, built, 'matmul');
    const s = await page.evaluate(() => {
      const r = document.querySelector('roofline-calculator').shadowRoot;
      return { title: r.querySelector('.calc-title').textContent, n: r.querySelector('input[name="n"]').value };
    });
    assert.match(s.title, /FLOPs/);
    assert.doesNotMatch(s.title, /multiplicaci/i);
    assert.notEqual(s.n, '3', 'not carried over from the Spanish copy');
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('a select changed in a prerendered calculator before its script is kept too, its preset applied, with what was typed', async () => {
  // the same actions on the prerendered copy, then on a calculator already built: the same result
  const act = async (page) => {
    const other = await pickLastGpu(page);
    await page.locator('roofline-calculator [data-field="batch"] input[type="text"]').fill('8');
    await page.locator('roofline-calculator select[name="gpu"]').focus();
    return other;
  };
  const read = (page) => page.evaluate(() => {
    const r = document.querySelector('roofline-calculator').shadowRoot;
    return {
      gpu: r.querySelector('select[name="gpu"]').value,
      bw: r.querySelector('[data-field="bw"] input[type="text"]').value,
      batch: r.querySelector('[data-field="batch"] input[type="text"]').value,
      outputs: [...r.querySelectorAll('output')].map((o) => o.textContent),
      focused: r.activeElement && r.activeElement.name,
    };
  });
  const held = await openAuthor(authorPage(snippet('decode', 'en')));
  let carried;
  let chosen;
  try {
    chosen = await act(held.page);
    held.release();
    await until(held.page, built, 'decode');
    carried = await read(held.page);
    assert.deepEqual(held.errors, []);
  } finally {
    await held.context.close();
  }
  const live = await openAuthor(authorPage('<roofline-calculator kind="decode" lang="en"></roofline-calculator>'), { plain: true });
  try {
    await act(live.page);
    await until(live.page, (b) => document.querySelector('roofline-calculator').shadowRoot.querySelector('[data-field="batch"] input[type="text"]').value === b, '8');
    const direct = await read(live.page);
    assert.equal(carried.gpu, chosen);
    assert.equal(carried.batch, '8');
    assert.equal(carried.focused, 'gpu');
    assert.deepEqual(carried, direct, 'as if done on the built calculator');
  } finally {
    await live.context.close();
  }
});

test('a slider moved after a select in a prerendered copy is kept over the select\'s preset', async () => {
  const { page, context, errors, release } = await openAuthor(authorPage(snippet('roofline', 'en')));
  try {
    await pickLastGpu(page);
    // the bandwidth slider dragged to its far left (10 GB/s), as a reader would after picking a GPU
    await moveSlider(page, 'bw', 'min');
    release();
    await until(page, built, 'roofline');
    const bw = await page.evaluate(() => document.querySelector('roofline-calculator').shadowRoot.querySelector('[data-field="bw"] input[type="text"]').value);
    assert.equal(bw, '10', 'the slider wins over the preset the select applied');
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('a prerendered copy of another kind than the element is replaced, not carried over, and nothing breaks', async () => {
  // an author who pasted the decode snippet and then changed its kind to clocks
  const html = snippet('decode', 'en').replace('<roofline-calculator kind="decode"', '<roofline-calculator kind="clocks"');
  const { page, context, errors, release } = await openAuthor(authorPage(html));
  try {
    await pickLastGpu(page);
    await moveSlider(page, 'weights', 'max');
    release();
    await until(page, built, 'clocks');
    const s = await page.evaluate(() => {
      const r = document.querySelector('roofline-calculator').shadowRoot;
      return { kind: r.querySelector('section.calc').dataset.kind, outputs: [...r.querySelectorAll('output')].map((o) => o.textContent) };
    });
    assert.equal(s.kind, 'clocks');
    assert.ok(s.outputs.length > 3 && s.outputs.every((o) => o.trim() !== ''));
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});
