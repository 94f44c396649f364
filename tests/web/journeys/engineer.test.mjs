// The engineer's journey (issue "The page as its users use it"), in English on a desktop: sizes
// Llama 3 8B in INT4 on an RTX 4090 at batch 1 and 32 with 8,192 tokens of context, as a person
// does it (scroll to the calculator, choose in its selects, type in its fields), and reads what is
// on screen; then the lesson's first example, one choice away; then whether a draft model would
// speed the INT4 model up on that card (the speculative calculator); then the same case as an
// author's preset (docs/embedding.md), which must not count the 8,192 tokens for nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectSoon, journeyEndShots, launch, norm, openPage, ROOT, serve, shotPath, SITE_DIR, useBrowserAndSite, waitReady } from '../helpers.mjs';

const env = useBrowserAndSite();
const DESKTOP = { width: 1366, height: 900 };
const rl = await (await import(join(SITE_DIR, 'roofline.mjs'))).default();
const { format } = await import(join(ROOT, 'web/src/format.js'));

/** rl.speculative for Llama 3 8B in INT4 on an RTX 4090 (8,192 tokens of context), Llama 3.2 1B drafting at α 0.8. */
function specAt(gamma) {
  const dev = rl.device({ gpu: 'rtx-4090', dtype: rl.formats().find((f) => f.id === 'int4').computeDtype });
  return rl.speculative({ model: 'llama3-8b', format: 'int4', draft: 'llama3.2-1b', tokens: 8192, batch: 1, bytesPerSecond: dev.bytesPerSecond, peakFlopsPerSecond: dev.peakFlopsPerSecond, gamma, acceptance: 0.8 });
}

/** What a reader sees of the decode calculator: its summary, and its results table's rows. */
async function seen(calc) {
  const summary = calc.locator('p.summary');
  assert.ok(await summary.isVisible(), 'the summary is on screen');
  const rows = {};
  for (const out of await calc.locator('output[data-row]').all()) {
    if (await out.isVisible()) rows[await out.getAttribute('data-row')] = norm(await out.textContent());
  }
  return { summary: norm(await summary.textContent()), rows };
}

/** Types `text` into a field as a person does: click it, select what is there, type. */
async function type(calc, id, text) {
  const input = calc.locator(`[data-field="${id}"] input[type="text"]`);
  await input.click();
  await input.press('ControlOrMeta+a');
  await input.pressSequentially(text);
}

