// The lesson's real-life section ("En la vida real") and the worked cards of other sections, read
// on the served page in each language: every figure the lesson prints there (82 PFLOPs, ≈ 2.3 h,
// ≈ 116 and ≈ 58 photos/s, ≈ 5 % load, ≈ US$768, ≈ 3.6 × 10¹⁷ FLOPs, ≈ 593 TFLOPS at ≈ 15 %,
// ≈ 20 tokens/s, ≈ 38 tokens/s, 2,073,600 pixels …), each "open in the calculator" link landing on
// its case, the two Python programs beside what they print, the cell index in both notations,
// and the section looked at and checked with axe on a desktop and a phone, light and dark.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { openPage, norm, rows, renderAll, frames, shotPath, until, useBrowserAndSite, ROOT } from './helpers.mjs';

const env = useBrowserAndSite();

/** A card's rows as { rowId: "how ‖ result" } and its result line. */
async function card(page, id) {
  return page.evaluate((cid) => {
    const fig = document.querySelector(`[data-card="${cid}"]`);
    if (!fig) return null;
    const out = { rows: {}, result: '' };
    for (const tr of fig.querySelectorAll('tbody tr')) {
      out.rows[tr.dataset.row] = `${tr.querySelector('td.how').textContent} ‖ ${tr.querySelector('td.result').textContent}`;
    }
    const r = fig.querySelector('.worked-result');
    out.result = r ? r.textContent : '';
    out.link = fig.querySelector('a[data-open]')?.getAttribute('href') || null;
    return out;
  }, id);
}

const clean = (c) => ({ ...c, rows: Object.fromEntries(Object.entries(c.rows).map(([k, v]) => [k, norm(v)])), result: norm(c.result) });

// the lesson's figures as each language writes them (es and en: 2,073,600 and 0.126; pt: 2.073.600 and 0,126)
const EXPECT = {
  es: {
    c01Day: { perDay: '8.2 × 10¹⁶ = 82 PFLOPs', oneT4: '≈ 8,300 s ≈ 2.3 h', arrivals: '≈ 116 fotos/s', perGpu: '≈ 58 fotos/s: ≈ 4.8% de carga', cost: '≈ US$768', photos: '10,000,000' },
    training: { total: '≈ 3.6 × 10¹⁷ FLOPs', step: '24.6 GFLOPs', photos: '1,840,211', llm: '≈ 6 FLOPs' },
    c10: { weights: '70.6 GB', perGpu: '35.3 GB', floor: '≈ 10.5 ms', kv: '49.2 GB', step: '≈ 14.7 ms', target: '≈ 20 tokens/s por persona', prefill: '≈ 593 TFLOPS', share: '≈ 15%' },
    phone: { weights: '≈ 1.31 GB', ceiling: '≈ 38 tokens/s', published: '≈ 30 tokens/s' },
    games: { pixels: '2,073,600', perSecond: '124,416,000' },
    sanity: { time: '≈ 0.126 ms', ceiling: '≈ 7,900', measured: '≈ 1,200', fraction: '≈ 15.1%' },
    fp32: { achieved: '0.82 TFLOPS', fp32Share: '≈ 10.1%', fp16Share: '≈ 1.3%', gpus: '5', tensorrt: '1' },
    int8Cap: { int8: '130 TOPS', compute: '2×', memory: '2×' },
    conv: { window: '147', windows: '1,843,968 números', filters: '9,408 pesos', macs: '118,013,952' },
    english: { weights: '≈ 54 GB', ceiling: '≈ 62 tokens/s', flops: '≈ 54 GFLOPs', share: '≈ 0.3%', batch: '≈ 1,985 tokens/s en total' },
  },
  pt: {
    c01Day: { perDay: '8,2 × 10¹⁶ = 82 PFLOPs', oneT4: '≈ 8.300 s ≈ 2,3 h', cost: '≈ US$ 768' },
    games: { pixels: '2.073.600' },
    sanity: { time: '≈ 0,126 ms', ceiling: '≈ 7.900' },
  },
  en: {
    c01Day: { perDay: '8.2 × 10¹⁶ = 82 PFLOPs', arrivals: '≈ 116 photos/s' },
    english: { balance: '≈ 295.5 FLOPs/B' },
  },
};

