// "Utilization" (kind="utilization"), as a learner uses it. In English, the calculator opens on
// C01's day (8.2 GFLOPs per photo, 1,200 photos per second, a T4's 65 TFLOPS): 9.84 TFLOPS, ≈ 15 %
// of the peak, a ceiling of ≈ 7,900 per second, possible. The learner types the benchmark's 10,000
// photos per second: 82 TFLOPS, more than the peak, so the page calls the measurement wrong.
// In Spanish, they type 100 photos per second (the lesson's float32 server): ≈ 1.3 % of the FP16
// peak, then choose FP32 as the precision: the peak becomes the T4's FP32 one and the share ≈ 10 %.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { expectRows, field, loadUi, norm, openPage, ROOT, rows, select, SITE_DIR, typeInto, useBrowserAndSite } from '../helpers.mjs';

const env = useBrowserAndSite();
const rl = await (await import(join(SITE_DIR, 'roofline.mjs'))).default();
const { format } = await import(join(ROOT, 'web/src/format.js'));
const ui = loadUi();
const KIND = 'utilization';
// the calculator's default case: one T4 against its measured rate
const base = rl.caseArgs({ id: 'c01-day', function: 'throughput', values: { gpus: 1 } });

/** Waits for one result row to read `want`, then asserts it. */
const expectRow = (page, id, want) => expectRows(page, KIND, { [id]: want }, `row ${id}`);

test('utilization (en): C01\'s 1,200 photos/s are ≈ 15 % of a T4; the benchmark\'s 10,000 are 82 TFLOPS, impossible', async () => {
  const { page, context, errors, foreign } = await openPage(env.browser, `${env.site.url}index.html?lang=en`, { allowedOrigin: env.site.url });
  try {
    const calc = page.locator(`roofline-calculator[kind="${KIND}"]`);
    await calc.scrollIntoViewIfNeeded();
    const before = await rows(page, KIND);
    assert.equal(before.achieved, '9.84 TFLOPS');
    assert.match(before.fraction, /^15(\.\d)?%$/, 'the lesson\'s ≈ 15 %');
    const r = rl.throughput(base);
    assert.equal(Math.round(r.ceilingItemsPerSecond / 100) * 100, 7900, 'the lesson\'s ≈ 7,900');
    assert.equal(before.ceiling, norm(format(r.ceilingItemsPerSecond, 'integer', 'en')));
    assert.equal(before.time, norm(format(r.secondsPerItemAtPeak, 'seconds', 'en')));
    assert.equal(before.verdict, ui['utilization.possible'].en);
    await typeInto(page, KIND, 'rate', '10000');
    const after = rl.throughput({ ...base, itemsPerSecond: 10000 });
    assert.equal(after.possible, false);
    await expectRow(page, 'achieved', '82 TFLOPS');
    await expectRow(page, 'fraction', norm(format(after.fraction, 'percent', 'en')));
    await expectRow(page, 'verdict', ui['utilization.impossible'].en);
    // the ceiling does not move with the measured rate
    await expectRow(page, 'ceiling', before.ceiling);
    assert.match(norm(await calc.locator('p.summary').textContent()), /^82 TFLOPS would be \d+(\.\d)?% of the peak: more than the GPU can do/);
    assert.deepEqual(errors, []);
    assert.deepEqual(foreign, []);
  } finally {
    await context.close();
  }
});

test('utilization (es): 100 photos/s are ≈ 1.3 % of the T4\'s FP16 peak and ≈ 10 % of its FP32 one', async () => {
  const { page, context, errors, foreign } = await openPage(env.browser, `${env.site.url}index.html?lang=es`, { allowedOrigin: env.site.url });
  try {
    await page.locator(`roofline-calculator[kind="${KIND}"]`).scrollIntoViewIfNeeded();
    assert.equal((await rows(page, KIND)).achieved, '9.84 TFLOPS');
    await typeInto(page, KIND, 'rate', '100');
    const fp16 = rl.throughput({ ...base, itemsPerSecond: 100 });
    assert.equal(norm(format(fp16.fraction, 'percent', 'es')), '1.3%', 'the lesson\'s ≈ 1.3 %');
    await expectRow(page, 'achieved', '0.82 TFLOPS');
    await expectRow(page, 'fraction', '1.3%');
    await select(page, KIND, 'precision').selectOption('fp32');
    const peak = rl.device({ gpu: 't4', dtype: 'fp32' }).peakFlopsPerSecond;
    assert.equal(await field(page, KIND, 'peak').inputValue(), format(peak / 1e12, 'digits', 'es'));
    const fp32 = rl.throughput({ ...base, itemsPerSecond: 100, peakFlopsPerSecond: peak });
    assert.equal(Math.round(fp32.fraction * 100), 10, 'the lesson\'s ≈ 10 %');
    await expectRow(page, 'fraction', norm(format(fp32.fraction, 'percent', 'es')));
    await expectRow(page, 'ceiling', norm(format(fp32.ceilingItemsPerSecond, 'integer', 'es')));
    await expectRow(page, 'verdict', ui['utilization.possible'].es);
    assert.deepEqual(errors, []);
    assert.deepEqual(foreign, []);
  } finally {
    await context.close();
  }
});
