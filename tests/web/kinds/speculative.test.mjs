// "Speculative decoding" (kind="speculative") as a learner uses it, in Spanish, English and
// Portuguese: the lesson's Llama 3 8B on an L4 checks the guesses of Llama 3.2 1B. At α = 0.8 and
// γ = 2 a verification yields 2.44 tokens (the target's own token included, not a sum capped at
// 2.00). What the page shows (the rows, the speed-up's data-speedup, the chart's curves and its
// table, the reader's point on the α = 0.8 curve) is rl.speculative's, computed here through the
// module. The learner types, drags the sliders, chooses models and a GPU, and uses the keyboard;
// bad input is refused in the reader's language and kept as typed; axe finds nothing, light and
// dark, on a phone and a desktop; the calculator works embedded alone from file:// with presets.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expectSoon, field, frames, loadUi, norm, openPage, renderAll, ROOT, rows, select, shotPath, SITE_DIR, typeInto, useBrowserAndSite } from '../helpers.mjs';

const env = useBrowserAndSite();
const rl = await (await import(join(SITE_DIR, 'roofline.mjs'))).default();
const { format } = await import(join(ROOT, 'web/src/format.js'));
const ui = loadUi();
const KIND = 'speculative';
const HOST = `roofline-calculator[kind="${KIND}"]`;
// the curves the chart draws, and the reach of γ
const ALPHAS = [0.6, 0.7, 0.8, 0.9];
const GAMMAS = Array.from({ length: 16 }, (_, i) => i + 1);
const lesson = rl.lessonCase({ id: 'llama-l4-decode' }).values;
const CONTEXT = rl.caseArgs({ id: 'four-conversations', function: 'kvCacheBytes' }).tokens;
const OPENS = { model: lesson.model, format: lesson.format, draft: 'llama3.2-1b', gpu: lesson.gpu, batch: lesson.batch, tokens: CONTEXT, alpha: 0.8, gamma: 4 };

/** rl.speculative for the calculator's inputs (its defaults, changed by `p`). */
function spec(p = {}) {
  const x = { ...OPENS, ...p };
  const dtype = rl.formats().find((f) => f.id === x.format).computeDtype;
  const dev = rl.device({ gpu: x.gpu, dtype });
  return rl.speculative({
    model: x.model, format: x.format, draft: x.draft, tokens: x.tokens, batch: x.batch,
    bytesPerSecond: dev.bytesPerSecond, peakFlopsPerSecond: dev.peakFlopsPerSecond, gamma: x.gamma, acceptance: x.alpha,
  });
}

const fmt = (lang) => (x, kind) => norm(format(x, kind, lang));
const fill = (text, vars) => Object.entries(vars).reduce((s, [k, v]) => s.replaceAll(`{${k}}`, v), text);

/** What the calculator shows: its rows, data-speedup, the chart's table and its drawing. */
async function shown(page) {
  const r = await rows(page, KIND);
  const drawn = await page.evaluate((host) => {
    const root = document.querySelector(host).shadowRoot;
    const out = root.querySelector('output[data-row="speedup"]');
    const table = [...root.querySelectorAll('details.chart-data tbody tr')].map((tr) => [...tr.cells].map((c) => c.textContent));
    const curves = [...root.querySelectorAll('svg.chart polyline.alpha')].map((p) => p.getAttribute('points').split(' ').map((xy) => xy.split(',').map(Number)));
    const you = root.querySelector('svg.chart .marker.you circle');
    const text = root.querySelector('.calc').innerText;
    return {
      speedup: out.getAttribute('data-speedup'), table, curves, you: you ? [Number(you.getAttribute('cx')), Number(you.getAttribute('cy'))] : null,
      empty: root.querySelector('.chart-empty') ? root.querySelector('.chart-empty').textContent : null, nan: /NaN|undefined|Infinity/.test(text),
      note: root.querySelector('.chart-note') ? root.querySelector('.chart-note').textContent : null,
    };
  }, HOST);
  return { rows: r, ...drawn };
}