test('the engineer sizes Llama 3 8B in INT4 on an RTX 4090: batch 32 of 8,192 tokens does not fit, at most 17 do', async () => {
  const { page, context, errors, foreign } = await openPage(env.browser, `${env.site.url}index.html?lang=en`, { allowedOrigin: env.site.url, viewport: DESKTOP });
  try {
    const calc = page.locator('roofline-calculator[kind="decode"]');
    await calc.scrollIntoViewIfNeeded();
    await calc.locator('select[name="model"]').selectOption({ label: 'Llama 3 8B' });
    await calc.locator('select[name="format"]').selectOption({ label: 'INT4 weight-only' });
    await calc.locator('select[name="gpu"]').selectOption({ label: 'NVIDIA GeForce RTX 4090' });
    assert.equal(await calc.locator('[data-field="tokens"] input[type="text"]').inputValue(), '8192', 'the context is 8,192 tokens');
    // batch 1: fits, and the KV cache counted is said beside the result
    await type(calc, 'batch', '1');
    let s = await seen(calc);
    assert.match(s.summary, /^At most [\d,.]+ tokens per second in total/);
    assert.match(s.summary, /Each conversation's KV cache is counted: 1.07 GB at 8,192 tokens\.$/);
    assert.match(s.rows.capacity, /^fits/);
    // batch 32: the KV caches overflow the 24 GB, and the page says so before anything else
    await type(calc, 'batch', '32');
    s = await seen(calc);
    assert.equal(s.rows.total, '805');
    assert.equal(s.rows.capacity, 'does not fit · at most 17 conversations');
    assert.match(s.summary, /^At most 805 tokens per second in total, .* But this batch does not fit in memory: at most 17 conversations do\. Each conversation's KV cache is counted: 1.07 GB at 8,192 tokens\.$/);
    // the fields the model and card filled show their numbers as the results do (not 5.73469 GB
    // beside a result of 5.73 GB), and the results are computed with the model's own bytes
    const fieldText = (id) => calc.locator(`[data-field="${id}"] input[type="text"]`).inputValue();
    assert.equal(await fieldText('weights'), '5.73');
    assert.equal(await fieldText('kv'), '1.07');
    const how = norm(await calc.locator('tr:has(output[data-row="bytesPerStep"]) td.how').textContent());
    assert.match(how, /^\(5\.73 GB \+ 32 × 1\.07 GB\) ÷ 1/, how);
    const digits = await calc.locator('input[type="text"]').evaluateAll((els) => els.map((e) => e.value).filter((v) => /\d[.,]\d{4,}/.test(v)));
    assert.deepEqual(digits, [], 'no field holds more digits than the results');
    // the address the page keeps (url-state) opens the same numbers again
    await page.waitForTimeout(400);
    const before = s.rows;
    await page.reload();
    await waitReady(page); // the reader waits for the page to draw, as before the first look
    await calc.scrollIntoViewIfNeeded();
    assert.deepEqual((await seen(calc)).rows, before, 'the same results after a reload of the page\'s address');
    assert.equal(await calc.locator('select[name="model"]').inputValue(), 'llama3-8b', 'the model is still chosen, not "custom"');
    await calc.screenshot({ path: shotPath('journey-engineer-decode-4090-b32.png') });
    // the lesson's first example, one choice away: the L4 in BF16 at batch 1, KV cache left out
    await calc.locator('select[name="format"]').selectOption('bf16');
    await calc.locator('select[name="gpu"]').selectOption('l4');
    await type(calc, 'batch', '1');
    await calc.locator('select[name="kvSource"]').selectOption({ label: 'left out, as in the lesson' });
    s = await seen(calc);
    assert.equal(s.rows.total, '18.7');
    assert.match(s.summary, /^At most 18.7 tokens per second in total, .* The KV cache is left out, as in the lesson's first example; counting its 1.07 GB per conversation \(8,192 tokens\), it would be at most 17.5 tokens per second\.$/);
    await journeyEndShots(page, calc, 'engineer');
    // then whether a draft model would help the INT4 target on the RTX 4090: with Llama 3.2 1B
    // guessing (in BF16, 2.47 GB, a large share beside 5.73 GB), a short γ beats a longer one
    const spec = page.locator('roofline-calculator[kind="speculative"]');
    await spec.scrollIntoViewIfNeeded();
    await spec.locator('select[name="model"]').selectOption({ label: 'Llama 3 8B' });
    await spec.locator('select[name="format"]').selectOption({ label: 'INT4 weight-only' });
    await spec.locator('select[name="draft"]').selectOption({ label: 'Llama 3.2 1B' });
    await spec.locator('select[name="gpu"]').selectOption({ label: 'NVIDIA GeForce RTX 4090' });
    await type(spec, 'alpha', '0.8');
    const speedups = {};
    for (const gamma of [4, 2]) {
      await type(spec, 'gamma', String(gamma));
      const want = specAt(gamma);
      const out = spec.locator('output[data-row="speedup"]');
      await expectSoon(() => out.getAttribute('data-speedup'), want.speedup.toFixed(4), `γ = ${gamma}`);
      speedups[gamma] = { shown: norm(await out.textContent()), rate: (await seen(spec)).rows.rate };
      assert.equal(speedups[gamma].rate, format(want.tokensPerSecondPerSequence, 'number', 'en'));
    }
    assert.deepEqual(speedups, { 4: { shown: '1.3×', rate: '191' }, 2: { shown: '1.4×', rate: '200' } });
    assert.deepEqual(foreign, []);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test("the author's preset of the same case counts its 8,192 tokens: does not fit, at most 17", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'roofline-journey-'));
  for (const f of ['roofline-calculator.js', 'roofline.js', 'favicon.svg']) copyFileSync(join(SITE_DIR, f), join(dir, f));
  // docs/embedding.md's preset, on the engineer's model and card
  writeFileSync(join(dir, 'preset.html'), `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Preset</title>
<link rel="icon" href="favicon.svg"><script src="roofline-calculator.js" defer></script></head><body><h1>Sizing</h1>
<roofline-calculator kind="decode" model="llama3-8b" format="int4" gpu="rtx-4090" values="batch=32 tokens=8192" eager></roofline-calculator>
<roofline-calculator id="lesson" kind="decode" values="kv=0" eager></roofline-calculator>
</body></html>`);
  const site = await serve(dir);
  const browser = await launch();
  try {
    const { page, context, errors } = await openPage(browser, `${site.url}preset.html`, { allowedOrigin: site.url, viewport: DESKTOP });
    const calc = page.locator('roofline-calculator[kind="decode"]').first();
    await calc.scrollIntoViewIfNeeded();
    let s = await seen(calc);
    assert.equal(s.rows.capacity, 'does not fit · at most 17 conversations');
    assert.match(s.summary, /But this batch does not fit in memory: at most 17 conversations do\. Each conversation's KV cache is counted: 1.07 GB at 8,192 tokens\.$/);
    // an author who wants the lesson's simplification writes kv=0, and the reader is told
    s = await seen(page.locator('#lesson'));
    assert.equal(s.rows.total, '18.7');
    assert.match(s.summary, /The KV cache is left out, as in the lesson's first example; counting its 1.07 GB per conversation \(8,192 tokens\), it would be at most 17.5 tokens per second\.$/);
    assert.deepEqual(errors, []);
    await context.close();
  } finally {
    await browser.close();
    await site.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
