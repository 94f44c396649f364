// "The two clocks" (kind="clocks") on a phone (390 × 844), in Spanish, as a learner uses it. It
// opens on the lesson's prefill of 2,000 tokens of Llama 3 8B on an L4: ≈ 2,000 FLOPs per byte,
// compute-bound, ≈ 265 ms to the first token; then ≈ 53.5 ms per token, memory-bound. The learner
// types a prompt of 4,000 tokens: the prefill's compute clock doubles, a decode step does not move.
// Then they choose an H100 SXM: both clocks shrink to what the module says for its peak and
// bandwidth. The summary and the chart's data table (opened with a tap) follow.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { expectSoon, field, fieldError, LANGS, loadUi, norm, openPage, ROOT, rows, select, shadowText, SITE_DIR, typeInto, useBrowserAndSite } from '../helpers.mjs';

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

// Prefix caching, in the three languages, as a learner uses it: the cached share starts at 0 %,
// where the time to first token with the cache is the prefill row's; typed 90 %, only 200 of the
// 2,000 tokens go through prefill and the time falls to the floor of reading the weights once
// (≈ 53.5 ms, not a tenth of ≈ 265 ms), while the time per output token reads the same. The
// slider reaches 100 % (one token still goes through) and goes back to 0 %; 150 %, -1 and a word
// are refused in the reader's language, and the typed text stays.
const { parseNumber } = await import(join(ROOT, 'web/src/parse.js'));
const lessonArgs = rl.caseArgs({ id: 'llama-l4-prefill', function: 'prefill' });
const cache = (share) => rl.prefixCache({ params: lessonArgs.params, promptTokens: lessonArgs.tokens, cachedShare: share, weightBytes: lessonArgs.weightBytes, peakFlopsPerSecond: lessonArgs.peakFlopsPerSecond, bytesPerSecond: lessonArgs.bytesPerSecond, gpus: lessonArgs.gpus });
const WORD = { en: 'half', es: 'mitad', pt: 'metade' };
for (const lang of LANGS) {
  test(`clocks (${lang}): a cached share of the prompt shortens the time to first token to the weights' read, and leaves the time per output token`, async () => {
    const phone = lang !== 'en';
    const { page, context, errors, foreign } = await openPage(env.browser, `${env.site.url}index.html?lang=${lang}`, { allowedOrigin: env.site.url, viewport: phone ? { width: 390, height: 844 } : { width: 1100, height: 900 } });
    try {
      const calc = page.locator(`roofline-calculator[kind="${KIND}"]`);
      await calc.scrollIntoViewIfNeeded();
      const sec = (x) => norm(format(x, 'seconds', lang));
      const count = (x) => norm(format(x, 'number', lang));
      const vd = (bound) => norm(ui[`verdict.${bound}`][lang]);
      const shown = (pc) => ({ prefixTokens: count(pc.uncachedTokens), prefixTtft: `${sec(pc.timeToFirstTokenSeconds)} · ${vd(pc.bound)}` });
      const read = async () => {
        const r = await rows(page, KIND);
        return { prefixTokens: r.prefixTokens, prefixTtft: r.prefixTtft, ttft: r.ttft, tpot: r.tpot };
      };
      const whole = rl.prefill(lessonArgs);
      // 0 %: the prompt's 2,000 tokens, and the prefill row's time
      const before = await rows(page, KIND);
      assert.equal(norm(await field(page, KIND, 'cached').inputValue()), '0');
      const none = cache(0);
      assert.equal(none.timeToFirstTokenSeconds, whole.seconds);
      await expectSoon(read, { ...shown(none), ttft: before.ttft, tpot: before.tpot }, 'nothing cached');
      assert.equal(before.prefixTtft, before.ttft, 'with nothing cached, the prefill row\'s time to first token');
      // 90 % typed: 200 tokens, down to the weights' one read; the decode row as it was
      await typeInto(page, KIND, 'cached', '90');
      const most = cache(0.9);
      assert.equal(most.uncachedTokens, 200);
      assert.equal(most.timeToFirstTokenSeconds, whole.memorySeconds, 'the weights\' read is the floor');
      assert.equal(most.bound, 'memory');
      await expectSoon(read, { prefixTokens: count(200), prefixTtft: `${sec(whole.memorySeconds)} · ${vd('memory')}`, ttft: before.ttft, tpot: before.tpot }, '90 % cached');
      assert.notEqual(sec(most.timeToFirstTokenSeconds), sec(whole.seconds));
      // the summary says the first token comes sooner and each token after it does not
      const tpotSeconds = step().stepSeconds;
      const summary = norm(ui['clocks.summary.cached'][lang].replace('{share}', format(0.9, 'percent', lang)).replace('{ttft}', format(most.timeToFirstTokenSeconds, 'seconds', lang))
        .replace('{uncached}', format(whole.seconds, 'seconds', lang)).replace('{tpot}', format(tpotSeconds, 'seconds', lang)));
      await expectSoon(async () => norm(await calc.locator('p.summary').textContent()), summary, 'the summary with the cache');
      // the slider: its right end is 100 %, where one token still goes through prefill
      const slider = calc.locator('[data-field="cached"] input[type="range"]');
      await slider.focus();
      await page.keyboard.press('End');
      assert.equal(norm(await field(page, KIND, 'cached').inputValue()), '100');
      const all = cache(1);
      assert.equal(all.uncachedTokens, 1);
      await expectSoon(read, { ...shown(all), ttft: before.ttft, tpot: before.tpot }, 'the slider at 100 %');
      // dragged with the mouse to about a third: the rows follow whatever share the field shows
      await slider.scrollIntoViewIfNeeded();
      const box = await slider.boundingBox();
      await page.mouse.move(box.x + box.width - 2, box.y + box.height / 2);
      await page.mouse.down();
      await page.mouse.move(box.x + box.width / 3, box.y + box.height / 2, { steps: 5 });
      await page.mouse.up();
      const dragged = parseNumber(await field(page, KIND, 'cached').inputValue(), lang);
      assert.ok(dragged > 10 && dragged < 60, `dragged to ${dragged} %`);
      await expectSoon(read, { ...shown(cache(dragged / 100)), ttft: before.ttft, tpot: before.tpot }, `the slider at ${dragged} %`);
      await slider.focus();
      await page.keyboard.press('Home');
      await expectSoon(read, { ...shown(none), ttft: before.ttft, tpot: before.tpot }, 'the slider back at 0 %');
      // refused, in the reader's language, the typed text kept
      const label = ui['clocks.field.cached'][lang];
      const refusals = [
        ['150', ui['error.out_of_range.between'][lang].replace('{field}', label).replace('{min}', '0').replace('{max}', '100').replace('{why}', '')],
        ['-1', ui['error.negative'][lang].replace('{field}', label)],
        [WORD[lang], ui['error.not_a_number'][lang].replace('{field}', label)],
      ];
      for (const [typed, message] of refusals) {
        await typeInto(page, KIND, 'cached', typed);
        await expectSoon(async () => fieldError(page, KIND, 'cached'), norm(message), `${typed} refused`);
        assert.equal(await field(page, KIND, 'cached').inputValue(), typed);
        const r = await rows(page, KIND);
        assert.deepEqual([r.prefixTokens, r.prefixTtft, r.tpot], ['—', '—', before.tpot], `${typed}: no time with the cache, the decode row stays`);
        assert.ok(!(await shadowText(page, KIND)).includes('NaN'));
      }
      assert.deepEqual(errors, []);
      assert.deepEqual(foreign, []);
    } finally {
      await context.close();
    }
  });
}
