// "Your GPU's roofline" (kind="roofline") on a phone (390 × 844), in Portuguese, as a learner uses
// it. It opens on an LLM decode on the T4: ridge ≈ 203.1 FLOPs/B, at intensity 1 at most
// 0.32 TFLOPS (0.5 % of the peak), memory-bound. The learner types 300 as the intensity (past the
// ridge): the attainable rate reaches the 65 TFLOPS roof, compute-bound, and the chart's data
// table (opened with a tap on its summary) marks "you" there. Then they choose the L4: its ridge
// ≈ 403 is past 300, so the same work is memory-bound again, at 300 × 300 GB/s.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { expectSoon, field, loadUi, norm, openPage, ROOT, rows, select, SITE_DIR, useBrowserAndSite } from '../helpers.mjs';

const env = useBrowserAndSite();
const rl = await (await import(join(SITE_DIR, 'roofline.mjs'))).default();
const { format } = await import(join(ROOT, 'web/src/format.js'));
const ui = loadUi();
const KIND = 'roofline';
const LANG = 'pt';
const fmt = (x, kind) => norm(format(x, kind, LANG));

test('roofline (pt, phone): intensity 300 reaches the T4\'s 65 TFLOPS roof; on the L4 (ridge ≈ 403) the same is memory-bound', async () => {
  const { page, context, errors, foreign } = await openPage(env.browser, `${env.site.url}index.html?lang=${LANG}`, { allowedOrigin: env.site.url, viewport: { width: 390, height: 844 } });
  try {
    const calc = page.locator(`roofline-calculator[kind="${KIND}"]`);
    await calc.scrollIntoViewIfNeeded();
    const t4 = rl.device({ gpu: 't4', dtype: 'fp16' });
    // before: the lesson's T4 at intensity 1
    assert.deepEqual(await rows(page, KIND), {
      ridge: '203,1 FLOPs/B', memory: '0,32 TFLOPS', attainable: '0,32 TFLOPS', fraction: '0,5%',
      ratio: fmt(1 / t4.ridgeFlopsPerByte, 'ratio'), verdict: norm(ui['verdict.memory'][LANG]),
    });
    const input = field(page, KIND, 'intensity');
    await input.click();
    await page.keyboard.press('ControlOrMeta+a');
    await input.pressSequentially('300');
    const past = rl.roofline({ peakFlopsPerSecond: t4.peakFlopsPerSecond, bytesPerSecond: t4.bytesPerSecond, flopsPerByte: 300 });
    assert.equal(past.bound, 'compute');
    assert.equal(past.attainableFlopsPerSecond, 65e12, 'the lesson: past 203 the attainable rate stops at 65 TFLOPS');
    const shown = async () => (({ attainable, fraction, verdict, ridge }) => ({ attainable, fraction, verdict, ridge }))(await rows(page, KIND));
    await expectSoon(shown, { attainable: '65 TFLOPS', fraction: '100%', verdict: norm(ui['verdict.compute'][LANG]), ridge: '203,1 FLOPs/B' }, 'past the T4\'s ridge');
    const summary = ui['roofline.summary'][LANG].replace('{attainable}', '65 TFLOPS').replace('{percent}', '100%').replace('{verdict}', ui['verdict.compute'][LANG]);
    assert.equal(norm(await calc.locator('p.summary').textContent()), norm(summary));
    // the chart's data table, opened as the learner opens it: "you" is on the roof
    await calc.locator('details.chart-data summary').first().click();
    const you = () => calc.evaluate((host) => [...host.shadowRoot.querySelector('details.chart-data tbody tr').cells].map((td) => td.textContent));
    await expectSoon(async () => (await you()).map(norm).slice(1), ['300', '65 TFLOPS', norm(ui['verdict.compute'][LANG])], 'the chart\'s "you" row');
    assert.equal(await calc.locator('details.chart-data table').first().isVisible(), true);
    // the L4: a higher ridge, the same intensity now under it
    await select(page, KIND, 'gpu').selectOption('l4');
    const l4 = rl.device({ gpu: 'l4', dtype: 'fp16' });
    assert.equal(Math.round(l4.ridgeFlopsPerByte), 403, 'the lesson\'s L4 ridge ≈ 403');
    const onL4 = rl.roofline({ peakFlopsPerSecond: l4.peakFlopsPerSecond, bytesPerSecond: l4.bytesPerSecond, flopsPerByte: 300 });
    assert.equal(onL4.bound, 'memory');
    await expectSoon(shown, {
      attainable: fmt(onL4.attainableFlopsPerSecond, 'tflops'), fraction: fmt(onL4.fractionOfPeak, 'percent'),
      verdict: norm(ui['verdict.memory'][LANG]), ridge: fmt(l4.ridgeFlopsPerByte, 'ridgeFlopsPerByte'),
    }, 'on the L4');
    await expectSoon(async () => (await you()).map(norm).slice(1), ['300', fmt(onL4.attainableFlopsPerSecond, 'tflops'), norm(ui['verdict.memory'][LANG])], 'the chart\'s "you" row on the L4');
    assert.deepEqual(errors, []);
    assert.deepEqual(foreign, []);
  } finally {
    await context.close();
  }
});
