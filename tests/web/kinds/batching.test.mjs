// "Batching" (kind="batching"), in Portuguese, as a learner uses it: a 4,096 × 4,096 layer in FP16.
// At the default batch of 32 each weight is used ≈ 32 times. The learner types a batch of 1 (each
// weight used once: the lesson's intensity ≈ 1), then 226, the lesson's smallest batch that
// passes the T4's ridge (≈ 203.5 FLOPs/B, shown to 3 digits, against 203.1), then 225 (just under it); the table of
// ridges says 226 for the T4. Choosing FP32 moves the T4's ridge and its crossing, as the module says.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { expectSoon, field, loadUi, norm, openPage, ROOT, rows, select, SITE_DIR, useBrowserAndSite } from '../helpers.mjs';

const env = useBrowserAndSite();
const rl = await (await import(join(SITE_DIR, 'roofline.mjs'))).default();
const { format } = await import(join(ROOT, 'web/src/format.js'));
const ui = loadUi();
const KIND = 'batching';
const LANG = 'pt';
const fmt = (x, kind) => norm(format(x, kind, LANG));
const layer = (batch, dtype = 'fp16') => rl.denseLayer({ ...rl.caseArgs({ id: 'layer-4096', function: 'denseLayer' }), batch, dtype });

test('batching (pt): batch 1 uses each weight once; 226 is the first batch past the T4\'s ridge, 225 is not; FP32 moves the crossing', async () => {
  const { page, context, errors, foreign } = await openPage(env.browser, `${env.site.url}index.html?lang=${LANG}`, { allowedOrigin: env.site.url });
  try {
    const calc = page.locator(`roofline-calculator[kind="${KIND}"]`);
    await calc.scrollIntoViewIfNeeded();
    const intensities = async () => (({ intensity, weightsOnly }) => ({ intensity, weightsOnly }))(await rows(page, KIND));
    const t4Row = () => calc.evaluate((host, name) => {
      const tr = [...host.shadowRoot.querySelectorAll('table.ridges tbody tr')].find((x) => x.querySelector('th').textContent === name);
      return tr ? [...tr.cells].slice(1).map((td) => td.textContent) : null;
    }, rl.gpu({ id: 't4' }).name);
    // before: batch 32, each weight used 32 times; the T4 crosses at the lesson's 226
    assert.deepEqual(await intensities(), { intensity: fmt(layer(32).flopsPerByte, 'flopsPerByte'), weightsOnly: '32 FLOPs/B' });
    assert.deepEqual(await t4Row(), ['203,1', '226']);
    const batch = field(page, KIND, 'batch');
    const typeBatch = async (text) => {
      await batch.click();
      await page.keyboard.press('ControlOrMeta+a');
      await batch.pressSequentially(text);
    };
    await typeBatch('1');
    assert.equal(layer(1).weightsOnlyFlopsPerByte, 1);
    await expectSoon(intensities, { intensity: fmt(layer(1).flopsPerByte, 'flopsPerByte'), weightsOnly: '1 FLOPs/B' }, 'batch 1');
    await typeBatch('226');
    assert.equal(Math.round(layer(226).flopsPerByte * 10) / 10, 203.5, 'the lesson\'s check: ≈ 203.5');
    await expectSoon(intensities, { intensity: fmt(layer(226).flopsPerByte, 'flopsPerByte'), weightsOnly: '226 FLOPs/B' }, 'batch 226');
    await typeBatch('225');
    const under = layer(225);
    assert.ok(under.flopsPerByte < rl.device({ gpu: 't4', dtype: 'fp16' }).ridgeFlopsPerByte);
    await expectSoon(intensities, { intensity: fmt(under.flopsPerByte, 'flopsPerByte'), weightsOnly: '225 FLOPs/B' }, 'batch 225');
    const summary = ui['batching.summary'][LANG].replace('{batch}', '225').replace('{intensity}', fmt(under.flopsPerByte, 'flopsPerByte'));
    assert.equal(norm(await calc.locator('p.summary').textContent()), norm(summary));
    // FP32: the T4's FP32 ridge and the batch that passes it, from the module
    await select(page, KIND, 'dtype').selectOption('fp32');
    const ridge32 = rl.device({ gpu: 't4', dtype: 'fp32' }).ridgeFlopsPerByte;
    const cross32 = rl.minBatchForRidge({ inputs: 4096, outputs: 4096, dtype: 'fp32', ridgeFlopsPerByte: ridge32 }).batch;
    assert.notEqual(cross32, 226);
    await expectSoon(t4Row, [fmt(ridge32, 'ridge'), fmt(cross32, 'integer')], 'the T4 in FP32');
    await expectSoon(intensities, { intensity: fmt(layer(225, 'fp32').flopsPerByte, 'flopsPerByte'), weightsOnly: fmt(layer(225, 'fp32').weightsOnlyFlopsPerByte, 'flopsPerByte') }, 'batch 225 in FP32');
    assert.deepEqual(errors, []);
    assert.deepEqual(foreign, []);
  } finally {
    await context.close();
  }
});
