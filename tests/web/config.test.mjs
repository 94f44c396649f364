// The reader's own model, from its config.json, in Spanish and Portuguese, served under the strict
// CSP and opened from file://: pasted into the decode calculator, the core reads it in the
// browser (nothing is requested), shows what it counted, and the calculator's rows use it; a
// broken config names its field in the reader's language, and what was typed stays.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { openPage, rows, field, select, norm, SITE_DIR, useBrowserAndSite } from './helpers.mjs';

const env = useBrowserAndSite();
const rl = await (await import(join(SITE_DIR, 'roofline.mjs'))).default();
const ROOT = join(SITE_DIR, '..', '..');
const published = (id) => JSON.stringify(JSON.parse(readFileSync(join(ROOT, 'core/catalog/models', `${id}.json`), 'utf8')).config, null, 2);

const MISSING = {
  es: 'A este config.json le falta config.num_key_value_heads, que esta familia de modelos necesita.',
  pt: 'Falta a este config.json o campo config.num_key_value_heads, de que esta família de modelos precisa.',
};

async function paste(page, text) {
  await select(page, 'decode', 'model').selectOption('config');
  const area = page.locator('roofline-calculator[kind="decode"] textarea[data-model-config]');
  await area.fill(text);
  return area;
}

function figures(page) {
  return page.evaluate(() => Object.fromEntries([...document.querySelector('roofline-calculator[kind="decode"]').shadowRoot
    .querySelectorAll('[data-config-figure]')].map((d) => [d.dataset.configFigure, d.textContent])));
}

function configError(page) {
  return page.evaluate(() => {
    const e = document.querySelector('roofline-calculator[kind="decode"]').shadowRoot.querySelector('[data-config-box] .config-error');
    return e.hidden ? null : e.textContent;
  });
}

for (const [where, url] of [['served, strict CSP', (lang) => `${env.site.url}index.html?lang=${lang}`], ['file://', (lang) => `${pathToFileURL(join(SITE_DIR, 'roofline-lab.html')).href}?lang=${lang}`]]) {
  for (const lang of ['es', 'pt']) {
    test(`a pasted config.json drives the decode calculator; a broken one names its field (${lang}, ${where})`, async () => {
      const { page, context, errors, foreign } = await openPage(env.browser, url(lang), { allowedOrigin: where === 'file://' ? 'file:' : env.site.url });
      try {
        const text = published('mixtral-8x7b');
        await paste(page, text);
        // what the core reads from it, shown with the reader's numbers
        const want = rl.modelFromConfig({ config: text });
        const f = await figures(page);
        assert.ok(f.params && f.active && f.read, JSON.stringify(f));
        assert.equal(norm(f.experts), '2 de 8');
        // the weights field holds what it weighs in BF16, and a step at batch 1 reads 2 of 8 experts
        await field(page, 'decode', 'batch').fill('1');
        await field(page, 'decode', 'kv').fill('0');
        const d = await rows(page, 'decode');
        const shown = Number(/^([\d.,]+) GB$/.exec(d.bytesPerStep)[1].replace(lang === 'pt' ? /\./g : /,/g, '').replace(',', '.')) * 1e9;
        const step = rl.decode({ model: want, batch: 1, bytesPerSecond: 300e9 });
        assert.ok(Math.abs(shown / step.bytesPerStep - 1) < 0.003, `${shown} vs ${step.bytesPerStep}`);
        assert.ok(step.bytesPerStep < 0.3 * want.residentBytes);

        // a broken config: the field, named in the reader's language; the text stays as typed
        const broken = JSON.parse(text);
        delete broken.num_key_value_heads;
        const area = await paste(page, JSON.stringify(broken));
        assert.equal(norm(await configError(page)), MISSING[lang]);
        assert.equal(await area.inputValue(), JSON.stringify(broken));
        assert.equal((await rows(page, 'decode')).total, '—');
        await area.fill('{"model_type": ');
        assert.match(norm(await configError(page)), /JSON/);
        // a lesson model again: the calculator is as before, the config box hidden
        await select(page, 'decode', 'model').selectOption('llama3-8b');
        assert.notEqual((await rows(page, 'decode')).total, '—');
        assert.deepEqual(errors, []);
        assert.deepEqual(foreign, [], 'nothing is requested outside the page');
        if (where === 'served, strict CSP' && lang === 'es') {
          await paste(page, text);
          await page.locator('roofline-calculator[kind="decode"]').screenshot({ path: join(ROOT, 'tests/web/screenshots', 'decode-config-es.png') });
        }
      } finally {
        await context.close();
      }
    });
  }
}

