// Presets on <roofline-calculator>: the model, gpu, format, dtype and values attributes
// (docs/embedding.md, "Presets"). A page of three decode calculators (tests/web/fixtures/presets.html:
// two with presets of their own, one with bad ones) beside roofline-calculator.js and roofline.js,
// in Spanish and Portuguese, served under the strict CSP and opened from file://. Each calculator
// shows its own presets; a bad preset is said in the page's language, naming its attribute, and
// the rest still applies; a preset means what choosing its selects and typing its fields would;
// attributes changed later apply again; the page URL wins over the presets. Screenshots:
// tests/web/screenshots/presets-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { LANGS, launch, serve, openPage, until, frames, loadUi, shotPath, requireSite, ROOT, SITE_DIR } from './helpers.mjs';

const UI = loadUi();
const env = {};

/** A UI text with its {placeholders} filled (the messages tested here have no plurals). */
function text(id, lang, vars = {}) {
  return UI[id][lang].replace(/\{([A-Za-z0-9_.]+)\}/g, (m, name) => (name in vars ? String(vars[name]) : m));
}

/** A UI text as a pattern: the placeholders in `vars` filled, the others anything. */
function pattern(id, lang, vars = {}) {
  const esc = (x) => String(x).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const parts = UI[id][lang].split(/(\{[A-Za-z0-9_.]+\})/);
  return new RegExp(`^${parts.map((p) => {
    const m = /^\{([A-Za-z0-9_.]+)\}$/.exec(p);
    if (!m) return esc(p);
    return m[1] in vars ? esc(vars[m[1]]) : '.+';
  }).join('')}$`);
}

before(async () => {
  requireSite(['roofline.js', 'roofline-calculator.js', 'roofline.mjs', 'favicon.svg']);
  env.dir = mkdtempSync(join(tmpdir(), 'roofline-presets-'));
  for (const f of ['roofline-calculator.js', 'roofline.js', 'favicon.svg']) copyFileSync(join(SITE_DIR, f), join(env.dir, f));
  const page = readFileSync(join(ROOT, 'tests/web/fixtures/presets.html'), 'utf8');
  for (const lang of LANGS) writeFileSync(join(env.dir, `presets.${lang}.html`), page.replaceAll('{lang}', lang));
  // the lesson's defaults the bad calculator keeps, from the very module the page runs
  const createRoofline = (await import(pathToFileURL(join(SITE_DIR, 'roofline.mjs')).href)).default;
  const rl = await createRoofline();
  env.defaults = { model: rl.lessonCase({ id: 'llama-l4-decode' }).values.model, batch: String(rl.caseArgs({ id: 'llama-l4-decode', function: 'decode' }).batch) };
  env.browser = await launch();
  env.site = await serve(env.dir); // the strict CSP of web/serve.mjs
});

after(async () => {
  await env.browser?.close();
  await env.site?.close();
  if (env.dir) rmSync(env.dir, { recursive: true, force: true });
});

/** What the calculator with this id shows: its selects, its fields, its preset messages, its results. */
function state(page, id) {
  return page.evaluate((x) => {
    const r = document.getElementById(x).shadowRoot;
    const out = { selects: {}, fields: {}, errors: {}, rows: {} };
    for (const s of r.querySelectorAll('select[name]')) out.selects[s.name] = s.value;
    for (const f of r.querySelectorAll('.field[data-field]')) {
      out.fields[f.dataset.field] = f.querySelector('input[name]').value;
      const e = f.querySelector('.error').textContent;
      if (e) out.errors[f.dataset.field] = e;
    }
    for (const o of r.querySelectorAll('output[data-row]')) out.rows[o.dataset.row] = o.textContent;
    const note = r.querySelector('.preset-error');
    out.notes = note ? [...note.querySelectorAll('p')].map((p) => p.textContent) : [];
    out.notesVisible = Boolean(note && note.checkVisibility());
    out.title = r.querySelector('.calc-title').textContent;
    return out;
  }, id);
}