/**
 * Asserts that the calculator agrees with rl.speculative for inputs `p`: the rows, data-speedup,
 * the chart's table (every α and γ), its curves drawn on one log scale through those numbers, and
 * the reader's point on the α = 0.8 curve where α is 0.8.
 */
async function agrees(page, lang, p, what) {
  const f = fmt(lang);
  const r = spec(p);
  const want = {
    expected: f(r.expectedTokens, 'number'), cycle: f(r.cycleSeconds, 'seconds'), rate: f(r.tokensPerSecondPerSequence, 'number'),
    plain: f(r.plainTokensPerSecondPerSequence, 'number'), speedup: f(r.speedup, 'ratio'), data: r.speedup.toFixed(4),
  };
  await expectSoon(async () => {
    const s = await shown(page);
    return { expected: s.rows.expected, cycle: s.rows.cycle, rate: s.rows.rate, plain: s.rows.plain, speedup: s.rows.speedup, data: s.speedup };
  }, want, `${what}: the rows and data-speedup`);
  const curves = ALPHAS.map((alpha) => GAMMAS.map((gamma) => spec({ ...p, alpha, gamma }).speedup));
  const table = GAMMAS.map((g, i) => [f(g, 'integer'), ...curves.map((c) => f(c[i], 'ratio'))]);
  await expectSoon(async () => (await shown(page)).table, table, `${what}: the chart's table`);
  await frames(page);
  const s = await shown(page);
  assert.equal(s.nan, false, `${what}: NaN on screen`);
  assert.equal(s.curves.length, ALPHAS.length, `${what}: one curve per α`);
  // x: γ on a log scale; y: the speed-up on a log scale, the same line through every point
  const [x1, y1] = s.curves[0][0];
  const [x16, y16] = s.curves[0][15];
  const perLog = (y16 - y1) / (Math.log(curves[0][15]) - Math.log(curves[0][0]));
  s.curves.forEach((pts, a) => pts.forEach(([x, y], i) => {
    assert.ok(Math.abs(x - (x1 + ((x16 - x1) * Math.log(GAMMAS[i])) / Math.log(16))) < 0.11, `${what}: α ${ALPHAS[a]}, γ ${GAMMAS[i]} at x ${x}`);
    assert.ok(Math.abs(y - (y1 + perLog * (Math.log(curves[a][i]) - Math.log(curves[0][0])))) < 0.11, `${what}: α ${ALPHAS[a]}, γ ${GAMMAS[i]} at y ${y}`);
  }));
  const gamma = p.gamma ?? OPENS.gamma;
  if ((p.alpha ?? OPENS.alpha) === 0.8 && gamma <= 16) {
    const [px, py] = s.curves[2][gamma - 1];
    assert.ok(s.you && Math.abs(s.you[0] - px) < 0.11 && Math.abs(s.you[1] - py) < 0.11, `${what}: the reader's point ${s.you} on the α = 0.8 curve at ${px},${py}`);
  }
  return { r, s };
}

