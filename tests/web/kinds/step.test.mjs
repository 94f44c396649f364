// "Inside one step" (kind="step") in English, Spanish and Portuguese, served under the strict CSP
// and opened from file://: its table, its chart's points and its time bar are rl.step's operators
// for the inputs shown (read from data-seconds, data-share and data-operator); a longer context
// raises attention's share; plain attention moves more bytes than FlashAttention; the links from
// the decode calculator and the limits diagram carry the reader there; the keyboard reaches every
// input; axe finds nothing, light and dark; screenshots.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { LANGS, openPage, until, rows, expectRows, expectSoon, field, select, norm, frames, renderAll, shotPath, ROOT, SITE_DIR, useBrowserAndSite, loadUi } from '../helpers.mjs';

const env = useBrowserAndSite();
const rl = await (await import(join(SITE_DIR, 'roofline.mjs'))).default();
const ui = loadUi();
const { format } = await import(join(ROOT, 'web/src/format.js'));

/** What the calculator shows: its operators' rows, the chart's points and the bar's segments. */
function shown(page) {
  return page.evaluate(() => {
    const root = document.querySelector('roofline-calculator[kind="step"]').shadowRoot;
    const ops = [...root.querySelectorAll('table[data-step-table] tr[data-operator]')].map((tr) => ({
      id: tr.dataset.operator, seconds: Number(tr.dataset.seconds), bytes: Number(tr.dataset.bytes), flops: Number(tr.dataset.flops),
      group: tr.closest('tbody').dataset.group,
    }));
    const points = [...root.querySelectorAll('[data-chart="step"] svg .marker[data-operator]')].map((g) => g.dataset.operator);
    const bar = [...root.querySelectorAll('[data-chart="step-bar"] rect[data-operator]')].map((r) => [r.dataset.operator, Number(r.dataset.share)]);
    return { ops, points, bar };
  });
}

/** The inputs the calculator's selects and fields hold, as rl.step takes them. */
async function inputs(page) {
  const v = await page.evaluate(() => {
    const root = document.querySelector('roofline-calculator[kind="step"]').shadowRoot;
    const sel = Object.fromEntries([...root.querySelectorAll('select')].map((s) => [s.name, s.value]));
    return sel;
  });
  return v;
}

async function checkAgainstCore(page, args) {
  await frames(page);
  const want = rl.step(args);
  const got = await shown(page);
  assert.deepEqual(got.ops.map((o) => o.id).sort(), want.operators.map((o) => o.id).sort(), 'one row per operator');
  for (const o of want.operators) {
    const row = got.ops.find((x) => x.id === o.id);
    assert.equal(row.seconds, o.seconds, `${o.id}: data-seconds`);
    assert.equal(row.bytes, o.bytes, `${o.id}: data-bytes`);
    assert.equal(row.group, o.group, `${o.id}: its group`);
  }
  // the rows' floors add up to the step's floor
  const sum = got.ops.reduce((a, o) => a + o.seconds, 0);
  assert.ok(Math.abs(sum / want.totals.seconds - 1) < 1e-12, `${sum} vs ${want.totals.seconds}`);
  // a point for every operator with FLOPs and bytes, a bar segment for every operator
  assert.deepEqual(got.points.sort(), want.operators.filter((o) => o.flops > 0 && o.bytes > 0).map((o) => o.id).sort());
  assert.deepEqual(got.bar.map(([id]) => id).sort(), want.operators.map((o) => o.id).sort());
  for (const [id, share] of got.bar) assert.equal(share, want.operators.find((o) => o.id === id).share, `${id}: its share of the bar`);
  return want;
}

const URLS = {
  served: (lang, q = '') => `${env.site.url}index.html?lang=${lang}${q}#step`,
  file: (lang, q = '') => `${pathToFileURL(join(SITE_DIR, 'roofline-lab.html')).href}?lang=${lang}${q}#step`,
};

