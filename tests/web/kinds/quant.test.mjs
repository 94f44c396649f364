// "Lower precision and quantization" (kind="quant") on a phone (390 × 844), in Spanish, as a
// learner uses it. It opens on Llama 3 8B on an L4: BF16 16.06 GB ≈ 18.7 tokens/s, INT8 8.03 GB
// ≈ 37, INT4 with group scales and 1 × 10⁹ weights kept in BF16 ≈ 5.73 GB ≈ 52. The learner
// chooses an H100 SXM (3,350 GB/s): every ceiling rises by the bandwidth's ratio, as the module's
// ladder says. Then they type a group size of 128: fewer scales, so INT4 weighs less and decodes
// faster, while BF16 and INT8 stay put. The summary and the chart's data table follow.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { expectSoon, field, loadUi, norm, openPage, ROOT, rows, select, SITE_DIR, useBrowserAndSite } from '../helpers.mjs';

const env = useBrowserAndSite();
const rl = await (await import(join(SITE_DIR, 'roofline.mjs'))).default();
const { format } = await import(join(ROOT, 'web/src/format.js'));
const ui = loadUi();
const KIND = 'quant';
const LANG = 'es';
const fmt = (x, kind) => norm(format(x, kind, LANG));
/** The module's three precisions for Llama 3 8B at a bandwidth and an INT4 group size. */
const ladder = (bytesPerSecond, groupSize) => Object.fromEntries(rl.precisionLadder({
  params: rl.model({ id: 'llama3-8b' }).params, bytesPerSecond, groupSize, scaleDtype: rl.formats().find((f) => f.id === 'int4').scaleDtype,
  keptParams: rl.model({ id: 'llama3-8b' }).keptParams, model: 'llama3-8b',
}).map((r) => [r.dtype, r]));
/** What the learner should read for a ladder: rows, summary, chart data table. */
const expected = (q) => ({
  rows: Object.fromEntries(['bf16', 'int8', 'int4'].flatMap((d) => [[`${d}Bytes`, fmt(q[d].bytes, 'gb')], [`${d}Tokens`, fmt(q[d].tokensPerSecond, 'number')]])),
  summary: norm(ui['quant.summary'][LANG].replace('{bf16}', fmt(q.bf16.tokensPerSecond, 'number')).replace('{int8}', fmt(q.int8.tokensPerSecond, 'number')).replace('{int4}', fmt(q.int4.tokensPerSecond, 'number'))),
  table: ['bf16', 'int8', 'int4'].map((d) => [d.toUpperCase(), fmt(q[d].bytes, 'gb'), fmt(q[d].tokensPerSecond, 'number')]),
});

async function read(page) {
  const calc = page.locator(`roofline-calculator[kind="${KIND}"]`);
  const r = await rows(page, KIND);
  delete r.int4Bits;
  return {
    rows: r,
    summary: norm(await calc.locator('p.summary').textContent()),
    table: (await calc.evaluate((host) => [...host.shadowRoot.querySelectorAll('details.chart-data tbody tr')]
      .map((tr) => [...tr.cells].map((td) => td.textContent)))).map((row) => row.map(norm)),
  };
}

/** Waits until what the learner reads is `want`, then asserts it. */
const expectShown = (page, want, what) => expectSoon(() => read(page), want, what);