test('speculative (es, strict CSP): α = 0.8 and γ = 2 yield 2.44 tokens; a bigger draft; bad input refused and kept as typed', async () => {
  const lang = 'es';
  const f = fmt(lang);
  const { page, context, errors, foreign } = await openPage(env.browser, `${env.site.url}index.html?lang=${lang}#speculative`, { allowedOrigin: env.site.url });
  try {
    const calc = page.locator(HOST);
    await calc.scrollIntoViewIfNeeded();
    // as it opens: the lesson's model and card, Llama 3.2 1B drafting, α 0.8 and γ 4
    assert.equal(await select(page, KIND, 'model').inputValue(), 'llama3-8b');
    assert.equal(await select(page, KIND, 'draft').inputValue(), 'llama3.2-1b');
    assert.equal(await select(page, KIND, 'gpu').inputValue(), 'l4');
    await agrees(page, lang, {}, 'as it opens');
    // the learner types γ = 2: a verification yields 2.44 tokens, not 2.00
    await typeInto(page, KIND, 'alpha', '0.8');
    await typeInto(page, KIND, 'gamma', '2');
    const { r } = await agrees(page, lang, { gamma: 2 }, 'γ = 2');
    assert.equal(r.expectedTokens.toFixed(2), '2.44');
    assert.equal((await rows(page, KIND)).expected, '2.44');
    assert.equal(norm(await calc.locator('tr:has(output[data-row="expected"]) td.how').textContent()), '(1 − 0.8³) ÷ (1 − 0.8)');
    // the summary says it in words
    const summary = fill(ui['speculative.summary.faster'][lang], {
      alpha: '0.8', gamma: '2', tokens: '2.44', rate: f(r.tokensPerSecondPerSequence, 'number'), speedup: f(r.speedup, 'ratio'), plain: f(r.plainTokensPerSecondPerSequence, 'number'),
    });
    assert.equal(norm(await calc.locator('p.summary').textContent()), norm(summary));
    assert.equal((await rows(page, KIND)).breakEven, f(r.breakEvenAcceptance, 'number'));
    // a bigger draft: Llama 3.2 3B guesses at the same α, and each of its steps reads more
    await select(page, KIND, 'draft').selectOption('llama3.2-3b');
    const bigger = await agrees(page, lang, { gamma: 2, draft: 'llama3.2-3b' }, 'Llama 3.2 3B drafting');
    assert.ok(bigger.r.speedup < r.speedup, 'a bigger draft costs more of the cycle');
    // bad input: refused in Spanish beside the field, what was typed kept, the chart waits
    const before = await rows(page, KIND);
    for (const [typed, code] of [['1.5', 'out_of_range'], ['-0.5', 'negative'], ['abc', 'not_a_number'], ['', 'missing_field']]) {
      if (typed) await typeInto(page, KIND, 'alpha', typed);
      else await field(page, KIND, 'alpha').fill('');
      const want = code === 'out_of_range'
        ? fill(ui['error.out_of_range.between'][lang], { field: ui['speculative.field.alpha'][lang], min: '0', max: '1', why: '' })
        : fill(ui[`error.${code}`][lang], { field: ui['speculative.field.alpha'][lang] });
      await expectSoon(async () => norm(await calc.locator('[data-field="alpha"] .error').textContent()), norm(want), `α "${typed}"`);
      assert.equal(await field(page, KIND, 'alpha').inputValue(), typed, 'what was typed stays');
      const s = await shown(page);
      assert.equal(s.rows.speedup, '—');
      assert.equal(s.speedup, null, 'no data-speedup without a result');
      assert.equal(s.nan, false);
      await frames(page);
      assert.equal(norm((await shown(page)).empty), norm(ui['chart.unavailable'][lang]));
    }
    await typeInto(page, KIND, 'alpha', '0.8');
    await expectSoon(() => rows(page, KIND), before, 'α 0.8 again');
    assert.deepEqual(errors, []);
    assert.deepEqual(foreign, []);
  } finally {
    await context.close();
  }
});