for (const [where, lang] of [['served', 'es'], ['served', 'en'], ['file', 'pt']]) {
  test(`the step calculator agrees with rl.step; context and FlashAttention move attention (${lang}, ${where === 'served' ? 'strict CSP' : 'file://'})`, async () => {
    const { page, context, errors, foreign } = await openPage(env.browser, URLS[where](lang), { allowedOrigin: where === 'file' ? 'file:' : env.site.url });
    try {
      // the defaults: the lesson's Llama 3 8B decoding on an L4 over 8,192 tokens, with FlashAttention
      const sel = await inputs(page);
      assert.deepEqual(sel, { model: 'llama3-8b', format: 'bf16', gpu: 'l4', precision: 'bf16', phase: 'decode', flash: 'on' });
      const base = { model: 'llama3-8b', format: 'bf16', gpu: 'l4', dtype: 'bf16', phase: 'decode', batch: 1, context: 8192, flashAttention: true };
      const first = await checkAgainstCore(page, base);
      const r = await rows(page, 'step');
      assert.equal(r.limit, lang === 'pt' ? '8.192' : '8,192');  // (Spanish groups digits with commas, as the lesson does)
      assert.match(norm(await page.evaluate(() => document.querySelector('roofline-calculator[kind="step"]').shadowRoot.querySelector('.calc-title').textContent)), new RegExp(ui['step.title'][lang].slice(0, 12)));
      // Llama 3.1 8B from 1k to 128k tokens: attention's share rises with the context
      await select(page, 'step', 'model').selectOption('llama3.1-8b');
      const shares = [];
      for (const ctx of [1024, 16384, 131072]) {
        await field(page, 'step', 'context').fill(String(ctx));
        const want = await checkAgainstCore(page, { ...base, model: 'llama3.1-8b', context: ctx });
        shares.push(want.totals.attentionShare);
        const pct = Number(norm((await rows(page, 'step')).attention).replace('%', '').replace(',', '.'));
        assert.ok(Math.abs(pct - 100 * want.totals.attentionShare) < 0.1, `${ctx}: ${pct} vs ${want.totals.attentionShare}`);
      }
      assert.ok(shares[0] < shares[1] && shares[1] < shares[2] && shares[2] > 0.5, `attention's share grows: ${shares}`);
      // plain attention writes the scores and reads them back: more bytes in attention's operators
      await field(page, 'step', 'batch').fill('8');
      await select(page, 'step', 'phase').selectOption('prefill');
      await field(page, 'step', 'context').fill('4096');
      const flash = await checkAgainstCore(page, { ...base, model: 'llama3.1-8b', phase: 'prefill', batch: 8, context: 4096 });
      await select(page, 'step', 'flash').selectOption('off');
      const plain = await checkAgainstCore(page, { ...base, model: 'llama3.1-8b', phase: 'prefill', batch: 8, context: 4096, flashAttention: false });
      const attnBytes = (w) => w.operators.filter((o) => o.id.startsWith('attn_')).reduce((a, o) => a + o.bytes, 0);
      const shownBytes = async () => (await shown(page)).ops.filter((o) => o.id.startsWith('attn_')).reduce((a, o) => a + o.bytes, 0);
      assert.equal(await shownBytes(), attnBytes(plain));
      assert.ok(attnBytes(plain) > 2 * attnBytes(flash), `${attnBytes(plain)} vs ${attnBytes(flash)}`);
      // an MoE: Mixtral's experts at batch 1
      await select(page, 'step', 'model').selectOption('mixtral-8x7b');
      await select(page, 'step', 'phase').selectOption('decode');
      await field(page, 'step', 'batch').fill('1');
      await field(page, 'step', 'context').fill('1024');
      await checkAgainstCore(page, { ...base, model: 'mixtral-8x7b', context: 1024, flashAttention: false });
      // a context past the model's limit: said next to the field, nothing else lost
      await field(page, 'step', 'context').fill('1000000');
      await frames(page);
      const err = await page.evaluate(() => document.querySelector('roofline-calculator[kind="step"]').shadowRoot.querySelector('[data-field="context"] .error')?.textContent || '');
      assert.ok(err.trim().length > 0, 'the context field says what is wrong');
      assert.equal(await field(page, 'step', 'context').inputValue(), '1000000');
      assert.equal((await rows(page, 'step')).floor, '—');
      assert.ok(first.totals.seconds > 0);
      assert.deepEqual(errors, []);
      assert.deepEqual(foreign, []);
    } finally {
      await context.close();
    }
  });
}

