// On a phone (390 × 844, Spanish), what a change does is in view while the reader types: in every
// calculator, a value typed into its first field (as a person does: scroll to it, click, type)
// leaves the calculator's summary on screen, showing the new result. The decode calculator is
// five screens tall there, and its summary was 677 px below the batch field.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KINDS, norm, openPage, shotPath, useBrowserAndSite } from '../helpers.mjs';
import { CHANGES } from '../../perf/page.mjs';

const env = useBrowserAndSite();
const PHONE = { width: 390, height: 844 };

test('on a phone, every calculator keeps its summary on screen while its first field is typed into (es)', { timeout: 180000 }, async () => {
  const { page, context, errors } = await openPage(env.browser, `${env.site.url}index.html?lang=es`, { allowedOrigin: env.site.url, viewport: PHONE });
  try {
    const hidden = [];
    for (const kind of KINDS) {
      const spec = CHANGES[kind];
      const calc = page.locator(`roofline-calculator[kind="${kind}"]`);
      const input = spec.cell
        ? calc.locator(`input.cell-${spec.cell}`).first()
        : calc.locator(`[data-field="${spec.field}"] input[type="text"]`);
      const summary = calc.locator('p.summary');
      await input.scrollIntoViewIfNeeded();
      // by hand's summary states the multiplication's size: its products are what a cell changes
      const shown = kind === 'byhand' ? calc.locator('.bh-grid') : summary;
      const before = norm(await shown.textContent());
      await input.click();
      await input.press('ControlOrMeta+a');
      await input.pressSequentially(spec.values[0] === (await input.inputValue()) ? spec.values[1] : spec.values[0]);
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      const box = await summary.boundingBox();
      const after = norm(await shown.textContent());
      const inView = box && box.y >= -1 && box.y + box.height <= PHONE.height + 1 && box.height > 0;
      if (!inView) hidden.push(`${kind}: summary at ${box ? Math.round(box.y) : 'nowhere'} px`);
      if (after === before) hidden.push(`${kind}: what it shows did not change`);
      if (kind === 'decode') await page.screenshot({ path: shotPath('journey-phone-decode-typing-es.png') });
    }
    assert.deepEqual(hidden, []);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('on a phone, "multiply by hand" fits its box: A, B and C of the lesson\'s example all on screen (es, pt)', async () => {
  for (const lang of ['es', 'pt']) {
    const { page, context, errors } = await openPage(env.browser, `${env.site.url}index.html?lang=${lang}`, { allowedOrigin: env.site.url, viewport: PHONE });
    try {
      const calc = page.locator('roofline-calculator[kind="byhand"]');
      await calc.scrollIntoViewIfNeeded();
      const fit = await calc.evaluate((host) => {
        const box = host.shadowRoot.querySelector('.byhand');
        const right = box.getBoundingClientRect().right;
        const out = [...host.shadowRoot.querySelectorAll('input.cell, .c-cell')].filter((x) => x.getBoundingClientRect().right > right + 0.5);
        return { scroll: box.scrollWidth, width: box.clientWidth, out: out.length };
      });
      assert.ok(fit.scroll <= fit.width + 1, `${lang}: the grid is ${fit.scroll} px wide in a ${fit.width} px box`);
      assert.equal(fit.out, 0, `${lang}: cells past the right edge`);
      // C's values read on screen: the lesson's 265, 650, 80, 300
      assert.deepEqual(await calc.locator('.c-value').allTextContents(), ['265', '650', '80', '300']);
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  }
});
