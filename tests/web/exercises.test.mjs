// The exercises and check questions on the page, in every language: answered right and wrong
// (with the mistake's hint), every solution opened, new numbers answered with the core's own
// answer, progress kept across a reload and cleared by "start over", the keyboard path, the
// single file from file:// offline, the embedded exercise under the strict CSP, and axe.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { openPage, until, norm, shotPath, SITE_DIR, ROOT, loadUi, useBrowserAndSite, renderAll } from './helpers.mjs';

const env = useBrowserAndSite();
const rl = await (await import(join(SITE_DIR, 'roofline.mjs'))).default();
const ui = loadUi();

const ex = (page, id) => page.locator(`[data-exercise="${id}"]`);
const q = (page, id) => page.locator(`[data-question="${id}"]`);
const state = (loc) => loc.getAttribute('data-state');

/** Types `value` into the answer of part `part` and picks its unit, if any. */
async function answer(box, part, value, unit) {
  await box.locator(`input[data-answer="${part}"]`).fill(value);
  const sel = box.locator(`select[data-unit="${part}"]`);
  if (unit && await sel.count()) await sel.selectOption(unit);
}

/** Checks: the handler runs synchronously in the click, so the page is updated when it returns. */
async function checkAndWait(box) {
  await box.locator('[data-check]').click();
}

const decimal = { en: (s) => s, es: (s) => s, pt: (s) => s.replace('.', ',') };

