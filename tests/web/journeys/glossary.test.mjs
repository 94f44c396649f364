// A reader at a calculator asks what a term means: the definition opens in place (the screen does
// not move, the calculator's results stay where they were), by tap or by keyboard. Its whole
// glossary card is one link further, lands at the top of the screen, and both the card's own
// "back" button and the browser's Back return the reader to the term, open, in view and focused
// (before: a term jumped ~21,000 px down, and Back landed ~1,000 px off with the focus left at the
// page's end). Spanish on a phone, English on a desktop.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { journeyEndShots, openPage, until, useBrowserAndSite } from '../helpers.mjs';

const env = useBrowserAndSite();

/** The tip's summary: where it is on screen, and whether it is open and has the focus. */
async function tipState(page) {
  return page.evaluate(() => {
    const host = document.querySelector('roofline-calculator[kind="decode"]');
    const tip = host.shadowRoot.querySelector('details.term-tip');
    const summary = tip.querySelector('summary');
    const r = summary.getBoundingClientRect();
    const def = tip.querySelector('p').getBoundingClientRect();
    return {
      top: Math.round(r.top), bottom: Math.round(r.bottom), height: Math.round(r.height), open: tip.open,
      focused: document.activeElement === host && host.shadowRoot.activeElement === summary,
      definitionShown: def.height > 0 && def.top >= 0 && def.bottom <= innerHeight,
      scrollY: Math.round(scrollY),
    };
  });
}

async function settle(page) {
  let last = null;
  for (let still = 0, i = 0; still < 5 && i < 200; i += 1) {
    const y = await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r(Math.round(scrollY)))));
    still = y === last ? still + 1 : 0;
    last = y;
  }
}

for (const { lang, viewport, back } of [
  { lang: 'es', viewport: { width: 390, height: 844 }, back: 'button' },
  { lang: 'en', viewport: { width: 1366, height: 900 }, back: 'browser' },
]) {
  test(`a calculator's term opens in place, its card is one link away, and Back returns to it (${lang}, ${viewport.width} px, ${back} back)`, { timeout: 120000 }, async () => {
    // (the whole page built: nothing above the calculator grows while the reader reads)
    const { page, context, foreign, errors } = await openPage(env.browser, `${env.site.url}index.html?lang=${lang}`,
      { allowedOrigin: env.site.url, viewport, locale: lang, readyTimeout: 30000 });
    try {
      const calc = page.locator('roofline-calculator[kind="decode"]');
      const tips = calc.locator('details.term-tip');
      const term = await tips.first().getAttribute('data-term');
      const tip = tips.first();
      const summary = tip.locator('summary');
      await summary.scrollIntoViewIfNeeded();
      await settle(page);
      const before = await tipState(page);
      assert.ok(before.height >= 24, `the term's target is ${before.height} px tall`);
      assert.equal(before.open, false);

      // open in place, by tap; the screen does not move
      await summary.click();
      await settle(page);
      const opened = await tipState(page);
      assert.equal(opened.open, true);
      assert.ok(opened.definitionShown, 'the definition shows on screen under the term');
      assert.ok(Math.abs(opened.scrollY - before.scrollY) <= 2, `the page scrolled ${opened.scrollY - before.scrollY} px`);
      // and closed and opened again from the keyboard
      await summary.focus();
      await page.keyboard.press('Enter');
      assert.equal((await tipState(page)).open, false, 'Enter closes it');
      await page.keyboard.press('Enter');
      assert.equal((await tipState(page)).open, true, 'Enter opens it');

      // the whole card: one link further, its heading at the top
      const cardLink = tip.locator('a.term');
      const linkBox = await cardLink.boundingBox();
      assert.ok(linkBox.height >= 24, `the card link is ${linkBox.height} px tall`);
      await cardLink.click();
      assert.equal(await page.evaluate(() => location.hash), `#glossary-${term}`);
      await settle(page);
      const cardTop = await page.evaluate((id) => Math.round(document.getElementById(`glossary-${id}`).getBoundingClientRect().top), term);
      assert.ok(Math.abs(cardTop) <= 50, `the card's top is ${cardTop} px from the screen's`);
      const backButton = page.locator(`#glossary-${term} .glossary-back button`);
      assert.ok(await backButton.isVisible(), 'the card offers the way back');
      const name = await tip.getAttribute('data-term-name');
      assert.ok((await backButton.textContent()).includes(name), 'the button names the term');

      // back: to the term, open, in view, focused
      if (back === 'button') await backButton.click();
      else await page.goBack();
      await until(page, () => !location.hash.startsWith('#glossary-'));
      await settle(page);
      const returned = await tipState(page);
      assert.ok(returned.top >= 0 && returned.bottom <= viewport.height, `the term is at ${returned.top} px on a ${viewport.height} px screen`);
      assert.equal(returned.open, true);
      assert.equal(returned.focused, true, 'the focus is on the term');
      assert.equal(await page.locator('.glossary-back').count(), 0, 'the way back is gone once used');
      if (lang === 'es') await journeyEndShots(page, tip, 'glossary-es');
      assert.deepEqual(errors, []);
      assert.deepEqual(foreign, []);
    } finally {
      await context.close();
    }
  });
}
