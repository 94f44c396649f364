// The page against the core's catalog, in Spanish and Portuguese: the decode calculator's formats
// and models give the lesson's weights and ceilings, the compute roof and the VRAM wall show up,
// a T4 never shows a BF16 (or FP8) peak and says why in the reader's language, C10's prefill on two H100 is the lesson's ≈ 71 ms, and no
// catalog name is left in English.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { openPage, until, rows, field, select, norm, frames, shadowText, SITE_DIR, useBrowserAndSite, renderAll } from './helpers.mjs';

const env = useBrowserAndSite();
const rl = await (await import(join(SITE_DIR, 'roofline.mjs'))).default();

// Numbers as each language writes them (es-MX like the lesson, pt-BR).
const N = { es: (en) => en, pt: (en) => en.replace(/[.,]/g, (c) => (c === '.' ? ',' : '.')) };

// What the clocks calculator says when the GPU has no peak at the model's precision.
const NO_PEAK = {
  en: (dtype) => `NVIDIA T4 has no ${dtype} peak, so this model has no compute rate there. Pick another GPU, or type a peak yourself.`,
  es: (dtype) => `NVIDIA T4 no tiene pico en ${dtype}, así que este modelo no tiene ahí ritmo de cálculo. Elige otra GPU o escribe tú un pico.`,
  pt: (dtype) => `A NVIDIA T4 não tem pico em ${dtype}, então este modelo não tem ritmo de cálculo nela. Escolha outra GPU ou digite um pico.`,
};

/** The clocks calculator's message about the inputs as a whole, once it shows one. */
async function clocksFormError(page) {
  return norm(await until(page, () => {
    const e = document.querySelector('roofline-calculator[kind="clocks"]').shadowRoot.querySelector('.form-error:not([hidden])');
    return e && e.textContent;
  }));
}

/** Every text a reader can see or hear: the page, the calculators' shadow roots, option labels. */
async function allText(page) {
  await renderAll(page);
  return page.evaluate(() => {
    const parts = [document.body.innerText];
    for (const el of document.querySelectorAll('roofline-calculator')) {
      if (!el.shadowRoot) continue;
      parts.push(el.shadowRoot.textContent);
      for (const o of el.shadowRoot.querySelectorAll('option')) parts.push(o.textContent);
    }
    return parts.join('\n');
  });
}

