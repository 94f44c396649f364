// Models and devices beyond the lesson's, on the page, in Spanish and Portuguese: the decode
// calculator's selects list the catalog in groups (the lesson's first), an MoE reads per step
// only the experts its batch touches (the bytes the core gives), its FLOPs per token are its
// active parameters', and the cost per million tokens follows the GPU's price per hour.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { openPage, rows, field, fieldError, select, until, SITE_DIR, useBrowserAndSite } from './helpers.mjs';

const env = useBrowserAndSite();
const rl = await (await import(join(SITE_DIR, 'roofline.mjs'))).default();

for (const lang of ['es', 'pt']) {
  test(`decode: the catalog's models and devices, grouped; Mixtral reads 2 of 8 experts at batch 1 (${lang})`, async () => {
    const { page, context, errors } = await openPage(env.browser, `${env.site.url}index.html?lang=${lang}`, { allowedOrigin: env.site.url });
    try {
      // the device select: the lesson's GPUs first, then one group per kind
      const groups = await select(page, 'decode', 'gpu').evaluate((el) =>
        [...el.querySelectorAll('optgroup')].map((g) => [g.label, [...g.querySelectorAll('option')].map((o) => o.value)]));
      const lesson = rl.gpus().filter((g) => g.lesson).map((g) => g.id);
      assert.deepEqual(groups[0][1], lesson);
      const kinds = [...new Set(rl.gpus().filter((g) => !g.lesson).map((g) => g.kind))];
      assert.equal(groups.length, 1 + kinds.length);
      assert.ok(groups.flatMap(([, ids]) => ids).includes('mi300x'));
      const modelIds = await select(page, 'decode', 'model').evaluate((el) => [...el.options].map((o) => o.value));
      for (const id of ['mixtral-8x7b', 'deepseek-v3', 'gpt-oss-120b', 'qwen3-30b-a3b', 'gemma3-27b']) assert.ok(modelIds.includes(id), id);

      // the lesson's Llama 3 8B reads every weight by the lesson's rule; its config says what a step reads
      const lessonHow = await page.evaluate(() => {
        const out = document.querySelector('roofline-calculator[kind="decode"]').shadowRoot.querySelector('output[data-row="bytesPerStep"]');
        return out.closest('tr').querySelector('td.how').textContent;
      });
      const counted = rl.modelWeights({ model: 'llama3-8b', batch: 1 });
      const gb2 = (x) => new Intl.NumberFormat(lang === 'es' ? 'es-MX' : 'pt-BR', { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(x / 1e9);
      assert.ok(lessonHow.includes(`${gb2(counted.bytesReadPerStepCounted)}\u00a0GB`) && lessonHow.includes(`${gb2(counted.residentBytes)}\u00a0GB`), lessonHow);
      await select(page, 'decode', 'model').selectOption('mixtral-8x7b');
      await select(page, 'decode', 'gpu').selectOption('h100-sxm');
      const w1 = rl.modelWeights({ model: 'mixtral-8x7b', batch: 1 });
      const w64 = rl.modelWeights({ model: 'mixtral-8x7b', batch: 64 });
      assert.ok(w1.bytesReadPerStep < 0.3 * w1.bytes && w64.bytesReadPerStep > 0.99 * w64.bytes);
      const want = (batch, w) => rl.decode({ weightBytes: w.bytes, bytesReadPerStep: w.bytesReadPerStep, kvBytesPerSequence: 0, batch, bytesPerSecond: 3350e9 });
      await field(page, 'decode', 'batch').fill('1');
      await field(page, 'decode', 'kv').fill('0');
      let d = await rows(page, 'decode');
      // the page shows the core's bytes per step, to the three digits it prints
      const shown = (text) => {
        const m = /^([\d.,]+) GB$/.exec(text);
        assert.ok(m, text);
        return Number(lang === 'pt' ? m[1].replace(/\./g, '').replace(',', '.') : m[1].replace(/,/g, '')) * 1e9;
      };
      const near = (got, want) => assert.ok(Math.abs(got / want - 1) < 0.003, `${got} vs ${want}`);
      near(shown(d.bytesPerStep), want(1, w1).bytesPerStep);
      await field(page, 'decode', 'batch').fill('64');
      d = await rows(page, 'decode');
      near(shown(d.bytesPerStep), want(64, w64).bytesPerStep);
      // the chart says the bytes read grow with the batch, and its table lists them
      const decodeChart = await until(page, () => {
        const box = document.querySelector('roofline-calculator[kind="decode"]').shadowRoot.querySelector('.chart-box');
        const desc = box && box.querySelector('svg desc');
        return desc && { desc: desc.textContent, heads: [...box.querySelectorAll('table thead th')].map((t) => t.textContent) };
      });
      assert.ok(decodeChart.heads.length === 7, decodeChart.heads.join(' | '));
      assert.match(decodeChart.desc, lang === 'es' ? /expertos/ : /especialistas/);
      // the H100's price per hour gives a cost per million tokens, and a chart of it over the batch
      assert.match(d.cost, /^US\$\s[\d.,]+$/);
      const costChart = () => page.evaluate(() => {
        const box = document.querySelector('roofline-calculator[kind="decode"]').shadowRoot.querySelector('[data-chart="cost"]');
        const svg = box && box.querySelector('svg');
        return svg ? { desc: svg.querySelector('desc').textContent, points: box.querySelectorAll('table tbody tr').length } : null;
      });
      await until(page, () => document.querySelector('roofline-calculator[kind="decode"]').shadowRoot.querySelector('[data-chart="cost"] svg'));
      const chart = await costChart();
      assert.equal(chart.points, 11);
      const cost1 = rl.costPerMillionTokens({ pricePerHourUsd: rl.gpu({ id: 'h100-sxm' }).pricePerHourUsd, tokensPerSecond: want(1, w1).tokensPerSecond }).usdPerMillionTokens;
      assert.ok(chart.desc.includes('US$'), chart.desc);
      assert.ok(cost1 > 10, `${cost1}`);
      // the H200 has no price: the row says so in the reader's language
      await select(page, 'decode', 'gpu').selectOption('h200');
      d = await rows(page, 'decode');
      assert.equal(d.cost, '—');
      // (the charts follow at the display's pace)
      await until(page, () => !document.querySelector('roofline-calculator[kind="decode"]').shadowRoot.querySelector('[data-chart="cost"] svg'));
      assert.equal(await costChart(), null, 'no price, no cost chart');
      // a price typed by the reader gives the cost again
      await field(page, 'decode', 'price').fill(lang === 'pt' ? '4,5' : '4.5');
      d = await rows(page, 'decode');
      const typedCost = rl.costPerMillionTokens({ pricePerHourUsd: 4.5, tokensPerSecond: rl.decode({ weightBytes: w64.bytes, bytesReadPerStep: w64.bytesReadPerStep, kvBytesPerSequence: 0, batch: 64, bytesPerSecond: rl.gpu({ id: 'h200' }).bytesPerSecond }).tokensPerSecond }).usdPerMillionTokens;
      assert.match(d.cost, /^US\$\s[\d.,]+$/);
      assert.ok(Math.abs(Number(d.cost.replace(/^US\$\s/, '').replace(lang === 'pt' ? /\./g : /,/g, '').replace(',', '.')) / typedCost - 1) < 0.01, `${d.cost} vs ${typedCost}`);
      await until(page, () => document.querySelector('roofline-calculator[kind="decode"]').shadowRoot.querySelector('[data-chart="cost"] svg'));
      // two bad fields at once: the module reports both in one answer, and each shows next to its field
      await field(page, 'decode', 'batch').fill('-1');
      await field(page, 'decode', 'bw').fill('0');
      const batchError = await fieldError(page, 'decode', 'batch');
      const bwError = await fieldError(page, 'decode', 'bw');
      assert.ok(batchError && bwError, `batch: "${batchError}", bandwidth: "${bwError}"`);
      assert.notEqual(batchError, bwError);
      assert.equal((await rows(page, 'decode')).total, '—');
      // quantization: a catalog MoE stores all its experts, a decode step reads 2 of 8
      await select(page, 'quant', 'model').selectOption('mixtral-8x7b');
      const qbw = rl.gpu({ id: rl.lessonCase({ id: 'llama-l4-decode' }).values.gpu }).bytesPerSecond;
      const qWant = rl.decode({ model: 'mixtral-8x7b', batch: 1, bytesPerSecond: qbw }).tokensPerSecond;
      const qGot = (await rows(page, 'quant')).bf16Tokens;
      const qNum = Number(qGot.replace(lang === 'pt' ? /\./g : /,/g, '').replace(',', '.'));
      assert.ok(Math.abs(qNum / qWant - 1) < 0.01, `${qGot} vs ${qWant}`);
      // prefill: an MoE's FLOPs are those of the parameters a token multiplies (DeepSeek-V3: 36.6 B of 671 B)
      await select(page, 'clocks', 'model').selectOption('deepseek-v3');
      const active = rl.model({ id: 'deepseek-v3' }).activeParams / 1e9;
      const typed = Number((await field(page, 'clocks', 'params').inputValue()).replace(lang === 'pt' ? /\./g : /,/g, '').replace(',', '.'));
      assert.ok(Math.abs(typed / active - 1) < 0.001, `${typed} vs ${active}`);
      assert.deepEqual(errors, []);
      if (lang === 'pt') {
        await field(page, 'decode', 'batch').fill('8');
        await field(page, 'decode', 'bw').fill('3350');
        await select(page, 'decode', 'gpu').selectOption('h100-sxm');
        await until(page, () => document.querySelector('roofline-calculator[kind="decode"]').shadowRoot.querySelector('[data-chart="cost"] svg'));
        await page.locator('roofline-calculator[kind="decode"]').screenshot({ path: join(SITE_DIR, '..', '..', 'tests/web/screenshots', 'decode-moe-cost-pt.png') });
      }
    } finally {
      await context.close();
    }
  });
}
