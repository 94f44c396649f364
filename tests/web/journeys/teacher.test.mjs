// The teacher's journey (issue "The page as its users use it"): the single file copied onto a
// classroom machine and opened from disk in Portuguese, with every request but file:// refused.
// Two exercises done as a student does them (click the answer, type, choose the unit, press
// "check"), one typed with a dot for the decimal mark as a keyboard may give it ("0.198" µs: it
// was read as 198 and marked wrong with a hint about division), one with a Portuguese thousands
// group ("5.000"); both marked right on screen. The same page's calculators read the same way.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { field, journeyEndShots, norm, openPage, rows, shotPath, SITE_DIR, loadUi, useBrowserAndSite } from '../helpers.mjs';

const env = useBrowserAndSite();
const ui = loadUi();

/** As a student: click the answer, replace what is there, type; choose the unit where asked. */
async function answer(box, part, text, unitLabel) {
  const input = box.locator(`input[data-answer="${part}"]`);
  await input.scrollIntoViewIfNeeded();
  await input.click();
  await input.press('ControlOrMeta+a');
  await input.pressSequentially(text);
  if (unitLabel) await box.locator(`select[data-unit="${part}"]`).selectOption({ label: unitLabel });
}

for (const viewport of [{ width: 390, height: 844 }, { width: 1366, height: 900 }]) {
  test(`the teacher: the single file from disk, offline, in Portuguese; two exercises right, one with a dot decimal (${viewport.width} px)`, { timeout: 120000 }, async () => {
    const url = `${pathToFileURL(join(SITE_DIR, 'roofline-lab.html')).href}?lang=pt`;
    const { page, context, foreign, errors } = await openPage(env.browser, url, { allowedOrigin: 'file:', viewport, locale: 'pt-BR' });
    try {
      await context.setOffline(true);
      await page.evaluate(() => localStorage.clear());
      // exercise 3: the floor time of 12,845,056 FLOPs, answered as 0.198 µs with a dot
      const e3 = page.locator('[data-exercise="3"]');
      await answer(e3, 'macs', '6422528');
      await answer(e3, 'flops', '12845056');
      await answer(e3, 'seconds', '0.198', 'µs');
      await e3.locator('[data-check]').click();
      assert.equal(norm(await e3.locator('[data-hint="seconds"]').textContent()), norm(ui['ex.part.correct'].pt), 'a dot decimal is read as a decimal');
      assert.equal(await e3.getAttribute('data-state'), 'correct');
      // exercise 4: the ceiling, 5.000 items per second, with the Portuguese thousands group
      const e4 = page.locator('[data-exercise="4"]');
      await answer(e4, 'seconds', '0,2', 'ms');
      await answer(e4, 'ceiling', '5.000');
      await answer(e4, 'utilization', '18'); // (a percentage, as the exercise asks)
      await e4.locator('[data-check]').click();
      assert.equal(norm(await e4.locator('[data-hint="ceiling"]').textContent()), norm(ui['ex.part.correct'].pt), '5.000 is five thousand in Portuguese');
      assert.equal(await e4.getAttribute('data-state'), 'correct');
      assert.match(norm(await page.locator('.practice-bar .progress').first().textContent()), /2/);
      await e4.screenshot({ path: shotPath(`journey-teacher-pt-${viewport.width}.png`) });
      // a calculator on the same page reads "1,07" and "1.07" alike, and says how it read "5.000"
      const decode = page.locator('roofline-calculator[kind="decode"]');
      await decode.scrollIntoViewIfNeeded();
      await field(page, 'decode', 'batch').fill('4');
      await field(page, 'decode', 'kv').fill('1.07');
      assert.equal((await rows(page, 'decode')).total, '59');
      await field(page, 'decode', 'kv').fill('1,07');
      assert.equal((await rows(page, 'decode')).total, '59');
      await field(page, 'decode', 'tokens').fill('5.000');
      assert.equal(norm(await decode.locator('[data-field="tokens"] .reading').textContent()), 'lido como 5.000');
      if (viewport.width === 390) await journeyEndShots(page, e4, 'teacher');
      assert.deepEqual(foreign, []);
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });
}