test('quant (es, phone): the L4\'s ≈ 18.7 / 37 / 52 tokens/s and INT4\'s 5.73 GB; an H100 SXM lifts all three; groups of 128 shrink INT4', async () => {
  const { page, context, errors, foreign } = await openPage(env.browser, `${env.site.url}index.html?lang=${LANG}`, { allowedOrigin: env.site.url, viewport: { width: 390, height: 844 } });
  try {
    const calc = page.locator(`roofline-calculator[kind="${KIND}"]`);
    await calc.scrollIntoViewIfNeeded();
    await calc.locator('details.chart-data summary').first().click();
    // before: the lesson's numbers on the L4
    const l4 = ladder(rl.gpu({ id: 'l4' }).bytesPerSecond, 64);
    const lesson = expected(l4);
    assert.deepEqual([lesson.rows.bf16Tokens, lesson.rows.int8Bytes, lesson.rows.int4Bytes], ['18.7', '8.03 GB', '5.73 GB']);
    assert.deepEqual(['int8', 'int4'].map((d) => Math.round(l4[d].tokensPerSecond)), [37, 52], 'the lesson\'s ≈ 37 and ≈ 52');
    await expectShown(page, lesson, 'Llama 3 8B on the L4');
    assert.equal(await calc.locator('details.chart-data table').first().isVisible(), true);
    await select(page, KIND, 'gpu').selectOption('h100-sxm');
    const h100 = expected(ladder(rl.gpu({ id: 'h100-sxm' }).bytesPerSecond, 64));
    assert.notEqual(h100.rows.bf16Tokens, lesson.rows.bf16Tokens);
    await expectShown(page, h100, 'on the H100 SXM');
    const group = field(page, KIND, 'groupSize');
    await group.click();
    await page.keyboard.press('ControlOrMeta+a');
    await group.pressSequentially('128');
    const q128 = ladder(rl.gpu({ id: 'h100-sxm' }).bytesPerSecond, 128);
    const g128 = expected(q128);
    assert.notEqual(g128.rows.int4Bytes, h100.rows.int4Bytes);
    assert.equal(g128.rows.bf16Tokens, h100.rows.bf16Tokens);
    await expectShown(page, g128, 'groups of 128 on the H100 SXM');
    assert.equal((await rows(page, KIND)).int4Bits, fmt(q128.int4.bitsPerWeight, 'number'));
    assert.deepEqual(errors, []);
    assert.deepEqual(foreign, []);
  } finally {
    await context.close();
  }
});

test('quant (en): for Mixtral 8x7B each ceiling divides the bandwidth by what a step reads (2 experts of 8), not by all it holds', async () => {
  const { page, context, errors, foreign } = await openPage(env.browser, `${env.site.url}index.html?lang=en`, { allowedOrigin: env.site.url });
  try {
    const calc = page.locator(`roofline-calculator[kind="${KIND}"]`);
    await calc.scrollIntoViewIfNeeded();
    await select(page, KIND, 'model').selectOption('mixtral-8x7b');
    const m = rl.model({ id: 'mixtral-8x7b' });
    const q = Object.fromEntries(rl.precisionLadder({
      params: m.params, bytesPerSecond: rl.gpu({ id: 'l4' }).bytesPerSecond, groupSize: 64, scaleDtype: 'fp16', keptParams: m.keptParams, model: 'mixtral-8x7b',
    }).map((r) => [r.dtype, r]));
    assert.ok(q.bf16.bytesReadPerStep < q.bf16.bytes / 2, 'a step reads less than half of what Mixtral holds');
    const how = (row) => calc.evaluate((host, r) => host.shadowRoot.querySelector(`tr:has(output[data-row="${r}"]) td.how`).textContent, row);
    await expectSoon(async () => (await rows(page, KIND)).bf16Tokens, norm(format(q.bf16.tokensPerSecond, 'number', 'en')), 'the BF16 ceiling');
    for (const d of ['bf16', 'int8', 'int4']) {
      assert.equal((await rows(page, KIND))[`${d}Bytes`], norm(format(q[d].bytes, 'gb', 'en')), `${d}: the bytes it holds`);
      assert.match(norm(await how(`${d}Tokens`)), new RegExp(`÷ ${norm(format(q[d].bytesReadPerStep, 'gb', 'en')).replace('.', '\\.')}$`), `${d}: ÷ the bytes a step reads`);
    }
    assert.deepEqual(errors, []);
    assert.deepEqual(foreign, []);
  } finally {
    await context.close();
  }
});