for (const lang of ['es', 'en', 'pt']) {
  test(`exercise 7 right (226) and wrong (204, with the exact-count hint); every solution opens (${lang})`, async () => {
    const { page, context, errors, foreign } = await openPage(env.browser, `${env.site.url}index.html?lang=${lang}`, { allowedOrigin: env.site.url });
    try {
      await page.evaluate(() => localStorage.clear());
      const e7 = ex(page, 7);
      await answer(e7, 'batch', '204');
      await checkAndWait(e7);
      assert.equal(await state(e7), 'incorrect');
      const hint = norm(await e7.locator('[data-hint="batch"]').textContent());
      assert.equal(hint, norm(ui['ex.hint.intensity_is_batch'][lang]));
      await answer(e7, 'batch', '226');
      await checkAndWait(e7);
      assert.equal(await state(e7), 'correct');
      assert.equal(norm(await e7.locator('[data-hint="batch"]').textContent()), norm(ui['ex.part.correct'][lang]));
      // every exercise: a first attempt opens the way to its step-by-step solution
      await renderAll(page);
      for (let id = 1; id <= 12; id += 1) {
        const box = ex(page, id);
        const sol = box.locator('[data-solution]');
        if (await sol.isDisabled()) await box.locator('[data-check]').click();
        await sol.click();
        const text = norm(await box.locator('.solution').innerText());
        assert.ok(text.length > 40, `exercise ${id} has a solution`);
        assert.doesNotMatch(text, /\{|NaN|Infinity|undefined|—/, `exercise ${id}: ${text.slice(0, 200)}`);
        assert.equal(await sol.getAttribute('aria-expanded'), 'true');
      }
      // the check questions: answered, each shows its explanation
      for (let id = 1; id <= 7; id += 1) {
        const box = q(page, id);
        const inst = rl.question({ id });
        for (const p of inst.parts) {
          if (p.kind === 'choice') await box.locator(`input[data-answer="${p.id}"][value="${p.expectedChoice}"]`).check();
          else await answer(box, p.id, decimal[lang](String(Number(p.expected.toPrecision(3)))), 'one');
        }
        await box.locator('[data-check]').click();
        await until(page, (i) => {
          const el = [...document.querySelectorAll('roofline-calculator[kind="question"]')].map((c) => c.shadowRoot.querySelector(`[data-question="${i}"]`)).find(Boolean);
          return el && el.dataset.state;
        }, id);
        assert.equal(await state(box), 'correct', `question ${id}`);
        const expl = norm(await box.locator('.solution').innerText());
        assert.ok(expl.length > 30 && !/\{|NaN/.test(expl), `question ${id} explains: ${expl.slice(0, 120)}`);
      }
      const body = await page.evaluate(() => [...document.querySelectorAll('roofline-calculator')].map((c) => c.shadowRoot.textContent).join(' '));
      assert.doesNotMatch(body, /\{[A-Za-z0-9_.]+\}/);
      assert.deepEqual(foreign, []);
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });
}

test('every mistake hint shows for its mistaken value (es)', async () => {
  const { page, context } = await openPage(env.browser, `${env.site.url}index.html?lang=es`, { allowedOrigin: env.site.url });
  try {
    // exercise 3: MACs typed as FLOPs; FLOPs over the FP32 peak
    const e3 = ex(page, 3);
    const i3 = rl.exercise({ id: 3 });
    const mistake = (inst, part, id) => inst.parts.find((p) => p.id === part).mistakes.find((m) => m.id === id).value;
    await answer(e3, 'flops', String(mistake(i3, 'flops', 'macs_for_flops')), 'one');
    await answer(e3, 'seconds', String(mistake(i3, 'seconds', 'other_precision')), 'one');
    await checkAndWait(e3);
    assert.equal(norm(await e3.locator('[data-hint="flops"]').textContent()), norm(ui['ex.hint.macs_for_flops'].es));
    assert.equal(norm(await e3.locator('[data-hint="seconds"]').textContent()), norm(ui['ex.hint.other_precision'].es));
    // exercise 5: 6 MiB written as MB
    const e5 = ex(page, 5);
    await answer(e5, 'bytes', '6', 'mega');
    await checkAndWait(e5);
    assert.equal(norm(await e5.locator('[data-hint="bytes"]').textContent()), norm(ui['ex.hint.gib_for_gb'].es));
    // exercise 2: FLOPs given for MACs
    const e2 = ex(page, 2);
    await answer(e2, 'macs', '16');
    await checkAndWait(e2);
    assert.equal(norm(await e2.locator('[data-hint="macs"]').textContent()), norm(ui['ex.hint.flops_for_macs'].es));
    // exercise 6, drawn until INT4 weights with a kept share: weights without it
    let seed = 1;
    for (; seed < 400; seed += 1) {
      if (rl.exercise({ id: 6, seed }).parts.some((p) => p.mistakes.some((m) => m.id === 'no_kept_share'))) break;
    }
    const i6 = rl.exercise({ id: 6, seed });
    const p6 = i6.parts.find((p) => p.mistakes.some((m) => m.id === 'no_kept_share'));
    await page.evaluate(([s]) => {
      const host = document.querySelector('roofline-calculator[kind="exercise"][exercise="6"]');
      host.practice.useSeed(s);
    }, [seed]);
    await answer(ex(page, 6), p6.id, String(p6.mistakes.find((m) => m.id === 'no_kept_share').value));
    await checkAndWait(ex(page, 6));
    assert.equal(norm(await ex(page, 6).locator(`[data-hint="${p6.id}"]`).textContent()), norm(ui['ex.hint.no_kept_share'].es));
    // a wrong number that matches no mistake gets the generic nudge of its kind
    await answer(ex(page, 7), 'batch', '300');
    await checkAndWait(ex(page, 7));
    assert.equal(norm(await ex(page, 7).locator('[data-hint="batch"]').textContent()), norm(ui['ex.nudge.count'].es));
  } finally {
    await context.close();
  }
});

test('the serving levers: exercise 11 capped at γ (2.00) gets its hint in Spanish and 2.44 is right; exercise 12 without the latency gets its hint in Portuguese and 1.29 ms is right', async () => {
  const hint = async (box, part) => norm(await box.locator(`[data-hint="${part}"]`).textContent());
  for (const [lang, check] of [['es', 'ex11'], ['pt', 'ex12']]) {
    const { page, context, errors } = await openPage(env.browser, `${env.site.url}index.html?lang=${lang}`, { allowedOrigin: env.site.url });
    try {
      await page.evaluate(() => localStorage.clear());
      await renderAll(page);
      if (check === 'ex11') {
        const e11 = ex(page, 11);
        // the statement names the models and the GPU in the reader's language, with α and γ
        const statement = norm(await e11.locator('.statement').first().textContent());
        assert.match(statement, /Llama 3\.2 1B .* γ = 2 tokens.* Llama 3 8B .* α = 0\.8\b/);
        assert.equal(await e11.locator('.level').textContent(), ui['ex.level.challenge'].es);
        await answer(e11, 'expectedTokens', '2.00');
        await checkAndWait(e11);
        assert.equal(await state(e11), 'incorrect');
        assert.equal(await hint(e11, 'expectedTokens'), norm(ui['ex.hint.capped_gamma'].es));
        await answer(e11, 'expectedTokens', '2.44');
        await checkAndWait(e11);
        assert.equal(await state(e11), 'partial');
        assert.equal(await hint(e11, 'expectedTokens'), norm(ui['ex.part.correct'].es));
        // the draft taken as free: its own hint; the core's speed-up: right
        await answer(e11, 'speedup', '2.44');
        await checkAndWait(e11);
        assert.equal(await hint(e11, 'speedup'), norm(ui['ex.hint.draft_free'].es));
        await e11.locator('[data-solution]').click();
        assert.match(norm(await e11.locator('.solution').innerText()), /≈ 2\.44 tokens por verificación/);
      } else {
        const e12 = ex(page, 12);
        assert.match(norm(await e12.locator('.statement').first().textContent()), /8 GPUs NVIDIA H100 SXM.* NVLink 4: 450 GB\/s/);
        // 160 × 28,672 B ÷ 450 GB/s ≈ 10.2 µs: the bytes without the latency
        await answer(e12, 'communicationSeconds', '10,2', 'micro');
        await checkAndWait(e12);
        assert.equal(await state(e12), 'incorrect');
        assert.equal(await hint(e12, 'communicationSeconds'), norm(ui['ex.hint.bandwidth_only'].pt));
        await answer(e12, 'communicationSeconds', '1,29', 'milli');
        await answer(e12, 'allReduces', '160');
        await checkAndWait(e12);
        assert.equal(await state(e12), 'partial');
        assert.equal(await hint(e12, 'communicationSeconds'), norm(ui['ex.part.correct'].pt));
        assert.equal(await hint(e12, 'allReduces'), norm(ui['ex.part.correct'].pt));
      }
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  }
});

test('new numbers are answered with the core\'s answer; progress survives a reload; start over clears it', async () => {
  const { page, context, errors } = await openPage(env.browser, `${env.site.url}index.html?lang=pt`, { allowedOrigin: env.site.url });
  try {
    await page.evaluate(() => localStorage.clear());
    const e4 = ex(page, 4);
    const lessonStatement = await e4.locator('.statement').first().textContent();
    await e4.locator('[data-new]').click();
    const seed = await page.evaluate(() => JSON.parse(localStorage.getItem('roofline-lab.progress.v1'))['exercise.4'].seed);
    assert.ok(seed > 0);
    assert.notEqual(await e4.locator('.statement').first().textContent(), lessonStatement, 'new numbers, new statement');
    const inst = rl.exercise({ id: 4, seed });
    for (const p of inst.parts) {
      const v = p.kind === 'fraction' ? p.expected * 100 : p.expected;
      await answer(e4, p.id, String(v).replace('.', ','), p.kind === 'fraction' ? 'percent' : 'one');
    }
    await checkAndWait(e4);
    assert.equal(await state(e4), 'correct');
    // one more, answered: the progress line counts two
    await answer(ex(page, 7), 'batch', '226');
    await checkAndWait(ex(page, 7));
    await page.reload();
    await until(page, () => document.querySelector('roofline-calculator[kind="exercise"][exercise="4"]')?.shadowRoot?.querySelector('[data-exercise]'));
    assert.equal(await state(ex(page, 4)), 'correct');
    assert.equal(await state(ex(page, 7)), 'correct');
    assert.equal(await ex(page, 7).locator('input[data-answer="batch"]').inputValue(), '226', 'what was typed is kept');
    assert.match(norm(await page.locator('#exercises .progress').textContent()), /^2\b/);
    // "start over" asks first, saying what it would erase, with "keep it" focused: keeping changes nothing
    await page.locator('[data-reset]').click();
    assert.match(norm(await page.locator('#exercises .reset-confirm').textContent()), /^Apagar o que você resolveu \(2 exercícios\)\?/);
    assert.equal(await page.evaluate(() => document.activeElement && document.activeElement.hasAttribute('data-reset-keep')), true);
    await page.keyboard.press('Enter');
    assert.equal(await state(ex(page, 7)), 'correct', 'kept');
    assert.match(norm(await page.locator('#exercises .progress').textContent()), /^2\b/);
    // asked again and confirmed: cleared
    await page.locator('[data-reset]').click();
    await page.locator('[data-reset-confirm]').click();
    await until(page, () => !document.querySelector('roofline-calculator[kind="exercise"][exercise="7"]').shadowRoot.querySelector('[data-exercise]').dataset.state);
    assert.equal(await ex(page, 7).locator('input[data-answer="batch"]').inputValue(), '');
    assert.match(norm(await page.locator('#exercises .progress').textContent()), /^0\b/);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('the keyboard path: Tab to an answer, type, Enter checks; the solution button is reachable', async () => {
  const { page, context } = await openPage(env.browser, `${env.site.url}index.html?lang=en#exercise-7`, { allowedOrigin: env.site.url });
  try {
    await page.evaluate(() => localStorage.clear());
    await page.locator('[data-exercise="7"] input[data-answer="batch"]').focus();
    await page.keyboard.type('226');
    await page.keyboard.press('Enter');
    await until(page, () => document.querySelector('roofline-calculator[exercise="7"]').shadowRoot.querySelector('[data-exercise]').dataset.state === 'correct');
    // Tab moves through check, new numbers, then the (now enabled) solution toggle
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => document.querySelector('roofline-calculator[exercise="7"]').shadowRoot.activeElement?.hasAttribute('data-solution'));
    assert.ok(focused, 'the solution toggle takes the focus');
    await page.keyboard.press('Enter');
    assert.equal(await page.locator('[data-exercise="7"] [data-solution]').getAttribute('aria-expanded'), 'true');
  } finally {
    await context.close();
  }
});

for (const lang of ['es', 'en', 'pt']) {
  test(`the single file from file:// offline: exercise 7 checked wrong (with its hint) and right, and its progress kept on reload (${lang})`, async () => {
    const url = pathToFileURL(join(SITE_DIR, 'roofline-lab.html')).href;
    const { page, context, foreign, errors } = await openPage(env.browser, `${url}?lang=${lang}`, { allowedOrigin: 'file:' });
    try {
      await answer(ex(page, 7), 'batch', '204');
      await checkAndWait(ex(page, 7));
      assert.equal(await state(ex(page, 7)), 'incorrect');
      assert.equal(norm(await ex(page, 7).locator('[data-hint="batch"]').textContent()), norm(ui['ex.hint.intensity_is_batch'][lang]));
      await answer(ex(page, 7), 'batch', '226');
      await checkAndWait(ex(page, 7));
      assert.equal(await state(ex(page, 7)), 'correct');
      await page.reload();
      await until(page, () => document.querySelector('roofline-calculator[exercise="7"]')?.shadowRoot?.querySelector('[data-exercise]'));
      assert.equal(await state(ex(page, 7)), 'correct');
      assert.deepEqual(foreign, []);
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });
}

test('the embedded exercise works under the strict CSP', async () => {
  const { page, context, errors, foreign } = await openPage(env.browser, `${env.site.url}embed-example.html`, { allowedOrigin: env.site.url });
  try {
    await answer(ex(page, 7), 'batch', '204');
    await checkAndWait(ex(page, 7));
    assert.equal(await state(ex(page, 7)), 'incorrect');
    assert.equal(norm(await ex(page, 7).locator('[data-hint="batch"]').textContent()), norm(ui['ex.hint.intensity_is_batch'].es));
    assert.deepEqual(foreign, []);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('axe finds no violations in the exercises (light and dark); screenshots in es, desktop and phone', async () => {
  for (const scheme of ['light', 'dark']) {
    const { page, context } = await openPage(env.browser, `${env.site.url}index.html?lang=es`, { allowedOrigin: env.site.url, colorScheme: scheme, bypassCSP: true });
    try {
      await page.evaluate(() => localStorage.clear());
      // some feedback showing: one right, one mistaken, one solution open
      await answer(ex(page, 7), 'batch', '204');
      await checkAndWait(ex(page, 7));
      await ex(page, 7).locator('[data-solution]').click();
      await answer(ex(page, 3), 'macs', '6422528');
      await checkAndWait(ex(page, 3));
      await page.addScriptTag({ path: join(ROOT, 'tests/node_modules/axe-core/axe.min.js') });
      const result = await page.evaluate(async () => {
        // eslint-disable-next-line no-undef
        const r = await axe.run(document, { resultTypes: ['violations'] });
        return r.violations.map((v) => `${v.id}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
      });
      assert.deepEqual(result, [], `axe violations (${scheme})`);
      await page.locator('#exercises').screenshot({ path: shotPath(`exercises-es-${scheme}.png`) });
      await page.setViewportSize({ width: 390, height: 844 });
      await ex(page, 7).scrollIntoViewIfNeeded();
      await page.screenshot({ path: shotPath(`exercises-es-phone-${scheme}.png`) });
    } finally {
      await context.close();
    }
  }
});
