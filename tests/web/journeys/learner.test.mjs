// The learner's journey (issue "The page as its users use it"), in Spanish on a phone: reads the
// lesson's question and its answer right under it (numbers from the core), follows the answer's
// link to the decode calculator, tries the lesson's first example there and then the default
// that counts the KV cache, and follows the contents to the next calculator; all by clicking,
// typing and reading what is on screen.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { journeyEndShots, norm, openPage, shotPath, until, useBrowserAndSite } from '../helpers.mjs';

const env = useBrowserAndSite();
const PHONE = { width: 390, height: 844 };

const onScreen = async (locator) => {
  const box = await locator.boundingBox();
  return Boolean(box && box.y >= -1 && box.y + Math.min(box.height, 40) <= PHONE.height);
};

test('the learner (es, phone) finds the answer to the lesson\'s question under it, and tries it in the calculator it links to', async () => {
  const { page, context, errors, foreign } = await openPage(env.browser, `${env.site.url}index.html?lang=es`, { allowedOrigin: env.site.url, viewport: PHONE });
  try {
    // the question, and its answer in two sentences with the core's numbers
    assert.ok(await onScreen(page.locator('p.question')), 'the question is on the first screen');
    const answer = norm(await page.locator('p.answer').textContent());
    assert.match(answer, /^La respuesta: En esperar a la memoria: .* ocupan 16.1 GB\. Una L4 mueve 300 GB\/s, así que 300 GB\/s ÷ 16.1 GB ≈ 19 tokens por segundo, /);
    await page.locator('header').screenshot({ path: shotPath('journey-learner-question-es-phone.png') });
    // its link lands on the decode calculator's heading
    await page.locator('p.answer a').click();
    // once the page is built and the heading still (the page keeps the target at the top meanwhile)
    await until(page, () => {
      const lab = document.getElementById('lab');
      return lab && lab.dataset.rendered === 'all'
        && ![...document.querySelectorAll('roofline-calculator')].some((el) => el.hasAttribute('data-pending') || el.hasAttribute('data-loading'));
    }, null, { timeout: 30000 });
    const heading = page.locator('#decode h2');
    let top = null;
    for (let still = 0, last = null; still < 5; last = top) {
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r())));
      top = await heading.evaluate((h) => Math.round(h.getBoundingClientRect().top));
      still = top === last ? still + 1 : 0;
    }
    assert.ok(Math.abs(top) <= 50, `the decode section's heading at ${top} px`);
    // the lesson's first example, as the answer counts it: 18.7 tokens per second, KV cache left out
    const calc = page.locator('roofline-calculator[kind="decode"]');
    await calc.locator('select[name="kvSource"]').selectOption({ label: 'fuera, como en la lección' });
    const summary = calc.locator('p.summary');
    assert.ok(await onScreen(summary), 'the summary is on screen');
    assert.match(norm(await summary.textContent()), /^A lo mucho 18.7 tokens por segundo en total.*El KV cache queda fuera, como en el primer ejemplo de la lección; contando sus 1.07 GB por conversación \(8,192 tokens\), serían a lo mucho 17.5 tokens por segundo\.$/);
    // back to counting the cache, and four conversations typed in: the summary, on screen, follows
    await calc.locator('select[name="kvSource"]').selectOption({ label: 'contado del modelo' });
    const batch = calc.locator('[data-field="batch"] input[type="text"]');
    await batch.click();
    await batch.press('ControlOrMeta+a');
    await batch.pressSequentially('4');
    assert.ok(await onScreen(summary), 'the summary stays on screen while typing');
    assert.match(norm(await summary.textContent()), /^A lo mucho 59 tokens por segundo en total, 14.7 por conversación; cada paso tarda al menos 67.8 ms/);
    await page.screenshot({ path: shotPath('journey-learner-decode-es-phone.png') });
    await journeyEndShots(page, calc, 'learner');
    assert.deepEqual(foreign, []);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});