test('the clocks and quant calculators take the reader\'s config.json too, each in its own box (es)', async () => {
  const { page, context, errors, foreign } = await openPage(env.browser, `${env.site.url}index.html?lang=es`, { allowedOrigin: env.site.url });
  try {
    const text = published('mixtral-8x7b');
    const want = rl.modelFromConfig({ config: text });
    const number = (s) => Number(s.replace(/,/g, ''));
    for (const kind of ['clocks', 'quant']) {
      await select(page, kind, 'model').selectOption('config');
      await page.locator(`roofline-calculator[kind="${kind}"] textarea[data-model-config]`).fill(text);
    }
    // prefill: the parameters a token multiplies (12.7 B of 46.7 B), its weights in BF16; the
    // fields show them as the results do, to three significant digits (half a unit of the third)
    const active = number(await field(page, 'clocks', 'params').inputValue()) * 1e9;
    assert.ok(Math.abs(active / want.activeParams - 1) < 5e-3, `${active} vs ${want.activeParams}`);
    const weights = number(await field(page, 'clocks', 'weights').inputValue()) * 1e9;
    assert.ok(Math.abs(weights / want.residentBytes - 1) < 5e-3, `${weights} vs ${want.residentBytes}`);
    // quantization: all 46.7 B are stored; a decode step reads only 2 of 8 experts
    const params = number(await field(page, 'quant', 'params').inputValue()) * 1e9;
    assert.ok(Math.abs(params / want.params - 1) < 5e-3, `${params} vs ${want.params}`);
    const q = await rows(page, 'quant');
    const bw = rl.gpu({ id: rl.lessonCase({ id: 'llama-l4-decode' }).values.gpu }).bytesPerSecond;
    const bf16 = rl.decode({ model: want, batch: 1, bytesPerSecond: bw }).tokensPerSecond;
    assert.ok(Math.abs(number(q.bf16Tokens) / bf16 - 1) < 0.01, `${q.bf16Tokens} vs ${bf16}`);
    // the decode calculator still has its own model: the boxes are each calculator's
    assert.equal(await select(page, 'decode', 'model').inputValue(), 'llama3-8b');
    assert.deepEqual(errors, []);
    assert.deepEqual(foreign, []);
  } finally {
    await context.close();
  }
});

test("Gemma 3 4B's published config, pasted as it is, is counted with its family's defaults: 8 heads, 4 KV heads of 256 (en)", async () => {
  const { page, context, errors, foreign } = await openPage(env.browser, `${env.site.url}index.html?lang=en`, { allowedOrigin: env.site.url });
  try {
    // the file leaves heads, KV heads, head_dim and the vocabulary to transformers' Gemma3TextConfig
    const text = readFileSync(join(ROOT, 'tests/core/configs/gemma3-4b.json'), 'utf8');
    await paste(page, text);
    assert.equal(await configError(page), null, 'no field is said to be missing');
    const want = rl.modelFromConfig({ config: text, tokens: 8192 });
    assert.deepEqual([want.architecture.attention.kvHeads, want.architecture.attention.headDim], [4, 256]);
    const f = await figures(page);
    assert.ok(f.params && f.kv, JSON.stringify(f));
    // the KV cache field holds what 8,192 tokens of this model take (4 KV heads × 256, windows of 1,024)
    await select(page, 'decode', 'kvSource').selectOption('model');
    const kvShown = Number((await field(page, 'decode', 'kv').inputValue()).replace(/,/g, '')) * 1e9;
    assert.ok(Math.abs(kvShown / want.kvBytesPerSequence - 1) < 0.005, `${kvShown} vs ${want.kvBytesPerSequence}`);
    assert.deepEqual(errors, []);
    assert.deepEqual(foreign, []);
  } finally {
    await context.close();
  }
});
