// "Multiplying by hand" (kind="byhand") on a phone (390 × 844), as a learner uses it. In Spanish,
// the learner changes Sofía's first purchase (A₁₁) from 2 to 3: the lesson's C = [[265, 650],
// [80, 300]] (12 MACs, 24 FLOPs) becomes what the module multiplies, and the cell shows its dot
// product. In Portuguese, they add a column to A (the shapes no longer match: the page says so and
// C has no numbers), then a row to B and type into the new cells: C is 2 × 2 again, with 16 MACs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { expectSoon, loadUi, norm, openPage, ROOT, rows, SITE_DIR, useBrowserAndSite } from '../helpers.mjs';

const env = useBrowserAndSite();
const rl = await (await import(join(SITE_DIR, 'roofline.mjs'))).default();
const ui = loadUi();
const { format } = await import(join(ROOT, 'web/src/format.js'));
/** C's numbers as the page writes them in `lang`. */
const written = (c, lang) => c.map((row) => row.map((x) => norm(format(x, 'number', lang))));
const KIND = 'byhand';
const PHONE = { width: 390, height: 844 };
// the lesson's purchases (A: Sofía and Luis) and prices and grams (B)
const A = [[2, 1, 3], [1, 0, 2]];
const B = [[50, 200], [120, 100], [15, 50]];

/** A UI text with its {name} and {name|one=…|other=…} filled in. */
const fill = (text, vars) => text
  .replace(/\{(\w+)\|one=([^|}]*)\|other=([^}]*)\}/g, (_, k, one, other) => (Number(vars[k]) === 1 ? one : other))
  .replace(/\{(\w+)\}/g, (_, k) => String(vars[k]));

const calc = (page) => page.locator(`roofline-calculator[kind="${KIND}"]`);
const cell = (page, m, i, j) => calc(page).locator(`input.cell-${m}[data-row="${i}"][data-col="${j}"]`);
/** C's cells as shown: [[value, dot product], …]. */
const shownC = (page) => calc(page).evaluate((host) => {
  const out = [];
  for (const el of host.shadowRoot.querySelectorAll('.c-cell')) {
    (out[el.dataset.row] ||= [])[el.dataset.col] = [el.querySelector('.c-value').textContent, el.querySelector('.c-dot').textContent];
  }
  return out;
});

async function typeCell(page, m, i, j, text) {
  const input = cell(page, m, i, j);
  await input.click();
  await page.keyboard.press('ControlOrMeta+a');
  await input.pressSequentially(text);
}

test('byhand (es, phone): changing A₁₁ from 2 to 3 changes Sofía\'s row of C to what the module multiplies', async () => {
  const { page, context, errors, foreign } = await openPage(env.browser, `${env.site.url}index.html?lang=es`, { allowedOrigin: env.site.url, viewport: PHONE });
  try {
    await calc(page).scrollIntoViewIfNeeded();
    // before: the lesson's C, 12 MACs and 24 FLOPs
    assert.deepEqual((await shownC(page)).map((r) => r.map(([v]) => v)), [['265', '650'], ['80', '300']]);
    assert.equal((await shownC(page))[0][0][1], '2 × 50 + 1 × 120 + 3 × 15');
    assert.deepEqual(await rows(page, KIND), { size: '2 × 2', macs: '12', flops: '24' });
    await typeCell(page, 'a', 0, 0, '3');
    const a = [[3, 1, 3], A[1]];
    const r = rl.multiply({ a, b: B });
    const want = written(r.c, 'es');
    assert.notDeepEqual(want, [['265', '650'], ['80', '300']]);
    await expectSoon(async () => (await shownC(page)).map((row) => row.map(([v]) => v)), want, 'C after A₁₁ = 3');
    assert.equal((await shownC(page))[0][0][1], '3 × 50 + 1 × 120 + 3 × 15');
    assert.deepEqual(await rows(page, KIND), { size: '2 × 2', macs: '12', flops: '24' }, 'the same shapes cost the same MACs');
    assert.deepEqual(errors, []);
    assert.deepEqual(foreign, []);
  } finally {
    await context.close();
  }
});

test('byhand (pt, phone): a column added to A breaks the shapes; a row added to B and filled in gives C again, with 16 MACs', async () => {
  const { page, context, errors, foreign } = await openPage(env.browser, `${env.site.url}index.html?lang=pt`, { allowedOrigin: env.site.url, viewport: PHONE });
  try {
    await calc(page).scrollIntoViewIfNeeded();
    const summary = calc(page).locator('p.summary');
    const message = calc(page).locator('.byhand-message');
    assert.equal(norm(await summary.textContent()), fill(ui['byhand.summary'].pt, { rows: 2, cols: 2, macs: 12 }));
    assert.equal(await message.isVisible(), false);
    await calc(page).locator('[data-action="a-addCol"]').click();
    // (2 × 4) · (3 × 2): the module refuses; the page says why, in the learner's words
    assert.throws(() => rl.multiply({ a: A.map((row) => [...row, 0]), b: B }), (e) => e.code === 'shape_mismatch');
    const mismatch = fill(ui['byhand.mismatch'].pt, { acols: 4, brows: 3 });
    await expectSoon(async () => norm(await message.textContent()), mismatch, 'the mismatch message');
    assert.equal(await message.isVisible(), true);
    assert.equal(norm(await summary.textContent()), mismatch);
    assert.deepEqual((await shownC(page)).flat().map(([v]) => v), ['—', '—', '—', '—']);
    await calc(page).locator('[data-action="b-addRow"]').click();
    await typeCell(page, 'a', 0, 3, '5');
    await typeCell(page, 'b', 3, 0, '10');
    const a = [[...A[0], 5], [...A[1], 0]];
    const b = [...B, [10, 0]];
    const r = rl.multiply({ a, b });
    assert.equal(r.macs, 16);
    await expectSoon(async () => (await shownC(page)).map((row) => row.map(([v]) => v)), written(r.c, 'pt'), 'C of the new shapes');
    assert.deepEqual(await rows(page, KIND), { size: '2 × 2', macs: norm(format(r.macs, 'integer', 'pt')), flops: norm(format(r.flops, 'integer', 'pt')) });
    assert.equal(norm(await summary.textContent()), fill(ui['byhand.summary'].pt, { rows: 2, cols: 2, macs: r.macs }));
    assert.equal(await message.isVisible(), false);
    assert.deepEqual(errors, []);
    assert.deepEqual(foreign, []);
  } finally {
    await context.close();
  }
});
