// "FLOPs of a matrix multiplication" (kind="matmul"), as a learner uses it. In English on a desktop,
// the learner types 4096 into n, k and m, as the lesson asks: the FLOPs go from the lesson's
// default 65,536,000 to 2 × 4,096³ ≈ 137.4 × 10⁹ and the floor at the T4's 65 TFLOPS to ≈ 2.11 ms.
// In Spanish, they lower n to 1 (one photo: 32 times less work, 2,048,000 FLOPs) and then double k
// (the work doubles). Every number checked is the lesson's or the module's for what was typed,
// written as the page writes it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { expectRows, norm, openPage, ROOT, rows, SITE_DIR, typeInto, useBrowserAndSite } from '../helpers.mjs';

const env = useBrowserAndSite();
const rl = await (await import(join(SITE_DIR, 'roofline.mjs'))).default();
const { format } = await import(join(ROOT, 'web/src/format.js'));
const KIND = 'matmul';

/** The module's answer for the sizes typed, with the rest of the calculator's default case. */
const matmul = (n, k, m) => rl.matmul({ ...rl.caseArgs({ id: 'c01-last-layer', function: 'matmul' }), n, k, m });
const floor = (flops) => rl.timeAtPeak({ flops, peakFlopsPerSecond: rl.caseArgs({ id: 'c01-last-layer', function: 'timeAtPeak' }).peakFlopsPerSecond });

const summary = async (page) => norm(await page.locator(`roofline-calculator[kind="${KIND}"] p.summary`).textContent());

/** Waits for one result row to read `want`, then asserts it. */
const expectRow = (page, id, want) => expectRows(page, KIND, { [id]: want }, `row ${id}`);

test('matmul (en): typing 4096 into n, k and m turns the C01 layer\'s 65,536,000 FLOPs into 2 × 4,096³ and a floor of ≈ 2.11 ms at 65 TFLOPS', async () => {
  const { page, context, errors, foreign } = await openPage(env.browser, `${env.site.url}index.html?lang=en`, { allowedOrigin: env.site.url });
  try {
    await page.locator(`roofline-calculator[kind="${KIND}"]`).scrollIntoViewIfNeeded();
    // before: the lesson's default, C01's last layer with 32 photos
    const before = await rows(page, KIND);
    assert.equal(before.size, '16,000');
    assert.equal(before.macs, '32,768,000');
    assert.equal(before.flops, '65,536,000');
    assert.equal(before.gflops, '0.066');
    assert.equal(before.perSecond, '991,821');
    for (const id of ['n', 'k', 'm']) await typeInto(page, KIND, id, '4096');
    const big = matmul(4096, 4096, 4096);
    assert.equal(big.flops, 2 * 4096 ** 3);
    assert.equal(Math.round(big.flops / 1e8) / 10, 137.4, 'the lesson\'s ≈ 137.4 × 10⁹');
    await expectRow(page, 'flops', norm(format(big.flops, 'integer', 'en')));
    await expectRow(page, 'macs', norm(format(big.macs, 'integer', 'en')));
    await expectRow(page, 'size', norm(format(big.outputElements, 'integer', 'en')));
    // the lesson's ≈ 2.11 ms, as the module computes it
    const t = floor(big.flops);
    assert.equal(norm(format(t.seconds, 'seconds', 'en')), '2.11 ms');
    await expectRow(page, 'time', '2.11 ms');
    await expectRow(page, 'perSecond', norm(format(t.perSecond, 'integer', 'en')));
    assert.equal(await summary(page), `${norm(format(big.flops, 'flops', 'en'))} of work: at least 2.11 ms at the peak.`);
    assert.deepEqual(errors, []);
    assert.deepEqual(foreign, []);
  } finally {
    await context.close();
  }
});

test('matmul (es): n lowered to 1 divides the work by 32 (2,048,000 FLOPs); doubling k doubles it', async () => {
  const { page, context, errors, foreign } = await openPage(env.browser, `${env.site.url}index.html?lang=es`, { allowedOrigin: env.site.url });
  try {
    await page.locator(`roofline-calculator[kind="${KIND}"]`).scrollIntoViewIfNeeded();
    assert.equal((await rows(page, KIND)).flops, '65,536,000');
    await typeInto(page, KIND, 'n', '1');
    // the lesson: one photo, 32 times less work
    assert.equal(matmul(1, 2048, 500).flops, 2048000);
    await expectRow(page, 'flops', '2,048,000');
    await expectRow(page, 'macs', '1,024,000');
    await expectRow(page, 'size', '500');
    await typeInto(page, KIND, 'k', '4096');
    const doubled = matmul(1, 4096, 500);
    assert.equal(doubled.flops, 2 * 2048000);
    await expectRow(page, 'flops', norm(format(doubled.flops, 'integer', 'es')));
    await expectRow(page, 'time', norm(format(floor(doubled.flops).seconds, 'seconds', 'es')));
    assert.match(await summary(page), new RegExp(`^${norm(format(doubled.flops, 'flops', 'es')).replace('.', '\\.')} de trabajo`));
    assert.deepEqual(errors, []);
    assert.deepEqual(foreign, []);
  } finally {
    await context.close();
  }
});