test('speculative (en, file://): α dragged to 1 keeps every guess; an H100 at batch 64 turns the verification compute-bound', async () => {
  const lang = 'en';
  const url = `${pathToFileURL(join(SITE_DIR, 'roofline-lab.html')).href}?lang=${lang}#speculative`;
  const { page, context, errors, foreign } = await openPage(env.browser, url, { allowedOrigin: 'file:' });
  try {
    const calc = page.locator(HOST);
    await calc.scrollIntoViewIfNeeded();
    await agrees(page, lang, {}, 'as it opens');
    // dragging α's slider to its right end: every draft token kept, γ + 1 tokens per verification
    const slider = calc.locator('[data-field="alpha"] input[type="range"]');
    const box = await slider.boundingBox();
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width + 40, box.y + box.height / 2, { steps: 6 });
    await page.mouse.up();
    assert.equal(await field(page, KIND, 'alpha').inputValue(), '1');
    const { r } = await agrees(page, lang, { alpha: 1 }, 'α = 1');
    assert.equal(r.expectedTokens, 5);
    assert.equal(norm(await calc.locator('tr:has(output[data-row="expected"]) td.how').textContent()), norm(fill(ui['speculative.how.expectedAll'][lang], { gamma: '4' })));
    // an H100 with a batch of 64 and no KV cache: from some γ on the verification is compute-bound
    await typeInto(page, KIND, 'alpha', '0.6');
    await select(page, KIND, 'gpu').selectOption('h100-sxm');
    await typeInto(page, KIND, 'batch', '64');
    await typeInto(page, KIND, 'tokens', '0');
    const p = { alpha: 0.6, gpu: 'h100-sxm', batch: 64, tokens: 0 };
    await agrees(page, lang, p, 'H100, batch 64');
    const first = GAMMAS.find((g) => spec({ ...p, gamma: g }).verifyBound === 'compute');
    assert.ok(first > 1 && first < 16, `compute-bound from γ = ${first}`);
    const note = `${ui['chart.speculative.why'][lang]} ${fill(ui['chart.speculative.whyCompute'][lang], { gamma: String(first), batch: '64' })}`;
    await expectSoon(async () => norm((await shown(page)).note), norm(note), 'why the curves flatten');
    // the verification row says its roof
    await typeInto(page, KIND, 'gamma', String(first));
    await expectSoon(async () => norm(await calc.locator('tr:has(output[data-row="verify"]) td.how').textContent()).endsWith('· compute-bound'), true, 'compute-bound');
    await agrees(page, lang, { ...p, gamma: first }, `H100, batch 64, γ = ${first}`);
    assert.deepEqual(errors, []);
    assert.deepEqual(foreign, []);
  } finally {
    await context.close();
  }
});

test('speculative (pt): another target brings its format; a draft as big as the target never pays', async () => {
  const lang = 'pt';
  const f = fmt(lang);
  const { page, context, errors, foreign } = await openPage(env.browser, `${env.site.url}index.html?lang=${lang}#speculative`, { allowedOrigin: env.site.url });
  try {
    const calc = page.locator(HOST);
    await calc.scrollIntoViewIfNeeded();
    await typeInto(page, KIND, 'gamma', '2');
    await expectSoon(async () => (await rows(page, KIND)).expected, '2,44', 'γ = 2 in Portuguese');
    // GPT-OSS 20B comes in its own format (INT4), and the L4 computes it at that precision
    await select(page, KIND, 'model').selectOption('gpt-oss-20b');
    const own = rl.models().find((m) => m.id === 'gpt-oss-20b').format;
    assert.equal(await select(page, KIND, 'format').inputValue(), own);
    await agrees(page, lang, { gamma: 2, model: 'gpt-oss-20b', format: own }, 'GPT-OSS 20B');
    // the draft is the target itself: each guess costs as much as the step it saves
    await select(page, KIND, 'model').selectOption('llama3-8b');
    await select(page, KIND, 'draft').selectOption('llama3-8b');
    const { r } = await agrees(page, lang, { gamma: 2, draft: 'llama3-8b' }, 'Llama 3 8B drafting for itself');
    assert.ok(r.speedup < 1);
    const summary = fill(ui['speculative.summary.slower'][lang], {
      alpha: '0,8', gamma: '2', tokens: '2,44', rate: f(r.tokensPerSecondPerSequence, 'number'), speedup: f(r.speedup, 'ratio'), plain: f(r.plainTokensPerSecondPerSequence, 'number'),
    });
    assert.equal(norm(await calc.locator('p.summary').textContent()), norm(summary));
    assert.deepEqual(errors, []);
    assert.deepEqual(foreign, []);
  } finally {
    await context.close();
  }
});

