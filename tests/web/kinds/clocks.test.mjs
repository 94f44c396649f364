// "The two clocks" (kind="clocks") on a phone (390 × 844), in Spanish, as a learner uses it. It
// opens on the lesson's prefill of 2,000 tokens of Llama 3 8B on an L4: ≈ 2,000 FLOPs per byte,
// compute-bound, ≈ 265 ms to the first token; then ≈ 53.5 ms per token, memory-bound. The learner
// types a prompt of 4,000 tokens: the prefill's compute clock doubles, a decode step does not move.
// Then they choose an H100 SXM: both clocks shrink to what the module says for its peak and
// bandwidth. The summary and the chart's data table (opened with a tap) follow.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { expectSoon, field, loadUi, norm, openPage, ROOT, rows, select, SITE_DIR, useBrowserAndSite } from '../helpers.mjs';

const env = useBrowserAndSite();
const rl = await (await import(join(SITE_DIR, 'roofline.mjs'))).default();
const { format } = await import(join(ROOT, 'web/src/format.js'));
const ui = loadUi();
const KIND = 'clocks';
const LANG = 'es';
const s = (x) => norm(format(x, 'seconds', LANG));
const verdict = (bound) => norm(ui[`verdict.${bound}`][LANG]);
const prefill = (tokens, gpu) => rl.prefill({ ...rl.caseArgs({ id: 'llama-l4-prefill', function: 'prefill', values: gpu ? { gpu } : {} }), tokens });
const step = (gpu) => rl.decode(rl.caseArgs({ id: 'llama-l4-decode', function: 'decode', values: gpu ? { gpu } : {} }));
/** The rows, the summary and the chart's data table the learner reads for a prefill and a decode step. */
const expected = (p, d) => ({
  rows: { prefillIntensity: norm(format(p.flopsPerByte, 'flopsPerByte', LANG)), prefillCompute: s(p.computeSeconds), ttft: `${s(p.seconds)} · ${verdict(p.bound)}`, tpot: `${s(d.stepSeconds)} · ${verdict(d.bound)}` },
  summary: norm(ui['clocks.summary'][LANG].replace('{ttft}', s(p.seconds)).replace('{tpot}', s(d.stepSeconds))),
  table: [[s(p.computeSeconds), s(p.memorySeconds), verdict(p.bound)], [s(d.computeSeconds), s(d.memorySeconds), verdict(d.bound)]],
});

async function read(page) {
  const calc = page.locator(`roofline-calculator[kind="${KIND}"]`);
  const r = await rows(page, KIND);
  return {
    rows: { prefillIntensity: r.prefillIntensity, prefillCompute: r.prefillCompute, ttft: r.ttft, tpot: r.tpot },
    summary: norm(await calc.locator('p.summary').textContent()),
    table: (await calc.evaluate((host) => [...host.shadowRoot.querySelectorAll('details.chart-data tbody tr')]
      .map((tr) => [...tr.cells].slice(1).map((td) => td.textContent)))).map((row) => row.map(norm)),
  };
}

/** Waits until what the learner reads is `want`, then asserts it. */
const expectShown = (page, want, what) => expectSoon(() => read(page), want, what);

test('clocks (es, phone): 2,000 tokens of prefill ≈ 265 ms, a token ≈ 53.5 ms; 4,000 tokens double the prefill only; an H100 shrinks both', async () => {
  const { page, context, errors, foreign } = await openPage(env.browser, `${env.site.url}index.html?lang=${LANG}`, { allowedOrigin: env.site.url, viewport: { width: 390, height: 844 } });
  try {
    const calc = page.locator(`roofline-calculator[kind="${KIND}"]`);
    await calc.scrollIntoViewIfNeeded();
    await calc.locator('details.chart-data summary').first().click();
    // before: the lesson's numbers
    const lesson = expected(prefill(2000), step());
    assert.deepEqual(lesson.rows, { prefillIntensity: '2,000 FLOPs/B', prefillCompute: '265 ms', ttft: `265 ms · ${verdict('compute')}`, tpot: `53.5 ms · ${verdict('memory')}` });
    await expectShown(page, lesson, 'the lesson\'s prefill and decode on the L4');
    const tokens = field(page, KIND, 'tokens');
    await tokens.click();
    await page.keyboard.press('ControlOrMeta+a');
    await tokens.pressSequentially('4000');
    const longer = expected(prefill(4000), step());
    assert.notEqual(longer.rows.prefillCompute, lesson.rows.prefillCompute);
    assert.equal(longer.rows.tpot, lesson.rows.tpot);
    await expectShown(page, longer, '4,000 tokens on the L4');
    await select(page, KIND, 'gpu').selectOption('h100-sxm');
    const h100 = expected(prefill(4000, 'h100-sxm'), step('h100-sxm'));
    assert.notEqual(h100.rows.tpot, longer.rows.tpot);
    await expectShown(page, h100, '4,000 tokens on the H100 SXM');
    assert.equal(await calc.locator('details.chart-data table').first().isVisible(), true);
    assert.deepEqual(errors, []);
    assert.deepEqual(foreign, []);
  } finally {
    await context.close();
  }
});
