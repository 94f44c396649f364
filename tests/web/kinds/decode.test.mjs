// "Tokens per second while decoding" (kind="decode"), as a learner uses it. In English, it opens
// on Llama 3 8B in BF16 on an L4 with each conversation's KV cache (8,192 tokens) counted. The
// learner leaves the KV cache out, as the lesson's first example does: 16.06 GB per step at
// 300 GB/s, ≈ 53.5 ms, ≈ 18.7 tokens per second. Then they type a batch of 4 and count the KV
// caches again: the lesson's four conversations, ≈ 59 tokens per second in total, ≈ 15 each.
// In Spanish, they pick INT8 weights (8.03 GB: ≈ 37 tokens per second), then an H100 SXM.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { expectRows, field, loadUi, norm, openPage, ROOT, select, SITE_DIR, useBrowserAndSite } from '../helpers.mjs';

const env = useBrowserAndSite();
const rl = await (await import(join(SITE_DIR, 'roofline.mjs'))).default();
const { format } = await import(join(ROOT, 'web/src/format.js'));
const ui = loadUi();
const KIND = 'decode';
/** The module's decode for the lesson's case with `values` changed (gpu, format, batch, kvTokens). */
const decode = (values) => rl.decode(rl.caseArgs({ id: 'llama-l4-decode', function: 'decode', values }));

const shown = (r, lang) => ({ total: norm(format(r.tokensPerSecond, 'number', lang)), perConversation: norm(format(r.tokensPerSecondPerSequence, 'number', lang)) });

test('decode (en): KV cache left out gives the lesson\'s ≈ 18.7 tokens/s; a batch of 4 with its KV caches ≈ 59 in total, ≈ 15 each', async () => {
  const { page, context, errors, foreign } = await openPage(env.browser, `${env.site.url}index.html?lang=en`, { allowedOrigin: env.site.url });
  try {
    const calc = page.locator(`roofline-calculator[kind="${KIND}"]`);
    await calc.scrollIntoViewIfNeeded();
    // before: one conversation with its 8,192 tokens of KV cache
    await expectRows(page, KIND, shown(decode({ kvTokens: 8192 }), 'en'), 'the default, KV cache counted');
    await select(page, KIND, 'kvSource').selectOption({ label: ui['decode.kvSource.none'].en });
    const bare = decode({});
    assert.equal(norm(format(bare.tokensPerSecond, 'number', 'en')), '18.7');
    await expectRows(page, KIND, {
      bytesPerStep: '16.1 GB', memoryTime: '53.5 ms', stepTime: `53.5 ms · ${ui['verdict.memory'].en}`, perConversation: '18.7', total: '18.7',
    }, 'the lesson\'s first example');
    assert.match(norm(await calc.locator('p.summary').textContent()), /^At most 18\.7 tokens per second in total, 18\.7 per conversation; each step takes at least 53\.5 ms/);
    const batch = field(page, KIND, 'batch');
    await batch.click();
    await page.keyboard.press('ControlOrMeta+a');
    await batch.pressSequentially('4');
    await select(page, KIND, 'kvSource').selectOption({ label: ui['decode.kvSource.model'].en });
    const four = decode({ batch: 4, kvTokens: 8192 });
    assert.equal(Math.round(four.tokensPerSecond), 59, 'the lesson\'s ≈ 59 in total');
    assert.equal(Math.round(four.tokensPerSecondPerSequence), 15, 'the lesson\'s ≈ 15 each');
    await expectRows(page, KIND, {
      ...shown(four, 'en'), bytesPerStep: norm(format(four.bytesPerStep, 'gb', 'en')), kvModel: '1.07 GB',
      stepTime: `${norm(format(four.stepSeconds, 'seconds', 'en'))} · ${ui['verdict.memory'].en}`,
    }, 'four conversations');
    assert.deepEqual(errors, []);
    assert.deepEqual(foreign, []);
  } finally {
    await context.close();
  }
});

test('decode (es): INT8 weights lift the L4 to ≈ 37 tokens/s; an H100 SXM reads them eleven times faster', async () => {
  const { page, context, errors, foreign } = await openPage(env.browser, `${env.site.url}index.html?lang=es`, { allowedOrigin: env.site.url });
  try {
    await page.locator(`roofline-calculator[kind="${KIND}"]`).scrollIntoViewIfNeeded();
    await select(page, KIND, 'kvSource').selectOption('none');
    await expectRows(page, KIND, { total: '18.7', perConversation: '18.7' }, 'BF16 on the L4');
    await select(page, KIND, 'format').selectOption('int8');
    assert.equal(await field(page, KIND, 'weights').inputValue(), '8.03', 'the lesson\'s 8.03 GB in INT8');
    const int8 = decode({ format: 'int8' });
    assert.equal(Math.round(int8.tokensPerSecond), 37, 'the lesson\'s ≈ 37');
    await expectRows(page, KIND, { ...shown(int8, 'es'), bytesPerStep: '8.03 GB', memoryTime: norm(format(int8.memorySeconds, 'seconds', 'es')) }, 'INT8 on the L4');
    await select(page, KIND, 'gpu').selectOption('h100-sxm');
    assert.equal(await field(page, KIND, 'bw').inputValue(), '3350');
    const h100 = decode({ format: 'int8', gpu: 'h100-sxm' });
    await expectRows(page, KIND, { ...shown(h100, 'es'), memoryTime: norm(format(h100.memorySeconds, 'seconds', 'es')) }, 'INT8 on the H100');
    assert.deepEqual(errors, []);
    assert.deepEqual(foreign, []);
  } finally {
    await context.close();
  }
});