test('"open this step" under the decode calculator carries its model, device, batch and context to the step calculator', async () => {
  const { page, context, errors } = await openPage(env.browser, `${env.site.url}index.html?lang=en`, { allowedOrigin: env.site.url });
  try {
    await select(page, 'decode', 'model').selectOption('llama3.1-8b');
    await select(page, 'decode', 'gpu').selectOption('h100-sxm');
    await field(page, 'decode', 'batch').fill('16');
    await field(page, 'decode', 'tokens').fill('32768');
    await frames(page);
    const href = await until(page, () => {
      const a = document.querySelector('a[data-open-step="decode"]');
      return a && a.href.includes('step.batch=16') && a.href.includes('step.context=32768') ? a.href : null;
    });
    const u = new URL(href);
    assert.equal(u.hash, '#step');
    assert.equal(u.searchParams.get('step.model'), 'llama3.1-8b');
    assert.equal(u.searchParams.get('step.gpu'), 'h100-sxm');
    await page.goto(href);
    await until(page, () => document.getElementById('lab').dataset.rendered === 'all');
    await until(page, () => document.querySelector('roofline-calculator[kind="step"]')?.shadowRoot?.querySelector('table[data-step-table]'));
    const sel = await inputs(page);
    assert.equal(sel.model, 'llama3.1-8b');
    assert.equal(sel.gpu, 'h100-sxm');
    assert.equal(await field(page, 'step', 'batch').inputValue(), '16');
    await checkAgainstCore(page, { model: 'llama3.1-8b', format: 'bf16', gpu: 'h100-sxm', dtype: sel.precision, phase: 'decode', batch: 16, context: 32768, flashAttention: true });
    // the limits diagram links to the section too
    assert.equal(await page.evaluate(() => document.querySelector('#limits a[data-open-step="limits"]')?.getAttribute('href')), '#step');
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

/** What a calculator shows as text: its results, its tables, and its chart data tables opened. */
async function shownText(page, kind) {
  // opened as a reader opens them, with a click on the summary
  for (const summary of await page.locator(`roofline-calculator[kind="${kind}"] details.chart-data summary`).all()) {
    if (!(await summary.evaluate((x) => x.parentNode.open))) await summary.click();
  }
  await frames(page);
  return page.evaluate((k) => {
    const root = document.querySelector(`roofline-calculator[kind="${k}"]`).shadowRoot;
    return [...root.querySelectorAll('output[data-row], table')].map((x) => x.textContent.replace(/\s+/g, ' ').trim());
  }, kind);
}

// Its table's cells are rewritten only where their number changed: what the changes leave must
// read as a calculator built for the same inputs, its chart's data table included.
test('the step calculator after changes reads as one built afresh: results, operators, the chart\'s data table opened afterwards', async () => {
  const steps = [['context', '1024'], ['batch', '3'], ['context', '2048'], ['context', '100000'], ['context', '5000']];
  const built = (p) => until(p, () => document.querySelector('roofline-calculator[kind="step"]')?.shadowRoot?.querySelector('output[data-row]'));
  const { page, context, errors } = await openPage(env.browser, `${env.site.url}index.html?lang=en#calc-step`, { allowedOrigin: env.site.url });
  try {
    await built(page);
    for (const [id, value] of steps) {
      await field(page, 'step', id).fill(value);
      await frames(page);
    }
    const [lastId, lastValue] = steps[steps.length - 1];
    const changed = await shownText(page, 'step');
    assert.ok(changed.length >= 10, 'its results and tables were read');
    // the address carries the inputs (once the reader pauses): a page opened at it builds afresh
    const href = await until(page, ([id, v]) => (new URL(location.href).searchParams.get(`step.${id}`) === v ? location.href : null), [lastId, lastValue]);
    const fresh = await openPage(env.browser, href, { allowedOrigin: env.site.url });
    try {
      await built(fresh.page);
      await frames(fresh.page);
      assert.equal(await field(fresh.page, 'step', lastId).inputValue(), lastValue);
      assert.deepEqual(changed, await shownText(fresh.page, 'step'), 'what changes wrote is what a fresh build shows');
      assert.deepEqual(fresh.errors, []);
    } finally {
      await fresh.context.close();
    }
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

// Its numbers sit in fixed columns: before, a change of context could make a cell wrap and the
// table (and the whole page below it) jump by a row while the slider was dragged.
test('the step calculator\'s table of operators keeps its size while the context changes', async () => {
  for (const [lang, viewport] of [['en', { width: 1100, height: 900 }], ['es', { width: 1100, height: 900 }], ['pt', { width: 390, height: 844 }]]) {
    const { page, context, errors } = await openPage(env.browser, `${env.site.url}index.html?lang=${lang}#step`, { allowedOrigin: env.site.url, viewport });
    try {
      await until(page, () => document.querySelector('roofline-calculator[kind="step"]')?.shadowRoot?.querySelector('table[data-step-table]'));
      const heights = [];
      for (const ctx of ['1', '16', '300', '1024', '4096', '8192']) {
        await field(page, 'step', 'context').fill(ctx);
        await frames(page);
        heights.push(await page.evaluate(() => {
          const host = document.querySelector('roofline-calculator[kind="step"]');
          return [host.getBoundingClientRect().height, host.shadowRoot.querySelector('table[data-step-table]').getBoundingClientRect().height];
        }));
      }
      assert.ok(heights.every(([, t]) => t === heights[0][1]), `${lang} ${viewport.width}: the table's heights ${JSON.stringify(heights)}`);
      // from the lesson's conversation to the model's limit the whole calculator keeps its size
      // (below, the summary's sentence may take a line more or less)
      assert.ok(heights.slice(3).every(([h]) => h === heights[3][0]), `${lang} ${viewport.width}: the calculator's heights ${JSON.stringify(heights)}`);
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  }
});

test('the step calculator: the keyboard reaches every input; axe finds nothing, light and dark; screenshots', async () => {
  for (const colorScheme of ['light', 'dark']) {
    for (const viewport of [{ width: 1100, height: 900 }, { width: 390, height: 844 }]) {
      const { page, context } = await openPage(env.browser, `${env.site.url}index.html?lang=es#step`, { allowedOrigin: env.site.url, colorScheme, viewport, bypassCSP: true });
      try {
        await renderAll(page);
        if (colorScheme === 'light' && viewport.width > 1000) {
          // Tab from the model select walks through every select and field of the calculator
          await select(page, 'step', 'model').focus();
          const seen = [];
          for (let i = 0; i < 14; i += 1) {
            seen.push(await page.evaluate(() => {
              const el = document.querySelector('roofline-calculator[kind="step"]').shadowRoot.activeElement;
              return el ? (el.name || el.getAttribute('aria-label') || el.localName) : null;
            }));
            await page.keyboard.press('Tab');
          }
          for (const name of ['model', 'format', 'gpu', 'precision', 'phase', 'flash']) assert.ok(seen.includes(name), `${name} in ${seen}`);
          assert.ok(seen.filter((x) => x === 'input' || (x && /batch|context/i.test(x))).length >= 2, `the fields in ${seen}`);
        }
        await page.addScriptTag({ path: join(ROOT, 'tests/node_modules/axe-core/axe.min.js') });
        const violations = await page.evaluate(async () => {
          // eslint-disable-next-line no-undef
          const res = await axe.run({ include: [['#step']] }, { resultTypes: ['violations'] });
          return res.violations.map((v) => `${v.id}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
        });
        assert.deepEqual(violations, [], `${colorScheme} ${viewport.width}`);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        assert.ok(overflow <= 0, `${colorScheme} ${viewport.width}: the page scrolls sideways by ${overflow} px`);
        await page.locator('#step').screenshot({ path: shotPath(`step-es-${viewport.width}-${colorScheme}.png`) });
      } finally {
        await context.close();
      }
    }
  }
});

for (const [where, lang] of [['served', 'es'], ['file', 'pt']]) {
  test(`measured references: a published run beside the ceiling in the decode and step calculators, or the catalog's range where none matches (${lang}, ${where === 'served' ? 'strict CSP' : 'file://'})`, async () => {
    const { page, context, errors, foreign } = await openPage(env.browser, URLS[where](lang), { allowedOrigin: where === 'file' ? 'file:' : env.site.url });
    try {
      const all = rl.measurements();
      const run = all.find((m) => m.gpu === 'rtx-4090');
      assert.ok(run && run.fractionOfCeiling < 1);
      // the lesson's L4 has none: the row says so, with the range of the catalog's runs
      const none = norm(ui['measured.noneValue'][lang]);
      assert.equal((await rows(page, 'decode')).measured, none);
      assert.equal((await rows(page, 'step')).measured, none);
      const howOf = (kind) => page.evaluate((k) => document.querySelector(`roofline-calculator[kind="${k}"]`).shadowRoot
        .querySelector('output[data-row="measured"]').closest('tr').querySelector('td.how').textContent, kind);
      const lows = Math.min(...all.map((m) => m.fractionOfCeiling));
      assert.match(norm(await howOf('decode')), new RegExp(`${Math.floor(100 * lows)}[.,]\\d%`));
      // Llama 3 8B in FP16 on an RTX 4090 at batch 1: llama.cpp's published rate, its share and its source
      for (const kind of ['decode', 'step']) {
        await select(page, kind, 'gpu').selectOption('rtx-4090');
        await select(page, kind, 'format').selectOption('fp16');
        if (kind === 'decode') await field(page, kind, 'batch').fill('1');
        await frames(page);
        const shown = (await rows(page, kind)).measured;
        assert.match(shown, new RegExp(`^${String(run.tokensPerSecond).replace('.', lang === 'en' ? '\\.' : '[.,]')}`), `${kind}: ${shown}`);
        assert.match(shown, new RegExp(`, ${Math.floor(100 * run.fractionOfCeiling)}[.,]\\d%`), `${kind}: ${shown}`);
        const how = norm(await howOf(kind));
        assert.ok(how.includes('llama.cpp') && how.includes('XiongjieDai/GPU-Benchmarks-on-LLM-Inference'), how);
        // another batch is another run: none matches
        await field(page, kind, 'batch').fill('2');
        await frames(page);
        assert.equal((await rows(page, kind)).measured, none, `${kind} at batch 2`);
        await field(page, kind, 'batch').fill('1');
      }
      assert.deepEqual(errors, []);
      assert.deepEqual(foreign, []);
    } finally {
      await context.close();
    }
  });
}

// The context slider runs to the chosen model's limit: dragged with the mouse or stepped with the
// keyboard from one end to the other, no position blanks the calculator (it ran to 131,072 for
// Llama 3 8B's 8,192 before, and a small drag showed "outside the allowed range" with no range);
// a context typed past the limit is refused with the range and the model, in the reader's language.
const RANGE_ERROR = {
  en: 'Context: must be from 1 to 8,192, the context limit of Llama 3 8B.',
  es: 'Contexto: tiene que ir de 1 a 8,192, el límite de contexto de Llama 3 8B.',
  pt: 'Contexto: precisa ir de 1 a 8.192, o limite de contexto do Llama 3 8B.',
};
for (const lang of LANGS) {
  test(`the step calculator's context slider has no position that blanks it, and a context past the model's limit says the range (${lang})`, async () => {
    const { page, context, errors } = await openPage(env.browser, `${env.site.url}index.html?lang=${lang}`, { allowedOrigin: env.site.url, viewport: { width: 390, height: 844 } });
    try {
      const calc = page.locator('roofline-calculator[kind="step"]');
      const slider = calc.locator('[data-field="context"] input[type="range"]');
      const error = calc.locator('[data-field="context"] .error');
      const blank = async (where) => {
        const r = await rows(page, 'step');
        const shown = Object.values(r).filter((v) => v !== '—' && v !== '');
        return norm(await error.textContent()) || (shown.length < 3 ? `${where}: results empty` : '');
      };
      await slider.scrollIntoViewIfNeeded();
      // a drag across the whole track, left to right, in steps
      const box = await slider.boundingBox();
      await page.mouse.move(box.x + 2, box.y + box.height / 2);
      await page.mouse.down();
      const seen = [];
      for (let i = 0; i <= 8; i += 1) {
        await page.mouse.move(box.x + 2 + ((box.width - 4) * i) / 8, box.y + box.height / 2, { steps: 2 });
        await frames(page);
        seen.push(await blank(`drag ${i}/8`));
      }
      await page.mouse.up();
      assert.equal(await field(page, 'step', 'context').inputValue(), '8192', 'the right end is the model\'s limit');
      // the keyboard from the left end to the right end
      await slider.focus();
      await page.keyboard.press('Home');
      for (let i = 0; i < 12; i += 1) {
        await page.keyboard.press('PageUp');
        seen.push(await blank(`key ${i}`));
      }
      await page.keyboard.press('End');
      seen.push(await blank('End'));
      assert.deepEqual(seen.filter(Boolean), [], 'positions that blanked the calculator');
      // Llama 3.1 8B reaches 131,072
      await select(page, 'step', 'model').selectOption('llama3.1-8b');
      await slider.focus();
      await page.keyboard.press('End');
      assert.equal(await field(page, 'step', 'context').inputValue(), '131072');
      assert.equal(await blank('3.1 End'), '');
      // typed past Llama 3 8B's limit: refused, with the range
      await select(page, 'step', 'model').selectOption('llama3-8b');
      await field(page, 'step', 'context').fill('20000');
      assert.equal(norm(await error.textContent()), RANGE_ERROR[lang]);
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });
}

// Operators whose shares read the same are a tie in the summary, not one "largest part" beside a
// table showing three equal shares (Llama 3 8B's MLP projections, 23.4 % each).
const TIE = {
  en: /gate_proj, up_proj, and down_proj tie as the largest parts \((\d+[.,]\d%) each\)/,
  es: /gate_proj, up_proj y down_proj empatan como las partes más grandes \((\d+[.,]\d%) cada una\)/,
  pt: /gate_proj, up_proj e down_proj empatam como as maiores partes \((\d+[.,]\d%) cada\)/,
};
test('the step calculator names a tie as a tie, with the share its table shows for each (en, es, pt)', async () => {
  for (const lang of LANGS) {
    const { page, context, errors } = await openPage(env.browser, `${env.site.url}index.html?lang=${lang}`, { allowedOrigin: env.site.url });
    try {
      const calc = page.locator('roofline-calculator[kind="step"]');
      await calc.scrollIntoViewIfNeeded();
      const summary = norm(await calc.locator('p.summary').textContent());
      const m = TIE[lang].exec(summary);
      assert.ok(m, `${lang}: ${summary}`);
      for (const op of ['gate_proj', 'up_proj', 'down_proj']) {
        const share = await calc.evaluate((host, id) => {
          const row = [...host.shadowRoot.querySelectorAll('table.ops tbody tr')].find((tr) => tr.querySelector('th') && tr.querySelector('th').firstChild && tr.querySelector('th').firstChild.textContent.trim() === id);
          return row ? row.cells[row.cells.length - 1].textContent : null;
        }, op);
        assert.equal(norm(share), m[1], `${lang}: ${op}'s share in the table`);
      }
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  }
});

test('the step calculator on 8 GPUs (es): Llama 3.1 70B in BF16 on H100 SXM carries 160 all-reduces on NVLink 4, an allreduce row, and each GPU reads an eighth of the weights', async () => {
  const { page, context, errors, foreign } = await openPage(env.browser, `${env.site.url}index.html?lang=es`, { allowedOrigin: env.site.url });
  try {
    await page.locator('roofline-calculator[kind="step"]').scrollIntoViewIfNeeded();
    await select(page, 'step', 'model').selectOption('llama3.1-70b');
    await select(page, 'step', 'gpu').selectOption('h100-sxm');
    await select(page, 'step', 'format').selectOption('bf16');
    const type = async (id, text) => {
      const f = field(page, 'step', id);
      await f.click();
      await page.keyboard.press('ControlOrMeta+a');
      await f.pressSequentially(text);
    };
    await type('context', '8192');
    await type('gpus', '8');
    const args = { model: 'llama3.1-70b', format: 'bf16', gpu: 'h100-sxm', dtype: 'bf16', phase: 'decode', batch: 1, context: 8192, flashAttention: true };
    const want = rl.step({ ...args, gpus: 8 });
    const one = rl.step({ ...args, gpus: 1 });
    const ar = want.operators.find((o) => o.id === 'allreduce');
    assert.equal(ar.count, 160);
    // 8 µs + 2 × 7/8 × 16 KiB ÷ 450 GB/s per all-reduce: the latency, not the bytes
    assert.ok(Math.abs(want.totals.communicationSeconds - 160 * (8e-6 + (2 * 7 / 8 * 16384) / 450e9)) < 1e-12);
    await expectRows(page, 'step', { communication: norm(format(want.totals.communicationSeconds, 'seconds', 'es')) }, 'TP 8 on NVLink 4');
    const s = await shown(page);
    const row = s.ops.find((o) => o.id === 'allreduce');
    assert.ok(row, 'an allreduce row in the table of operators');
    assert.equal(row.group, 'communication');
    assert.equal(row.seconds, ar.seconds);
    assert.ok(!s.points.includes('allreduce'), 'the all-reduces are not a point on the roofline (their floor is the link)');
    assert.ok(s.bar.some(([id]) => id === 'allreduce'), 'the time bar has their segment');
    // weight reads per GPU: one eighth of the split operators, ≈ 5.2 ms at 3.35 TB/s
    const wq = (r, id) => r.operators.find((o) => o.id === id).weightBytes;
    assert.equal(wq(want, 'q_proj'), wq(one, 'q_proj') / 8);
    assert.ok(Math.abs(want.totals.weightBytes / 3.35e12 - 5.19e-3) < 0.01e-3);
    const how = await page.evaluate(() => document.querySelector('roofline-calculator[kind="step"]').shadowRoot
      .querySelector('tr[data-row="communication"] td:nth-child(2)').textContent);
    assert.match(norm(how), /^160 all-reduce por NVLink 4/);
    // back to one GPU: no all-reduce row, the same operators as rl.step's
    await type('gpus', '1');
    await expectSoon(async () => (await shown(page)).ops.map((o) => o.id).sort(), one.operators.map((o) => o.id).sort(), 'one GPU: rl.step\'s operators, no allreduce');
    assert.deepEqual(errors, []);
    assert.deepEqual(foreign, []);
  } finally {
    await context.close();
  }
});
