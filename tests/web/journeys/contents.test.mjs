// Every contents link lands its section's heading at the top of the screen (within 50 px), in
// Spanish, English and Portuguese, on a phone and a desktop, served and as the single file from
// file://. Each link is clicked on a freshly opened page as soon as the contents show, as a reader
// does: the calculators above the target are still being built and the sections there are held at
// the height a skipped section gets (content-visibility), which is where a jump used to land short
// (Spanish: up to 5,700 px before "Preguntas de chequeo"). Every link in Spanish, the lesson's
// language (desktop served, phone single file); the four deepest-reaching ones elsewhere.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { LANGS, SITE_DIR, until, useBrowserAndSite } from '../helpers.mjs';

const env = useBrowserAndSite();
const VIEWPORTS = { phone: { width: 390, height: 844 }, desktop: { width: 1366, height: 900 } };

/** Where the heading of the section `id` is once the page is built and it has stopped moving. */
async function settledTop(page, id) {
  // every section and every calculator built (what moved the target after the jump)
  await until(page, () => {
    const lab = document.getElementById('lab');
    const els = [...document.querySelectorAll('roofline-calculator')];
    return lab && lab.dataset.rendered === 'all' && els.length > 0
      && els.every((el) => el.shadowRoot && el.shadowRoot.querySelector('.calc, .practice, .form-error'));
  }, null, { timeout: 30000 });
  let last = null;
  let still = 0;
  const end = Date.now() + 4000;
  while (Date.now() < end) {
    const top = await page.evaluate((x) => {
      const s = document.getElementById(x);
      return Math.round((s.querySelector('h2') || s).getBoundingClientRect().top);
    }, id);
    still = top === last ? still + 1 : 0;
    last = top;
    if (still >= 5) break;
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r())));
  }
  return last;
}

const DEEP = ['step', 'clocks', 'check', 'bench'];
const CASES = [];
for (const lang of LANGS) {
  for (const device of Object.keys(VIEWPORTS)) {
    for (const where of ['served', 'single file']) {
      const all = lang === 'es' && ((device === 'desktop' && where === 'served') || (device === 'phone' && where === 'single file'));
      CASES.push({ lang, device, where, all });
    }
  }
}

for (const { lang, device, where, all } of CASES) {
  test(`contents links land on their headings (${lang}, ${device}, ${where}${all ? ', every link' : ''})`, { timeout: 240000 }, async () => {
    const url = where === 'served'
      ? `${env.site.url}index.html?lang=${lang}`
      : `${pathToFileURL(join(SITE_DIR, 'roofline-lab.html')).href}?lang=${lang}`;
    const context = await env.browser.newContext({ viewport: VIEWPORTS[device], locale: lang });
    const errors = [];
    try {
      const page = await context.newPage();
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(url);
      const ids = all ? await page.locator('nav.toc a').evaluateAll((as) => as.map((a) => a.getAttribute('href').slice(1))) : DEEP;
      assert.ok(ids.length >= (all ? 18 : 4), `${ids.length} contents links`);
      const off = [];
      for (const id of ids) {
        await page.goto(url);
        const link = page.locator(`nav.toc a[href="#${id}"]`);
        await link.waitFor({ state: 'visible' });
        await link.click();
        const top = await settledTop(page, id);
        if (!(Math.abs(top) <= 50)) off.push(`#${id}: ${top} px`);
      }
      assert.deepEqual(off, [], 'headings more than 50 px from the top after their contents link');
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });
}