test('decode (pt): Llama 3.1 70B on 8 H100 SXM adds 160 all-reduces on NVLink 4 to each step, named and beside the memory floor; a GPU with no link says they are not counted', async () => {
  const { page, context, errors, foreign } = await openPage(env.browser, `${env.site.url}index.html?lang=pt`, { allowedOrigin: env.site.url });
  const how = (row) => page.evaluate((r) => document.querySelector('roofline-calculator[kind="decode"]').shadowRoot
    .querySelector(`tr[data-row="${r}"] td:nth-child(2)`).textContent, row).then(norm);
  try {
    await page.locator(`roofline-calculator[kind="${KIND}"]`).scrollIntoViewIfNeeded();
    await select(page, KIND, 'model').selectOption('llama3.1-70b');
    await select(page, KIND, 'gpu').selectOption('h100-sxm');
    // one GPU: nothing to add up
    await expectRows(page, KIND, { communication: norm(format(0, 'seconds', 'pt')) }, 'one GPU');
    const gpus = field(page, KIND, 'gpus');
    await gpus.click();
    await page.keyboard.press('ControlOrMeta+a');
    await gpus.pressSequentially('8');
    const kv = rl.kvCacheBytes({ model: 'llama3.1-70b', tokens: 8192, dtype: 'bf16' }).bytes;
    const tp = rl.decode({
      model: 'llama3.1-70b', format: 'bf16', weightBytes: rl.modelWeights({ model: 'llama3.1-70b' }).bytes, kvBytesPerSequence: kv,
      bytesReadPerStep: rl.modelWeights({ model: 'llama3.1-70b', format: 'bf16', batch: 1 }).bytesReadPerStep,
      batch: 1, bytesPerSecond: 3.35e12, gpus: 8, link: 'nvlink4',
      flopsPerToken: rl.flopsPerToken({ params: rl.model({ id: 'llama3.1-70b' }).activeParams }).flops, peakFlopsPerSecond: 990e12, memoryBytesPerGpu: 80e9,
    });
    // 160 × (8 µs + 2 × 7/8 × 16 KiB ÷ 450 GB/s) ≈ 1.29 ms
    assert.ok(Math.abs(tp.communicationSeconds - 1.29e-3) < 0.01e-3, String(tp.communicationSeconds));
    await expectRows(page, KIND, {
      communication: `${norm(format(tp.communicationSeconds, 'seconds', 'pt'))} · ${ui['decode.link.largest.memory'].pt}`,
      memoryTime: norm(format(tp.memorySeconds, 'seconds', 'pt')),
      stepTime: `${norm(format(tp.stepSeconds, 'seconds', 'pt'))} · ${ui['verdict.memory'].pt}`,
      total: norm(format(tp.tokensPerSecond, 'number', 'pt')),
    }, 'TP 8 on NVLink 4');
    assert.equal(tp.stepSeconds, tp.memorySeconds + tp.communicationSeconds);
    const said = await how('communication');
    assert.match(said, /^160 all-reduces \(2 × 80 camadas\) pelo NVLink 4/);
    assert.match(said, /450 GB\/s/);
    // the lesson's C10 model has no config.json: no layers to count the all-reduces by, said so
    await select(page, KIND, 'model').selectOption('c10-70b');
    await expectRows(page, KIND, { communication: '—' }, 'no shape');
    assert.match(await how('communication'), /^não contado: este modelo não dá suas camadas nem seu tamanho oculto/);
    await select(page, KIND, 'model').selectOption('llama3.1-70b');
    // a device the catalog gives no link: the all-reduces are not counted, and the row says so
    await select(page, KIND, 'gpu').selectOption('mi300x');
    await expectRows(page, KIND, { communication: '—' }, 'no link');
    assert.match(await how('communication'), /^não contado: o catálogo não dá um enlace entre GPUs para AMD Instinct MI300X/);
    assert.deepEqual(errors, []);
    assert.deepEqual(foreign, []);
  } finally {
    await context.close();
  }
});
