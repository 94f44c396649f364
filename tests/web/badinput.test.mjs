// Bad input of every kind in every field: an inline message in the page's language next to the
// field, dependent results shown as "—" (never NaN or Infinity), the reader's text kept.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, field, norm, KINDS, useBrowserAndSite, loadUi } from './helpers.mjs';

const BAD = ['abc', '', '-5', '0', 'NaN', 'Infinity', '1e400', '1e300'];
// fields where zero is a meaningful value (no KV cache yet; no weights kept in BF16; a GPU that
// served nothing, used at 0 % of its peak; a GPU with no price per hour; a decode step over no cached token;
// a draft whose every guess is refused, speculation with no KV cache, and a prompt none of which
// is cached, the clocks calculator's default)
const ZERO_OK = new Set(['decode.kv', 'quant.kept', 'utilization.rate', 'decode.price', 'step.context', 'speculative.alpha', 'speculative.tokens', 'clocks.cached']);
const ui = loadUi();

const env = useBrowserAndSite();

async function state(page, kind, id) {
  return page.evaluate(({ k, f }) => {
    const r = document.querySelector(`roofline-calculator[kind="${k}"]`).shadowRoot;
    const fieldEl = r.querySelector(`[data-field="${f}"]`);
    return {
      value: fieldEl.querySelector('input[type="text"]').value,
      invalid: fieldEl.querySelector('input[type="text"]').getAttribute('aria-invalid'),
      error: fieldEl.querySelector('.error').textContent,
      outputs: [...r.querySelectorAll('output, td.how, .summary')].map((x) => x.textContent),
      chart: [...r.querySelectorAll('svg.chart')].map((x) => x.textContent).join(' '),
    };
  }, { k: kind, f: id });
}

for (const lang of ['es', 'pt']) {
  test(`every bad value in every field is reported in ${lang}, results become "—"`, async () => {
    const { page, context, errors } = await openPage(env.browser, `${env.site.url}index.html?lang=${lang}`, { allowedOrigin: env.site.url });
    try {
      const problems = [];
      for (const kind of KINDS) {
        const ids = await page.locator(`roofline-calculator[kind="${kind}"] [data-field]`).evaluateAll((els) => els.map((e) => e.dataset.field));
        for (const id of ids) {
          const input = field(page, kind, id);
          const original = await input.inputValue();
          const label = ui[`${kind}.field.${id}`][lang];
          for (const bad of BAD) {
            if (bad === '0' && ZERO_OK.has(`${kind}.${id}`)) continue;
            await input.fill(bad);
            const s = await state(page, kind, id);
            const where = `${kind}.${id} = ${JSON.stringify(bad)}`;
            if (s.value !== bad) problems.push(`${where}: the field lost the reader's text`);
            if (!norm(s.error).startsWith(label)) problems.push(`${where}: no message in ${lang} next to the field (got ${JSON.stringify(s.error)})`);
            if (s.invalid !== 'true') problems.push(`${where}: not marked aria-invalid`);
            if (!s.outputs.some((x) => x.trim() === '—')) problems.push(`${where}: no result shows "—"`);
            if (s.outputs.concat(s.chart).some((x) => /NaN|Infinity|undefined|null/.test(x))) problems.push(`${where}: NaN/Infinity shown`);
            if ((bad === '1e400' || bad === '1e300') && norm(s.error) !== ui['error.too_large'][lang].replace('{field}', label)) problems.push(`${where}: not reported as too large (${s.error})`);
          }
          await input.fill(original);
          const ok = await state(page, kind, id);
          if (ok.error !== '') problems.push(`${kind}.${id}: error not cleared after restoring ${original}`);
        }
      }
      assert.deepEqual(problems, []);
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });
}

test('bad cells and mismatched sizes in the multiply-by-hand grid', async () => {
  const { page, context, errors } = await openPage(env.browser, `${env.site.url}index.html?lang=es`, { allowedOrigin: env.site.url });
  try {
    const calc = page.locator('roofline-calculator[kind="byhand"]');
    const cell = calc.locator('input.cell[aria-label="A fila 1, columna 1"]');
    // in a learner's words: the matrix named once, and what to write instead
    const notANumber = 'Matriz A: escribe un número en cada casilla, como 15 o 0.5.';
    const tooLarge = 'Matriz A: ese número es demasiado grande. Escribe uno más chico.';
    for (const [bad, message] of [['abc', notANumber], ['', notANumber], ['NaN', notANumber], ['Infinity', tooLarge], ['1e400', tooLarge]]) {
      await cell.fill(bad);
      assert.equal(await cell.inputValue(), bad);
      assert.equal(await cell.getAttribute('aria-invalid'), 'true');
      assert.equal(norm(await calc.locator('.byhand-message').textContent()), message, bad);
      assert.deepEqual(await calc.locator('.c-value').allTextContents(), ['—', '—', '—', '—']);
    }
    // a product too large to show names C, not a cell of A
    await cell.fill('1e300');
    await calc.locator('input.cell[aria-label="B fila 1, columna 1"]').fill('1e300');
    assert.equal(norm(await calc.locator('.byhand-message').textContent()), 'C saldría demasiado grande para mostrarla. Usa números más chicos en A y B.');
    await calc.locator('input.cell[aria-label="B fila 1, columna 1"]').fill('50');
    await cell.fill('2');
    assert.deepEqual(await calc.locator('.c-value').allTextContents(), ['265', '650', '80', '300']);
    // remove a row of B: 3 columns of A against 2 rows of B
    await calc.locator('button[data-action="b-removeRow"]').click();
    assert.equal(norm(await calc.locator('.byhand-message').textContent()),
      'Así no se pueden multiplicar: A tiene 3 columnas y B tiene 2 filas. Las dimensiones de adentro tienen que ser iguales.');
    await calc.locator('button[data-action="a-removeCol"]').click();
    assert.equal(await calc.locator('.byhand-message').isHidden(), true);
    assert.deepEqual(await calc.locator('.c-value').allTextContents(), ['220', '500', '50', '200']);
    // grow to the 6 × 6 limit
    for (let i = 0; i < 6; i += 1) await calc.locator('button[data-action="a-addRow"]').click({ force: true }).catch(() => {});
    assert.equal(await calc.locator('input.cell-a').count(), 12);
    assert.equal(await calc.locator('button[data-action="a-addRow"]').isDisabled(), true);
    await calc.locator('button[data-action="reset"]').click();
    assert.deepEqual(await calc.locator('.c-value').allTextContents(), ['265', '650', '80', '300']);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});
