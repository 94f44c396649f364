// The author's journey (issue "The page as its users use it"): a light-only documentation page
// (it declares color-scheme: light) with two preset calculators in a 600 px column, under the
// strict CSP, read by someone whose system is dark. The calculators follow the page, not the
// system (theme="auto", the default); theme="dark" and theme="light" pin them either way. A page
// that declares nothing is drawn on the browser's white canvas whatever the reader's setting, so
// its calculators are light; a page that adapts (color-scheme: light dark, its own dark
// background) gets them dark for a dark reader; and a site that switches itself between light
// and dark (VitePress's class="dark" on <html>) recolours them at once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { journeyEndShots, launch, openPage, serve, shotPath, SITE_DIR } from '../helpers.mjs';

const LIGHT_BG = 'rgb(255, 255, 255)';
const DARK_BG = 'rgb(21, 24, 29)';

function hostPage(declared) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Docs</title>
<link rel="icon" href="favicon.svg"><link rel="stylesheet" href="docs.css">
<script src="roofline-calculator.js" defer></script></head><body><main>
<h1>Sizing a decode server</h1>
<p>How fast can Llama 3 8B decode on one RTX 4090?</p>
<roofline-calculator id="auto" kind="decode" model="llama3-8b" format="int4" gpu="rtx-4090" values="batch=32" eager></roofline-calculator>
<roofline-calculator id="pinned" kind="roofline" gpu="h100-sxm" theme="dark" eager></roofline-calculator>
</main></body></html>`.replace('docs.css', declared ? 'docs-light.css' : 'docs-plain.css');
}

test('on a light-only documentation page a reader in dark mode gets light calculators; theme pins either way', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'roofline-author-'));
  for (const f of ['roofline-calculator.js', 'roofline.js', 'favicon.svg']) copyFileSync(join(SITE_DIR, f), join(dir, f));
  writeFileSync(join(dir, 'docs-light.css'), ':root { color-scheme: light; background: #fff; color: #222; } main { max-width: 600px; margin: 0 auto; }\n');
  writeFileSync(join(dir, 'docs-plain.css'), 'main { max-width: 600px; margin: 0 auto; }\n');
  writeFileSync(join(dir, 'docs-adaptive.css'), ':root { color-scheme: light dark; } main { max-width: 600px; margin: 0 auto; }\n'
    + '@media (prefers-color-scheme: dark) { body { background: #1b1b1f; color: #ddd; } }\n'
    + 'html.light { color-scheme: light; } html.light body { background: #fff; color: #222; }\n');
  writeFileSync(join(dir, 'light.html'), hostPage(true));
  writeFileSync(join(dir, 'plain.html'), hostPage(false));
  writeFileSync(join(dir, 'adaptive.html'), hostPage(false).replace('docs-plain.css', 'docs-adaptive.css'));
  const site = await serve(dir);
  const browser = await launch();
  const background = (page, id) => page.evaluate((x) => getComputedStyle(document.getElementById(x).shadowRoot.querySelector('.calc')).backgroundColor, id);
  try {
    // the light-only site, the reader's system dark
    let { page, context, errors } = await openPage(browser, `${site.url}light.html`, { allowedOrigin: site.url, colorScheme: 'dark', viewport: { width: 1000, height: 900 } });
    assert.equal(await background(page, 'auto'), LIGHT_BG, 'auto follows the page that declares itself light');
    assert.equal(await background(page, 'pinned'), DARK_BG, 'theme="dark" is dark on a light page');
    // the author pins the first one light, then back to auto: it follows at once, nothing rebuilt
    await page.evaluate(() => document.getElementById('pinned').setAttribute('theme', 'light'));
    assert.equal(await background(page, 'pinned'), LIGHT_BG);
    // readable in the 600 px column: nothing wider than the element
    const overflow = await page.evaluate(() => {
      const el = document.getElementById('auto');
      return el.shadowRoot.querySelector('.calc').scrollWidth - el.clientWidth;
    });
    assert.ok(overflow <= 1, `the calculator overflows its 600 px column by ${overflow} px`);
    // in a 600 and a 760 px column: the selects show their whole choice (the GPU select clipped
    // "RTX 409" at 760), and no result's "how" wraps over six lines (eight and more at 760)
    for (const width of [600, 760]) {
      const seen = await page.evaluate((w) => {
        document.querySelector('main').style.maxWidth = `${w}px`;
        const root = document.getElementById('auto').shadowRoot;
        const canvas = document.createElement('canvas').getContext('2d');
        const clipped = [...root.querySelectorAll('select')].filter((sel) => {
          const cs = getComputedStyle(sel);
          canvas.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
          const room = sel.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 16; // the arrow
          return canvas.measureText(sel.options[sel.selectedIndex].text).width > room;
        }).map((sel) => sel.name);
        const lines = [...root.querySelectorAll('.work td.how')].map((td) => {
          const range = document.createRange();
          range.selectNodeContents(td);
          return Math.round(range.getBoundingClientRect().height / parseFloat(getComputedStyle(td).lineHeight));
        });
        const cells = [...root.querySelectorAll(".work td.how")].map((td, i) => [lines[i], td.textContent.slice(0, 60)]);
        return { clipped, most: Math.max(...lines), width: document.getElementById("auto").clientWidth, cells };
      }, width);
      assert.equal(seen.width, width);
      assert.deepEqual(seen.clipped, [], `${width} px: selects that clip their choice`);
      assert.ok(seen.most <= 6, `${width} px: a result's "how" wraps over ${seen.most} lines: ${JSON.stringify(seen.cells)}`);
    }
    await page.evaluate(() => { document.querySelector('main').style.maxWidth = '600px'; });
    await page.locator('#auto').screenshot({ path: shotPath('journey-author-light-page-dark-reader.png') });
    // (the host declares itself light: both schemes of the reader show the same light page)
    await journeyEndShots(page, page.locator('#auto'), 'author');
    assert.deepEqual(errors, []);
    await context.close();
    // a page that declares nothing: white whatever the reader's setting, and so its calculators
    ({ page, context, errors } = await openPage(browser, `${site.url}plain.html`, { allowedOrigin: site.url, colorScheme: 'dark' }));
    assert.equal(await page.evaluate(() => getComputedStyle(document.documentElement).colorScheme), 'normal');
    assert.equal(await background(page, 'auto'), LIGHT_BG, 'a page that declares nothing is white for a dark reader too: light calculators');
    await context.close();
    // a page that adapts to the reader: dark for a dark reader
    ({ page, context, errors } = await openPage(browser, `${site.url}adaptive.html`, { allowedOrigin: site.url, colorScheme: 'dark' }));
    assert.equal(await background(page, 'auto'), DARK_BG, 'a page that turns dark for a dark reader gets dark calculators');
    // a site with its own switch (VitePress: class="dark" on <html>): the calculators follow it
    await page.evaluate(() => document.documentElement.classList.add('light'));
    await page.waitForTimeout(50);
    assert.equal(await background(page, 'auto'), LIGHT_BG, 'the site switched to light');
    assert.equal(await background(page, 'pinned'), DARK_BG, 'theme="dark" stays dark');
    await page.evaluate(() => document.documentElement.classList.remove('light'));
    await page.waitForTimeout(50);
    assert.equal(await background(page, 'auto'), DARK_BG, 'and back to dark');
    assert.deepEqual(errors, []);
    await context.close();
    ({ page, context, errors } = await openPage(browser, `${site.url}plain.html`, { allowedOrigin: site.url, colorScheme: 'light' }));
    assert.equal(await background(page, 'auto'), LIGHT_BG);
    assert.equal(await background(page, 'pinned'), DARK_BG);
    await context.close();
  } finally {
    await browser.close();
    await site.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
