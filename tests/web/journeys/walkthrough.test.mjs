// The walkthroughs of the two diagrams ("what limits you", "what moves where") on a phone, as a
// reader taps through them: after every tap on "next" or "previous", every box the step
// highlights is on screen, above the step's text and buttons, and the button tapped is still
// there to tap again (before: a step highlighted boxes above the screen and left them there).
// Spanish, 390 × 844, light and dark.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, shotPath, useBrowserAndSite } from '../helpers.mjs';

const env = useBrowserAndSite();
const PHONE = { width: 390, height: 844 };

/** Where the highlighted boxes and the step's bar are on screen, and the focused button's label. */
function layout(sectionId) {
  const fig = document.querySelector(`#${sectionId} figure.diagram`);
  const boxes = [...fig.querySelectorAll('.node.active')].map((b) => b.getBoundingClientRect());
  const bar = fig.querySelector('.tour-step').getBoundingClientRect();
  const nav = [...fig.querySelectorAll('.step-nav button')].map((b) => {
    const r = b.getBoundingClientRect();
    return { top: r.top, bottom: r.bottom, disabled: b.disabled, focused: document.activeElement === b };
  });
  return {
    boxes: boxes.map((r) => ({ top: Math.round(r.top), bottom: Math.round(r.bottom) })),
    barTop: Math.round(bar.top), nav, height: innerHeight,
  };
}

for (const [sectionId, colorScheme] of [['limits', 'light'], ['flow', 'dark']]) {
  test(`the ${sectionId} walkthrough keeps its highlighted boxes on a phone's screen, step by step (es, ${colorScheme})`, { timeout: 90000 }, async () => {
    const { page, context, foreign, errors } = await openPage(env.browser, `${env.site.url}index.html?lang=es`,
      { allowedOrigin: env.site.url, viewport: PHONE, locale: 'es', colorScheme, touch: true, readyTimeout: 30000 });
    try {
      // the first button is "your numbers", the others the walkthroughs
      const tours = page.locator(`#${sectionId} .tour-btn`);
      const count = (await tours.count()) - 1;
      assert.ok(count >= 3, `${count} walkthroughs`);
      const off = [];
      for (let i = 0; i < count; i += 1) {
        const tour = tours.nth(i + 1);
        await tour.scrollIntoViewIfNeeded();
        await tour.tap();
        const name = (await tour.textContent()).trim();
        assert.equal(await tour.getAttribute('aria-pressed'), 'true');
        const check = async (what) => {
          const l = await page.evaluate(layout, sectionId);
          const floor = Math.min(l.barTop, l.height);
          for (const b of l.boxes) {
            if (b.top < 0 || b.bottom > floor) off.push(`${name}, ${what}: a box at ${b.top}–${b.bottom} px, the screen's room ends at ${floor} px`);
          }
          for (const n of l.nav) {
            if (n.top < 0 || n.bottom > l.height) off.push(`${name}, ${what}: a step button at ${Math.round(n.top)} px`);
          }
          return l;
        };
        await check('step 1');
        // forward to the end, then back to the start, tapping as a reader does
        for (let step = 2; ; step += 1) {
          const next = page.locator(`#${sectionId} .step-nav button`).nth(1);
          if (await next.isDisabled()) break;
          await next.tap();
          const l = await check(`step ${step}`);
          assert.ok(l.nav.some((n) => n.focused), 'the focus stays on a step button');
        }
        for (;;) {
          const prev = page.locator(`#${sectionId} .step-nav button`).nth(0);
          if (await prev.isDisabled()) break;
          await prev.tap();
          await check('back');
        }
      }
      assert.deepEqual(off, []);
      await page.screenshot({ path: shotPath(`journey-walkthrough-${sectionId}-es-390-${colorScheme}.png`) });
      assert.deepEqual(errors, []);
      assert.deepEqual(foreign, []);
    } finally {
      await context.close();
    }
  });
}
