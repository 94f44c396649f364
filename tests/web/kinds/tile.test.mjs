// "Tiles and fusion" (kind="tile"), in English, as a learner uses it. It opens on 64 × 64 tiles in
// FP16 on a T4: 32 FLOPs per byte (T ÷ 2), against 0.5 with no reuse, under the T4's ridge of
// ≈ 203.1, so memory-bound. The learner types 256 (the lesson's 128 FLOPs/B: still under the
// ridge), then moves the slider to its end with the keyboard (End): the largest tiles pass
// the ridge, compute-bound. Then they double the element-wise work's elements: the bytes moved
// unfused (5 transfers) and fused (1) double, as the module says.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { expectRows, field, loadUi, norm, openPage, ROOT, SITE_DIR, typeInto, useBrowserAndSite } from '../helpers.mjs';

const env = useBrowserAndSite();
const rl = await (await import(join(SITE_DIR, 'roofline.mjs'))).default();
const { format } = await import(join(ROOT, 'web/src/format.js'));
const ui = loadUi();
const KIND = 'tile';
const fmt = (x, kind) => norm(format(x, kind, 'en'));
const t4 = rl.device({ gpu: 't4', dtype: 'fp16' });
const tile = (t) => rl.tile({ rows: t, cols: t, dtype: 'fp16' });

test('tile (en): 64 → 256 → the slider\'s largest tiles raise the intensity past the T4\'s ridge; twice the elements move twice the bytes, fused or not', async () => {
  const { page, context, errors, foreign } = await openPage(env.browser, `${env.site.url}index.html?lang=en`, { allowedOrigin: env.site.url });
  try {
    const calc = page.locator(`roofline-calculator[kind="${KIND}"]`);
    await calc.scrollIntoViewIfNeeded();
    const verdictOf = (t) => ui[`verdict.${t.flopsPerByte >= t4.ridgeFlopsPerByte ? 'compute' : 'memory'}`].en;
    // before: the lesson's 64 × 64 tile, no reuse, element-wise work
    await expectRows(page, KIND, {
      tileIntensity: '32 FLOPs/B', noReuse: '0.5 FLOPs/B', ridge: '203.1 FLOPs/B', verdict: ui['verdict.memory'].en, elementwise: '0.25 FLOPs/B',
    }, '64 × 64 on the T4');
    await typeInto(page, KIND, 'tile', '256');
    assert.equal(tile(256).flopsPerByte, 128, 'the lesson: 256 ÷ 2 = 128');
    await expectRows(page, KIND, { tileIntensity: '128 FLOPs/B', verdict: ui['verdict.memory'].en }, '256 × 256');
    assert.equal(norm(await calc.locator('p.summary').textContent()), norm(ui['tile.summary'].en.replaceAll('{t}', '256').replace('{intensity}', '128 FLOPs/B')));
    // the slider, with the keyboard, to its largest tile
    await calc.locator('[data-field="tile"] input[type="range"]').focus();
    await page.keyboard.press('End');
    const most = Number(await field(page, KIND, 'tile').inputValue());
    assert.ok(most > 256, `the slider's end: ${most}`);
    const big = tile(most);
    assert.equal(verdictOf(big), ui['verdict.compute'].en);
    await expectRows(page, KIND, { tileIntensity: fmt(big.flopsPerByte, 'flopsPerByte'), verdict: verdictOf(big) }, `${most} × ${most}`);
    // element-wise work and fusion: twice the elements
    const elements = Number(await field(page, KIND, 'elements').inputValue());
    const before = rl.fusion({ elements, dtype: 'fp16' });
    assert.deepEqual([before.unfusedTransfers, before.fusedTransfers], [5, 1], 'the lesson: five trips unfused, one fused');
    await expectRows(page, KIND, { unfused: fmt(before.unfusedBytes, 'bytes'), fused: fmt(before.fusedBytes, 'bytes'), saved: fmt(before.savedBytes, 'bytes') }, 'the default elements');
    await typeInto(page, KIND, 'elements', String(2 * elements));
    const after = rl.fusion({ elements: 2 * elements, dtype: 'fp16' });
    assert.equal(after.unfusedBytes, 2 * before.unfusedBytes);
    await expectRows(page, KIND, { unfused: fmt(after.unfusedBytes, 'bytes'), fused: fmt(after.fusedBytes, 'bytes'), saved: fmt(after.savedBytes, 'bytes'), elementwise: '0.25 FLOPs/B' }, 'twice the elements');
    assert.deepEqual(errors, []);
    assert.deepEqual(foreign, []);
  } finally {
    await context.close();
  }
});