for (const lang of ['es', 'pt', 'en']) {
  test(`the real-life section and the worked cards show the lesson's figures (${lang})`, async () => {
    const { page, context, errors } = await openPage(env.browser, `${env.site.url}index.html?lang=${lang}`, { allowedOrigin: env.site.url });
    try {
      await renderAll(page);
      // the real-life section follows the lesson's order
      const order = await page.evaluate(() => [...document.querySelectorAll('#reallife [data-card]')].map((x) => x.dataset.card));
      assert.deepEqual(order, ['c01Day', 'training', 'c10', 'phone', 'games']);
      for (const [id, want] of Object.entries(EXPECT[lang])) {
        const c = await card(page, id);
        assert.ok(c, `${lang}: card ${id} is on the page`);
        const got = clean(c);
        for (const [row, text] of Object.entries(want)) {
          assert.ok(got.rows[row], `${lang} ${id}: row ${row}`);
          assert.ok(got.rows[row].endsWith(text), `${lang} ${id}.${row}: "${got.rows[row]}" ends with "${text}"`);
        }
        assert.doesNotMatch(JSON.stringify(got), /NaN|Infinity|undefined|\{[a-zA-Z]+\}|—/, `${lang} ${id}: every figure filled`);
      }
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });
}

test('"open this case in the calculator" lands on the case: C10 in the decode calculator, C01 in float32 in the utilization one', async () => {
  const { page, context, errors } = await openPage(env.browser, `${env.site.url}index.html?lang=es`, { allowedOrigin: env.site.url });
  try {
    await renderAll(page);
    const c10 = (await card(page, 'c10')).link;
    assert.match(c10, /#calc-decode$/);
    await page.goto(new URL(c10, `${env.site.url}index.html`).href);
    await until(page, () => document.getElementById('lab')?.dataset.rendered === 'all');
    await until(page, () => document.querySelector('roofline-calculator[kind="decode"]')?.shadowRoot?.querySelector('output[data-row="stepTime"]')?.textContent.includes('ms'));
    await frames(page);
    const d = await rows(page, 'decode');
    // two H100 (3,350 GB/s), 70.6 GB of FP8 weights, 40 conversations of 0.695 GB: ≈ 14.7 ms a step
    assert.match(d.stepTime, /^14\.7 ms/, JSON.stringify(d));
    assert.equal(d.bytesPerStep, '49.2 GB');
    const fp32 = (await card(page, 'fp32')).link;
    await page.goto(new URL(fp32, `${env.site.url}index.html`).href);
    await until(page, () => document.querySelector('roofline-calculator[kind="utilization"]')?.shadowRoot?.querySelector('output[data-row="fraction"]')?.textContent.includes('%'));
    await frames(page);
    const u = await rows(page, 'utilization');
    assert.equal(u.achieved, '0.82 TFLOPS');
    assert.equal(u.fraction, '10.1%');
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('the two Python programs print what the module computes, and a cell of A says where it is in both notations', async () => {
  const { page, context } = await openPage(env.browser, `${env.site.url}index.html?lang=es`, { allowedOrigin: env.site.url });
  try {
    await renderAll(page);
    const out = (id) => page.locator(`pre[data-output="${id}"]`).textContent();
    const roof = (await out('roofline')).split('\n');
    assert.equal(roof.length, 5);
    assert.match(roof[0], /1365\.3\s+2\.1144\s+0\.3146\s+compute$/);
    assert.match(roof[3], /1\.0\s+0\.1327\s+53\.5333\s+memory$/);
    assert.match(roof[4], /2000\.0\s+265\.4545\s+53\.5333\s+compute$/);
    const mm = (await out('matmul')).split('\n');
    assert.deepEqual(mm, ['C = [[265, 650], [80, 300]]', 'MACs = 12   FLOPs = 24',
      '(4 x 8) . (8 x 5): MACs =   160  n*m*k = 160', '(1 x 64) . (64 x 10): MACs =   640  n*m*k = 640', '(16 x 16) . (16 x 16): MACs =  4096  n*m*k = 4096']);
    // the programs carry the catalog's figures, as a reader would type them
    const code = await page.locator('#listing-roofline pre code').textContent();
    assert.match(code, /T4 = \(65e12, 320e9\)/);
    // the cell index: A₁₃ = 3 is A[0][2]
    const index = norm(await page.locator('roofline-calculator[kind="byhand"] [data-cell-index]').textContent());
    assert.match(index, /A₁₃ = 3 .*A\[0\]\[2\]/);
    await page.locator('roofline-calculator[kind="byhand"] input.cell-b[data-row="1"][data-col="0"]').focus();
    assert.match(norm(await page.locator('roofline-calculator[kind="byhand"] [data-cell-index]').textContent()), /B₂₁ = 120 .*B\[1\]\[0\]/);
    // the photo tensor
    assert.match(norm(await page.locator('#byhand').textContent()), /3 × 224 × 224 .*150,528 números/);
  } finally {
    await context.close();
  }
});

test('the real-life section in Spanish on a desktop and a phone, light and dark: screenshots, and axe finds no violations', async () => {
  for (const colorScheme of ['light', 'dark']) {
    for (const viewport of [{ width: 1100, height: 900 }, { width: 390, height: 844 }]) {
      const { page, context } = await openPage(env.browser, `${env.site.url}index.html?lang=es#reallife`, { allowedOrigin: env.site.url, colorScheme, viewport, bypassCSP: true });
      try {
        await renderAll(page);
        await page.addScriptTag({ path: join(ROOT, 'tests/node_modules/axe-core/axe.min.js') });
        const violations = await page.evaluate(async () => {
          // eslint-disable-next-line no-undef
          const res = await axe.run({ include: [['#reallife'], ['#flops']] }, { resultTypes: ['violations'] });
          return res.violations.map((v) => `${v.id}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
        });
        assert.deepEqual(violations, [], `${colorScheme} ${viewport.width}`);
        // nothing wider than the phone's screen but the tables' own scrolling regions
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        assert.ok(overflow <= 0, `${colorScheme} ${viewport.width}: the page scrolls sideways by ${overflow} px`);
        await page.locator('#reallife').screenshot({ path: shotPath(`reallife-es-${viewport.width}-${colorScheme}.png`) });
      } finally {
        await context.close();
      }
    }
  }
});