const input = (page, id, fieldId) => page.locator(`#${id} [data-field="${fieldId}"] input[name]`);
const choose = (page, id, selectId, value) => page.locator(`#${id} select[name="${selectId}"]`).selectOption(value);

/** Waits until the calculator with this id has been drawn again (its title node replaced). */
async function redrawn(page, id, change) {
  await page.evaluate((x) => { document.getElementById(x).shadowRoot.querySelector('.calc-title').dataset.old = '1'; }, id);
  await change();
  await until(page, (x) => {
    const t = document.getElementById(x).shadowRoot.querySelector('.calc-title');
    return t && !t.dataset.old;
  }, id);
  await frames(page);
}

const MODES = {
  served: (lang) => ({ url: `${env.site.url}presets.${lang}.html`, allowedOrigin: env.site.url }),
  'file://': (lang) => ({ url: pathToFileURL(join(env.dir, `presets.${lang}.html`)).href, allowedOrigin: 'file:' }),
};

for (const lang of ['es', 'pt']) {
  for (const [mode, where] of Object.entries(MODES)) {
    test(`${lang}, ${mode}: two calculators keep their own presets; a bad one is said, the rest applies, the calculator works`, async () => {
      const { url, allowedOrigin } = where(lang);
      const { page, context, foreign, errors } = await openPage(env.browser, url, { allowedOrigin });
      try {
        const violations = [];
        page.on('console', (m) => { if (/Content Security Policy|Refused to/i.test(m.text())) violations.push(m.text()); });
        const a = await state(page, 'mixtral');
        const b = await state(page, 'llama');
        const bad = await state(page, 'bad');
        // as opened: the bad presets' message above the third calculator's form
        await page.screenshot({ path: shotPath(`presets-${lang}-${mode === 'served' ? 'served' : 'file'}.png`), fullPage: true });
        // each its own model, GPU and batch
        assert.deepEqual([a.selects.model, a.selects.gpu, a.fields.batch], ['mixtral-8x7b', 'h100-sxm', '32']);
        assert.deepEqual([b.selects.model, b.selects.gpu, b.fields.batch], ['llama3.1-70b', 'a100-80gb', env.defaults.batch]);
        assert.deepEqual([a.notes, b.notes], [[], []]);
        assert.deepEqual([a.errors, b.errors], [{}, {}]);
        assert.notEqual(a.rows.total, b.rows.total);
        // the bad presets: each said, naming its attribute, in the page's language
        assert.equal(bad.notesVisible, true, 'the message about the presets is shown');
        assert.equal(bad.notes.length, 2, bad.notes.join('\n'));
        assert.equal(bad.notes[0], text('calc.preset.model.unknown', lang, { id: 'nope' }));
        assert.match(bad.notes[0], /^model: /);
        assert.match(bad.notes[1], pattern('calc.preset.values.bad', lang, { name: 'batch', value: '-3' }));
        // ... and left out: the model and batch are the calculator's own; the rest applied (tokens=4096)
        assert.deepEqual([bad.selects.model, bad.fields.batch, bad.fields.tokens], [env.defaults.model, env.defaults.batch, '4096']);
        assert.deepEqual(bad.errors, {});
        assert.notEqual(bad.rows.total, '—');
        // the batch is refused as typed text is: the same message as typing -3 gives, there
        await input(page, 'bad', 'batch').fill('-3');
        const typed = await until(page, () => document.getElementById('bad').shadowRoot.querySelector('[data-field="batch"] .error').textContent);
        assert.ok(typed.length > 0);
        assert.equal(bad.notes[1], text('calc.preset.values.bad', lang, { name: 'batch', value: '-3', error: typed }));
        // the calculator works: what the first one's presets mean, chosen and typed by hand here
        await choose(page, 'bad', 'model', 'mixtral-8x7b');
        await choose(page, 'bad', 'gpu', 'h100-sxm');
        await input(page, 'bad', 'batch').fill('32');
        await input(page, 'bad', 'tokens').fill('8192');
        await frames(page);
        const byHand = await state(page, 'bad');
        assert.deepEqual(byHand.errors, {});
        assert.deepEqual({ ...byHand.fields }, a.fields, 'the fields the presets gave are those choosing and typing give');
        assert.deepEqual(byHand.rows, a.rows);
        assert.deepEqual(violations, []);
        assert.deepEqual(foreign, []);
        assert.deepEqual(errors, []);
      } finally {
        await context.close();
      }
    });
  }
}