for (const lang of ['es', 'pt']) {
  const n = N[lang];

  test(`decode: INT4 on the L4 is 5.73 GB and ≈ 52 tokens/s; C10 is 70.6 GB in FP8 (${lang})`, async () => {
    const { page, context, errors } = await openPage(env.browser, `${env.site.url}index.html?lang=${lang}`, { allowedOrigin: env.site.url });
    try {
      // the lesson's first example leaves the KV cache out
      await select(page, 'decode', 'kvSource').selectOption('none');
      await select(page, 'decode', 'format').selectOption('int4');
      assert.ok((await field(page, 'decode', 'weights').inputValue()).startsWith(n('5.73')));
      let d = await rows(page, 'decode');
      assert.equal(d.bytesPerStep, `${n('5.73')} GB`);
      assert.equal(d.total, n('52.3'));
      await select(page, 'decode', 'model').selectOption('c10-70b');
      assert.equal(await select(page, 'decode', 'format').inputValue(), 'fp8', 'a model comes in its own format');
      assert.equal(await field(page, 'decode', 'weights').inputValue(), n('70.6'));
      assert.equal((await rows(page, 'decode')).bytesPerStep, `${n('70.6')} GB`);
      await select(page, 'decode', 'model').selectOption('phone-3b');
      assert.equal((await rows(page, 'decode')).bytesPerStep, `${n('1.31')} GB`);
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });

  test(`decode: compute-bound at a batch of 1,024 on the L4, and 7 conversations of 8,192 tokens fill its 24 GB (${lang})`, async () => {
    const { page, context, errors } = await openPage(env.browser, `${env.site.url}index.html?lang=${lang}`, { allowedOrigin: env.site.url });
    try {
      await select(page, 'decode', 'kvSource').selectOption('none');
      await field(page, 'decode', 'batch').fill('1024');
      let d = await rows(page, 'decode');
      assert.equal(d.total, n('7,534'));
      assert.match(d.stepTime, /compute-bound/);
      // the KV cache of 8,192 tokens counted from the model, then a batch of 8: no longer fits; 7 is the most
      await select(page, 'decode', 'kvSource').selectOption('model');
      await field(page, 'decode', 'batch').fill('8');
      d = await rows(page, 'decode');
      assert.match(d.capacity, lang === 'es' ? /^no cabe · a lo mucho 7 conversaciones$/ : /^não cabe · no máximo 7 conversas$/);
      await field(page, 'decode', 'batch').fill('7');
      assert.match((await rows(page, 'decode')).capacity, /^cabe/);
      await frames(page);
      const desc = await page.evaluate(() => document.querySelector('roofline-calculator[kind="decode"]').shadowRoot.querySelector('svg desc').textContent);
      assert.match(desc, /VRAM/);
      // 70.6 GB of weights on one 24 GB card: no batch fits, said as such, never "at most 0"
      await select(page, 'decode', 'model').selectOption('c10-70b');
      await field(page, 'decode', 'gpus').fill('1');
      d = await rows(page, 'decode');
      assert.match(d.capacity, lang === 'es' ? /^no cabe · los pesos solos ya no caben$/ : /^não cabe · só os pesos já não cabem$/);
      const summary = await page.evaluate(() => document.querySelector('roofline-calculator[kind="decode"]').shadowRoot.querySelector('.summary').textContent);
      // and C10 gives no shape to count its KV cache from: said in the same summary
      assert.match(summary, lang === 'es'
        ? /los pesos solos ya no caben en la memoria de las GPUs: no cabe ningún batch\. El KV cache no se cuenta: este modelo no da su forma/
        : /só os pesos já não cabem na memória das GPUs: nenhum batch cabe\. O KV cache não é contado: este modelo não dá sua forma/);
      assert.doesNotMatch(`${d.capacity} ${summary}`, /\b0 conversa/);
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });

  test(`a T4 never shows a BF16 peak (${lang})`, async () => {
    const { page, context, errors } = await openPage(env.browser, `${env.site.url}index.html?lang=${lang}`, { allowedOrigin: env.site.url });
    try {
      const t4Bf16 = rl.gpu({ id: 't4' }).peakFlopsPerSecond.bf16;
      assert.equal(t4Bf16, undefined, 'the catalog has no BF16 peak for the T4');
      // clocks: Llama 3 8B is served in BF16; on a T4 the peak is left empty and the reason given
      await select(page, 'clocks', 'gpu').selectOption('t4');
      assert.equal(await field(page, 'clocks', 'peak').inputValue(), '');
      assert.equal(await clocksFormError(page), NO_PEAK[lang]('BF16'));
      assert.equal((await rows(page, 'clocks')).prefillCompute, '—');
      // roofline: the T4's precisions do not include BF16
      await select(page, 'roofline', 'gpu').selectOption('t4');
      const precisions = await select(page, 'roofline', 'precision').locator('option').evaluateAll((os) => os.map((o) => o.value));
      assert.ok(!precisions.includes('bf16'), precisions.join());
      assert.ok(precisions.includes('fp16'));
      // decode: only the memory floor, and it says why (the KV cache left out, as the lesson's example)
      await select(page, 'decode', 'kvSource').selectOption('none');
      await select(page, 'decode', 'gpu').selectOption('t4');
      const d = await rows(page, 'decode');
      assert.equal(d.computeTime, '—');
      const how = norm(await page.locator('roofline-calculator[kind="decode"] tr[data-row="computeTime"] td.how').textContent());
      assert.match(how, /T4/);
      assert.match(how, /BF16/);
      assert.equal(d.total, n('19.9'));
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });

  test(`clocks: C10's prefill of 2,000 tokens on two H100 takes ≈ 71 ms (${lang})`, async () => {
    const { page, context, errors } = await openPage(env.browser, `${env.site.url}index.html?lang=${lang}`, { allowedOrigin: env.site.url });
    try {
      await select(page, 'clocks', 'model').selectOption('c10-70b');
      await select(page, 'clocks', 'gpu').selectOption('h100-sxm');
      await field(page, 'clocks', 'gpus').fill('2');
      const k = await rows(page, 'clocks');
      assert.match(k.ttft, new RegExp(`^${n('71.3').replace('.', '\\.')} ms · compute-bound`));
      assert.match(k.tpot, new RegExp(`^${n('10.5').replace('.', '\\.')} ms · memory-bound`));
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });

  test(`no catalog name is left in English (${lang})`, async () => {
    const { page, context } = await openPage(env.browser, `${env.site.url}index.html?lang=${lang}`, { allowedOrigin: env.site.url });
    try {
      // open every collapsed part so that its text counts too
      await page.evaluate(() => document.querySelectorAll('details').forEach((d) => { d.open = true; }));
      const text = await allText(page);
      // the lesson's models (the catalog's others are makers' names: "Mixtral 8x7B" in every language)
      const english = [
        ...rl.models().filter((m) => m.lesson).map((m) => m.name),
        ...rl.models().flatMap((m) => (m.stages || []).map((s) => s.name)),
        ...rl.formats().map((f) => f.name),
        ...rl.cases().map((c) => c.name),
      ];
      // brand and format names read the same in every language ("3.5 bits" is Spanish too)
      const proper = new Set(['Llama 3 8B', 'Qwen3.8-27B', 'ResNet-50 (C01)', 'BF16', 'FP16', 'FP8', ...(lang === 'es' ? ['3.5 bits'] : [])]);
      const left = english.filter((name) => !proper.has(name) && text.includes(name));
      assert.deepEqual(left, []);
      // and the page does show translated names: the decode model list
      const labels = await select(page, 'decode', 'model').locator('option').allTextContents();
      const c10 = rl.model({ id: 'c10-70b' }).name;
      assert.ok(!labels.includes(c10) && labels.some((l) => l.includes('C10')), labels.join(' | '));
    } finally {
      await context.close();
    }
  });
}

test('a T4 never shows a BF16 peak in English either, and a typed peak is the reader\'s own', async () => {
  const { page, context, errors } = await openPage(env.browser, `${env.site.url}index.html?lang=en`, { allowedOrigin: env.site.url });
  try {
    await select(page, 'clocks', 'gpu').selectOption('t4');
    assert.equal(await field(page, 'clocks', 'peak').inputValue(), '');
    assert.equal(await clocksFormError(page), NO_PEAK.en('BF16'));
    // the reader may still type a peak (e.g. the T4's FP16 one): then the results come back
    await field(page, 'clocks', 'peak').fill('65');
    await until(page, () => !document.querySelector('roofline-calculator[kind="clocks"]').shadowRoot.querySelector('.form-error').textContent);
    assert.notEqual((await rows(page, 'clocks')).prefillCompute, '—');
    // a model in FP8 on the T4: no other precision's peak put in its place, and the message says FP8
    await select(page, 'clocks', 'gpu').selectOption('t4');
    await select(page, 'clocks', 'model').selectOption('c10-70b');
    assert.equal(await field(page, 'clocks', 'peak').inputValue(), '');
    assert.equal(await clocksFormError(page), NO_PEAK.en('FP8'));
    assert.doesNotMatch(await shadowText(page, 'clocks'), /NaN|Infinity|undefined/);
    // a GPU that has it brings the peak back
    await select(page, 'clocks', 'gpu').selectOption('h100-sxm');
    assert.equal(await field(page, 'clocks', 'peak').inputValue(), '1979');
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});