test('speculative: Tab reaches the γ slider and the arrow keys move γ one draft token at a time', async () => {
  const { page, context, errors } = await openPage(env.browser, `${env.site.url}index.html?lang=en#speculative`, { allowedOrigin: env.site.url });
  try {
    await field(page, KIND, 'gamma').focus();
    await page.keyboard.press('Tab');
    const focused = () => page.evaluate((host) => {
      const el = document.querySelector(host).shadowRoot.activeElement;
      return el ? `${el.type}:${el.getAttribute('aria-label')}` : null;
    }, HOST);
    assert.equal(await focused(), `range:${ui['speculative.field.gamma'].en}`);
    const steps = [['ArrowRight', 5], ['ArrowLeft', 4], ['ArrowLeft', 3], ['Home', 1], ['End', 16]];
    for (const [key, gamma] of steps) {
      await page.keyboard.press(key);
      assert.equal(await field(page, KIND, 'gamma').inputValue(), String(gamma), `${key}`);
      await expectSoon(async () => (await rows(page, KIND)).expected, fmt('en')(spec({ gamma }).expectedTokens, 'number'), `${key}: γ = ${gamma}`);
    }
    await agrees(page, 'en', { gamma: 16 }, 'γ = 16 from the keyboard');
    // α's slider moves in hundredths
    await field(page, KIND, 'alpha').focus();
    await page.keyboard.press('Tab');
    await page.keyboard.press('ArrowLeft');
    assert.equal(await field(page, KIND, 'alpha').inputValue(), '0.79');
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('speculative: axe finds nothing, light and dark, on a phone and a desktop; nothing overflows; screenshots', async () => {
  for (const colorScheme of ['light', 'dark']) {
    for (const viewport of [{ width: 390, height: 844 }, { width: 1366, height: 900 }]) {
      const { page, context, errors } = await openPage(env.browser, `${env.site.url}index.html?lang=es#speculative`, { allowedOrigin: env.site.url, colorScheme, viewport, bypassCSP: true });
      try {
        await renderAll(page);
        await page.locator(HOST).evaluate((host) => host.shadowRoot.querySelectorAll('details').forEach((d) => { d.open = true; }));
        await page.addScriptTag({ path: join(ROOT, 'tests/node_modules/axe-core/axe.min.js') });
        const violations = await page.evaluate(async () => {
          // eslint-disable-next-line no-undef
          const res = await axe.run({ include: [['#speculative']] }, { resultTypes: ['violations'] });
          return res.violations.map((v) => `${v.id}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
        });
        assert.deepEqual(violations, [], `${colorScheme} ${viewport.width}`);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        assert.ok(overflow <= 0, `${colorScheme} ${viewport.width}: the page scrolls sideways by ${overflow} px`);
        // the chart fits the calculator's box
        const fits = await page.locator(HOST).evaluate((host) => {
          const calc = host.shadowRoot.querySelector('.calc').getBoundingClientRect();
          const svg = host.shadowRoot.querySelector('svg.chart').getBoundingClientRect();
          return svg.left >= calc.left - 0.5 && svg.right <= calc.right + 0.5 && svg.width > 0.8 * (calc.width - 40);
        });
        assert.ok(fits, `${colorScheme} ${viewport.width}: the chart within the calculator`);
        assert.equal((await shown(page)).nan, false);
        await page.locator('#speculative').screenshot({ path: shotPath(`speculative-es-${viewport.width}-${colorScheme}.png`) });
        assert.deepEqual(errors, []);
      } finally {
        await context.close();
      }
    }
  }
});

test('speculative embedded alone from file://, with presets: a Llama 3.1 8B on an H100 at α 0.7, γ 6, batch 8; its snippet carries data-speedup', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'roofline-speculative-'));
  try {
    for (const name of ['roofline-calculator.js', 'roofline.js']) copyFileSync(join(SITE_DIR, name), join(dir, name));
    writeFileSync(join(dir, 'alone.html'), `<!doctype html><html lang="pt"><head><meta charset="utf-8"><title>Especulação</title>
<script src="roofline-calculator.js" defer></script></head><body><h1>Decodificação especulativa</h1>
<roofline-calculator kind="speculative" lang="pt" model="llama3.1-8b" gpu="h100-sxm" values="alpha=0.7 gamma=6 batch=8 tokens=0" eager></roofline-calculator>
</body></html>`);
    const { page, context, errors, foreign } = await openPage(env.browser, pathToFileURL(join(dir, 'alone.html')).href, { allowedOrigin: 'file:' });
    try {
      assert.equal(await select(page, KIND, 'model').inputValue(), 'llama3.1-8b');
      assert.equal(await select(page, KIND, 'gpu').inputValue(), 'h100-sxm');
      assert.equal(await page.locator(`${HOST} .preset-error`).count(), 0, 'every preset taken');
      const own = rl.models().find((m) => m.id === 'llama3.1-8b').format;
      await agrees(page, 'pt', { model: 'llama3.1-8b', format: own, gpu: 'h100-sxm', alpha: 0.7, gamma: 6, batch: 8, tokens: 0 }, 'embedded with presets');
      assert.deepEqual(errors, []);
      assert.deepEqual(foreign, []);
    } finally {
      await context.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  // the prerendered snippet shows the defaults' speed-up before its script runs
  for (const lang of ['es', 'en', 'pt']) {
    const html = readFileSync(join(SITE_DIR, 'snippets', `speculative.${lang}.html`), 'utf8');
    assert.ok(html.includes(`data-speedup="${spec().speedup.toFixed(4)}"`), `snippets/speculative.${lang}.html holds data-speedup`);
    assert.ok(html.includes(`kind="${KIND}"`));
  }
});

test('speculative (es): DeepSeek-V3 drafts with its own MTP module; a target without one says so instead of a result', async () => {
  const { page, context, errors, foreign } = await openPage(env.browser, `${env.site.url}index.html?lang=es`, { allowedOrigin: env.site.url });
  try {
    await page.locator(HOST).scrollIntoViewIfNeeded();
    await select(page, KIND, 'model').selectOption('deepseek-v3');
    await select(page, KIND, 'gpu').selectOption('h200');
    await select(page, KIND, 'draft').selectOption('mtp');
    await typeInto(page, KIND, 'gamma', '1');
    await typeInto(page, KIND, 'alpha', '0.85');
    const p = { model: 'deepseek-v3', format: 'fp8', draft: 'mtp', gpu: 'h200', gamma: 1, alpha: 0.85 };
    const r = spec(p);
    // one draft step reads the module (≈ 1.61 GB in FP8), a verification the experts 2 tokens touch
    assert.ok(Math.abs(r.draftWeightBytes - 1.61e9) < 0.02e9, String(r.draftWeightBytes));
    assert.ok(r.verifyWeightBytes > 1.4 * r.weightBytes);
    await agrees(page, 'es', p, 'DeepSeek-V3 with its MTP module');
    const title = await page.evaluate((host) => document.querySelector(host).shadowRoot.querySelector('svg.chart title').textContent, HOST);
    assert.match(title, new RegExp(ui['speculative.draft.mtpShort'].es));
    // Llama 3 8B has no such module: the calculator says so, and shows no speed-up
    await select(page, KIND, 'model').selectOption('llama3-8b');
    const said = ui['speculative.noMtp'].es.replace('{model}', 'Llama 3 8B');
    const text = () => page.evaluate((host) => document.querySelector(host).shadowRoot.querySelector('.calc').innerText, HOST);
    await expectSoon(async () => norm(await text()).includes(norm(said)), true, 'the missing module, said');
    await expectSoon(async () => (await shown(page)).speedup, null, 'no data-speedup without a result');
    assert.deepEqual(errors, []);
    assert.deepEqual(foreign, []);
  } finally {
    await context.close();
  }
});