test('attributes changed later apply again, several at once in one build; the messages follow the language', async () => {
  const { page, context, errors } = await openPage(env.browser, `${env.site.url}presets.es.html`, { allowedOrigin: env.site.url });
  try {
    await page.evaluate(() => {
      const el = document.getElementById('mixtral');
      const build = el.build;
      globalThis.__builds = 0;
      el.build = function counted() {
        globalThis.__builds += 1;
        return build.call(this);
      };
    });
    await redrawn(page, 'mixtral', () => page.evaluate(() => {
      const el = document.getElementById('mixtral');
      el.setAttribute('model', 'gpt-oss-20b');
      el.setAttribute('gpu', 'rtx-4090');
      el.setAttribute('values', 'batch=8 gpus=2');
    }));
    let s = await state(page, 'mixtral');
    assert.deepEqual([s.selects.model, s.selects.gpu, s.fields.batch, s.fields.gpus, s.notes], ['gpt-oss-20b', 'rtx-4090', '8', '2', []]);
    await page.waitForTimeout(100);
    assert.equal(await page.evaluate(() => globalThis.__builds), 1, 'three attributes set at once, one build');
    // a bad one, then the same in English
    await redrawn(page, 'mixtral', () => page.evaluate(() => document.getElementById('mixtral').setAttribute('values', 'batch=8 nope=3 gpus=2,5')));
    s = await state(page, 'mixtral');
    assert.equal(s.notes.length, 2, s.notes.join('\n'));
    assert.match(s.notes[0], pattern('calc.preset.values.unknownField', 'es', { name: 'nope' }));
    assert.match(s.notes[0], /batch, kv, gpus, tokens/);
    assert.match(s.notes[1], pattern('calc.preset.values.bad', 'es', { name: 'gpus', value: '2,5' }));
    assert.deepEqual([s.fields.batch, s.fields.gpus], ['8', '1']);
    await redrawn(page, 'mixtral', () => page.evaluate(() => document.getElementById('mixtral').setAttribute('lang', 'en')));
    s = await state(page, 'mixtral');
    assert.match(s.notes[0], pattern('calc.preset.values.unknownField', 'en', { name: 'nope' }));
    assert.match(s.notes[1], /^values: gpus=2,5 was not used\. /);
    // presets removed: the kind's defaults, no message
    await redrawn(page, 'mixtral', () => page.evaluate(() => {
      const el = document.getElementById('mixtral');
      for (const name of ['model', 'gpu', 'values']) el.removeAttribute(name);
    }));
    s = await state(page, 'mixtral');
    assert.deepEqual([s.selects.model, s.fields.batch, s.notes], [env.defaults.model, env.defaults.batch, []]);
    // the other calculators kept theirs
    assert.equal((await state(page, 'llama')).selects.model, 'llama3.1-70b');
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('the page URL wins over the presets where url-state is set, and only there; a calculator with url-state writes links that bring its presets back', async () => {
  const page0 = readFileSync(join(ROOT, 'tests/web/fixtures/presets.html'), 'utf8')
    .replaceAll('{lang}', 'pt')
    .replace('id="mixtral" kind="decode"', 'id="mixtral" kind="decode" url-state');
  writeFileSync(join(env.dir, 'presets-url.html'), page0);
  const { page, context, errors } = await openPage(env.browser, `${env.site.url}presets-url.html?decode.batch=4&decode.gpu=l4`, { allowedOrigin: env.site.url });
  try {
    const a = await state(page, 'mixtral');
    assert.deepEqual([a.selects.model, a.selects.gpu, a.fields.batch], ['mixtral-8x7b', 'l4', '4'], 'url-state: the URL over the presets');
    // without url-state the presets hold: the page's address is not this calculator's state
    const b = await state(page, 'llama');
    assert.deepEqual([b.selects.model, b.selects.gpu], ['llama3.1-70b', 'a100-80gb']);
    assert.notEqual(b.fields.batch, '4');
    // the URL's value is the URL's: a bad one is the field's error, as ever, not the preset's
    await input(page, 'mixtral', 'batch').fill('16');
    const href = await until(page, () => /decode\.batch=16/.test(location.href) && location.href);
    const params = new URL(href).searchParams;
    assert.deepEqual([params.get('decode.model'), params.get('decode.gpu'), params.get('decode.batch')], ['mixtral-8x7b', 'l4', '16']);
    await page.goto(href);
    await until(page, () => [...document.querySelectorAll('roofline-calculator')].every((el) => el.shadowRoot && el.shadowRoot.querySelector('.calc')));
    const again = await state(page, 'mixtral');
    assert.deepEqual([again.selects.model, again.selects.gpu, again.fields.batch], ['mixtral-8x7b', 'l4', '16']);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('the URL of a bad value is the field\'s own error, not a preset message (url-state)', async () => {
  const page0 = readFileSync(join(ROOT, 'tests/web/fixtures/presets.html'), 'utf8')
    .replaceAll('{lang}', 'es')
    .replace('id="mixtral" kind="decode"', 'id="mixtral" kind="decode" url-state');
  writeFileSync(join(env.dir, 'presets-bad-url.html'), page0);
  const { page, context, errors } = await openPage(env.browser, `${env.site.url}presets-bad-url.html?decode.batch=-3`, { allowedOrigin: env.site.url });
  try {
    const a = await state(page, 'mixtral');
    assert.equal(a.fields.batch, '-3');
    assert.ok(a.errors.batch, 'the field shows its error');
    assert.deepEqual(a.notes, []);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('a preset the kind has no select for is not used; a select value it does not offer is said', async () => {
  writeFileSync(join(env.dir, 'presets-kinds.html'), `<!doctype html>
<html lang="pt">
<head><meta charset="utf-8"><title>Presets of other kinds</title><link rel="icon" href="favicon.svg">
<script src="roofline-calculator.js" defer></script></head>
<body>
<roofline-calculator id="batching" kind="batching" dtype="fp8" values="batch=64 inputs=1e4" eager></roofline-calculator>
<roofline-calculator id="batching-int4" kind="batching" dtype="int4" eager></roofline-calculator>
<roofline-calculator id="matmul" kind="matmul" gpu="t4" values="n=4096 m=0,5" eager></roofline-calculator>
<roofline-calculator id="resnet" kind="decode" model="resnet50" eager></roofline-calculator>
<roofline-calculator id="config" kind="decode" model="config" format="custom" eager></roofline-calculator>
</body>
</html>
`);
  const { page, context, errors } = await openPage(env.browser, `${env.site.url}presets-kinds.html`, { allowedOrigin: env.site.url });
  try {
    const bt = await state(page, 'batching');
    assert.deepEqual([bt.selects.dtype, bt.fields.batch, bt.fields.inputs, bt.notes], ['fp8', '64', '10000', []]);
    assert.deepEqual((await state(page, 'batching-int4')).notes, [text('calc.preset.notOffered', 'pt', { attr: 'dtype', id: 'int4' })]);
    const mm = await state(page, 'matmul');
    // no GPU select in this kind: gpu is not used, and not an error; m=0,5 is no English numeral
    assert.equal(mm.fields.n, '4096');
    assert.equal(mm.notes.length, 1, mm.notes.join('\n'));
    assert.match(mm.notes[0], pattern('calc.preset.values.bad', 'pt', { name: 'm', value: '0,5' }));
    assert.deepEqual((await state(page, 'resnet')).notes, [text('calc.preset.notOffered', 'pt', { attr: 'model', id: 'resnet50' })]);
    // a choice beside the catalog's (the reader's own config.json) is no preset; "custom" is one
    const config = await state(page, 'config');
    assert.deepEqual(config.notes, [text('calc.preset.model.unknown', 'pt', { id: 'config' })]);
    assert.deepEqual([config.selects.model, config.selects.format], [env.defaults.model, 'custom']);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});
