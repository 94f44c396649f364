// Eight places where the page once contradicted the lesson, each read on the served page as a
// reader sees it (mostly in Spanish, the lesson's language):
// 1. ridge points with one decimal (the lesson's "≈ 295" is 990 ÷ 3.35 = 295.5, never "296");
// 2. the four conversations: 16.06 + 4 × 1.07 GB ≈ 20.3 GB per step, as the lesson types it;
// 3. ResNet-50 at the lesson's 4.1 GMACs and 8.2 GFLOPs per photo in the exercises and questions;
// 4. stage 3 of ResNet-50 as 1,464 M MACs;
// 5. a ratio below the ridge never written as 1×;
// 6. integer arithmetic in TOPS and OPs/B;
// 7. singular and plural words agreeing with their number (Intl.PluralRules);
// 8. no BF16 decode ceiling for the T4, which has no BF16.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openPage, norm, rows, field, select, frames, renderAll, useBrowserAndSite, ROOT } from './helpers.mjs';

const env = useBrowserAndSite();
const UI = JSON.parse(readFileSync(join(ROOT, 'web/i18n/ui-exercises.json'), 'utf8'));

/** All the text of a page section, shadow roots included, with no-break spaces made plain. */
async function sectionText(page, id) {
  const text = await page.evaluate((sid) => {
    const out = [];
    const walk = (n) => {
      if (n.shadowRoot) walk(n.shadowRoot);
      for (const c of n.childNodes) {
        if (c.nodeType === 3) out.push(c.textContent);
        else if (c.nodeType === 1 && c.tagName !== 'STYLE' && c.tagName !== 'SCRIPT') walk(c);
      }
    };
    const sec = document.getElementById(sid);
    if (!sec) return null;
    walk(sec);
    return out.join(' ');
  }, id);
  assert.ok(text !== null, `the page has a section #${id}`);
  return norm(text).replace(/\s+/g, ' ');
}

/** A number not glued to more digits: "203.1" matches in "203.1 FLOPs", not in "1203.15". */
const num = (s) => new RegExp(`(?<![0-9.,])${s.replace(/[.]/g, '\\.')}(?![0-9]|[.,][0-9])`);

async function page(lang = 'es', query = '') {
  const { page: p, context, errors } = await openPage(env.browser, `${env.site.url}index.html?lang=${lang}${query}`, { allowedOrigin: env.site.url });
  await renderAll(p);
  return { p, context, errors };
}

test('1. ridge points are written to a tenth wherever the page prints one: 203.1, 403.3, 153.0, 295.5', async () => {
  const { p, context, errors } = await page('es');
  try {
    const roofline = await sectionText(p, 'roofline');
    // the "try this", the results, the chart's ridge and the GPU table
    assert.match(roofline, /quiebre queda en 295\.5/, 'the roofline "try this" ends on the H100 ridge 295.5');
    assert.doesNotMatch(roofline, num('296'), 'no H100 ridge rounded up to 296');
    assert.equal((await rows(p, 'roofline')).ridge, '203.1 FLOPs/B');
    assert.match(roofline, /quiebre ≈ 203\.1/, 'the chart labels the ridge to a tenth');
    await select(p, 'roofline', 'gpu').selectOption('h100-sxm');
    await frames(p);
    assert.equal((await rows(p, 'roofline')).ridge, '295.5 FLOPs/B');
    // the limits diagram's ridge node: its value, and its detail with the lesson's four ridges
    await p.locator('#limits button.node-ridge').click();
    await frames(p);
    const limits = await sectionText(p, 'limits');
    assert.match(limits, /295\.5 FLOPs\/B/, 'the node shows the H100 chosen above');
    for (const r of ['203.1', '403.3', '153.0', '295.5']) assert.match(limits, num(r), `the limits diagram shows ${r}`);
    assert.doesNotMatch(limits, num('296'));
    // the batching chart's legend and ridge table
    const batching = await sectionText(p, 'batching');
    for (const r of ['203.1', '403.3', '295.5']) assert.match(batching, num(r), `the batching chart shows ${r}`);
    assert.doesNotMatch(batching, num('296'));
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('2. four conversations with 1.07 GB of KV cache each read 20.3 GB per step, typed or told', async () => {
  const { p, context, errors } = await page('es');
  try {
    // (the note alone: the calculator's own chart, which counts the KV cache from the model's
    // 1.07374 GB, lists 20.4 GB at a batch of 4)
    const decode = norm(await p.locator('.lesson-section:has(roofline-calculator[kind="decode"]) .try').first().textContent());
    assert.match(decode, /cada paso lee 20\.3 GB/, 'the "try this" says 20.3 GB, as the lesson does');
    assert.doesNotMatch(decode, /20\.4 GB/);
    // typed as the "try this" says: 4 conversations, 1.07 GB each
    await field(p, 'decode', 'batch').fill('4');
    await field(p, 'decode', 'kv').fill('1.07');
    await frames(p);
    const r = await rows(p, 'decode');
    assert.equal(r.bytesPerStep, '20.3 GB');
    assert.equal(r.total, '59');
    assert.equal(r.perConversation, '14.7', 'the lesson rounds 14.75 to ≈ 15');
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('3. the exercises and questions state the lesson\'s 4.1 GMACs and 8.2 GFLOPs per photo, and exercise 8 answers 82 TFLOPS', async () => {
  const { p, context, errors } = await page('es');
  try {
    const exercises = await sectionText(p, 'exercises');
    const e8 = norm(await p.locator('[data-exercise="8"]').textContent());
    assert.match(e8, /8\.2 GFLOPs por foto/);
    const e9 = norm(await p.locator('[data-exercise="9"]').textContent());
    assert.match(e9, /4\.1 mil millones de MACs|4\.1 GMACs/, e9.slice(0, 300));
    assert.doesNotMatch(exercises, /8\.18 GFLOPs|4\.09 GMACs|4\.09 mil millones/);
    const check = await sectionText(p, 'check');
    assert.match(check, /8\.2 GFLOPs/);
    assert.doesNotMatch(check, /8\.18/);
    // exercise 8 (b): 10,000 × 8.2 GFLOPs = 82 TFLOPS is correct; the 81.8 of 8.18 GFLOPs is not the lesson's
    const answer = async (value) => {
      const e = p.locator('[data-exercise="8"]');
      await e.locator('input[data-answer="required"]').fill(value);
      await e.locator('select[data-unit="required"]').selectOption('tera');
      await e.locator('button[data-check]').click();
      await frames(p);
      return norm(await e.locator('[data-hint="required"]').textContent());
    };
    assert.equal(await answer('82'), norm(UI['ex.part.correct'].es));
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('4. stage 3 of ResNet-50 is 1,464 M MACs in Spanish, with its thousands separator', async () => {
  const { p, context } = await page('es');
  try {
    const cell = norm(await p.locator('table[data-table="uses"] tr[data-row="stage3"] [data-col="macs"]').textContent());
    assert.equal(cell, '1,464 M');
  } finally {
    await context.close();
  }
});

test('5. intensity 203 on a T4 is memory-bound, and its ratio to the ridge is not written 1×', async () => {
  const { p, context } = await page('es');
  try {
    await field(p, 'roofline', 'intensity').fill('203');
    await frames(p);
    const r = await rows(p, 'roofline');
    assert.match(r.verdict, /^memory-bound/);
    assert.equal(r.ratio, '0.999×');
    assert.equal(r.fraction, '99.9%');
    // nor is the attainable rate rounded up to the peak it stays under
    assert.equal(r.attainable, '64.96 TFLOPS');
    assert.equal(r.memory, '64.96 TFLOPS');
    await field(p, 'roofline', 'intensity').fill('203.125');
    await frames(p);
    const at = await rows(p, 'roofline');
    assert.equal(at.ratio, '1×', 'at the ridge itself, 1×');
    assert.match(at.verdict, /^compute-bound/);
  } finally {
    await context.close();
  }
});

test('6. INT8 on a T4: the peak in TOPS, the ridge and the intensity in OPs/B', async () => {
  for (const lang of ['es', 'en']) {
    const { p, context, errors } = await page(lang);
    try {
      await select(p, 'roofline', 'precision').selectOption('int8');
      await frames(p);
      const r = await rows(p, 'roofline');
      assert.equal(r.ridge, '406.3 OPs/B', lang);
      assert.match(r.attainable, /TOPS$/, lang);
      // the calculator's text but its glossary links (the TFLOPS card explains TOPS too)
      const calc = norm(await p.locator('roofline-calculator[kind="roofline"] .calc').evaluate((el) => {
        const copy = el.cloneNode(true);
        for (const a of copy.querySelectorAll('.term-tip')) a.remove();
        return copy.textContent;
      }));
      assert.match(calc, /130 TOPS ÷ 320 GB\/s/);
      assert.match(calc, /1 OPs\/B × 320 GB\/s/, 'the intensity is in OPs/B');
      assert.doesNotMatch(calc, /FLOPs\/B/, `${lang}: no FLOPs/B left with an integer precision`);
      assert.doesNotMatch(calc, /TFLOPS/, `${lang}: no TFLOPS left with an integer precision`);
      // back to FP16: FLOPs again
      await select(p, 'roofline', 'precision').selectOption('fp16');
      await frames(p);
      assert.equal((await rows(p, 'roofline')).ridge, '203.1 FLOPs/B');
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  }
});

test('7. a count of one takes the singular in each language: 1 FLOP, 1 viaje, 1 MAC', async () => {
  for (const [lang, flop, mac] of [['es', 'cada byte se usa en 1 FLOP', 'Contador: 1 MAC = 2 FLOPs'], ['en', 'each byte used in 1 FLOP', 'MAC counter: 1 MAC = 2 FLOPs'], ['pt', 'cada byte usado em 1 FLOP', 'Contador: 1 MAC = 2 FLOPs']]) {
    const { p, context } = await page(lang);
    try {
      // the flow diagram follows the roofline calculator's intensity (1 by default)
      const flow = await sectionText(p, 'flow');
      assert.match(flow, new RegExp(`${flop}(?!s)`), `${lang}: ${flow.slice(0, 200)}`);
      // a 1 × 1 by 1 × 1 product by hand is 1 MAC
      const shrink = async (action) => {
        const b = p.locator(`roofline-calculator[kind="byhand"] button[data-action="${action}"]`);
        for (let i = 0; i < 6 && !(await b.isDisabled()); i += 1) await b.click();
      };
      for (const a of ['a-removeRow', 'a-removeCol', 'b-removeRow', 'b-removeCol']) await shrink(a);
      await frames(p);
      const byhand = await sectionText(p, 'byhand');
      assert.ok(byhand.includes(mac), `${lang}: ${mac} in ${byhand.slice(0, 300)}`);
    } finally {
      await context.close();
    }
  }
  // the tile calculator's transfers
  const { p, context } = await page('es');
  try {
    const tile = await sectionText(p, 'tile');
    assert.doesNotMatch(tile, /(?<![0-9.,])1 viajes/);
    assert.match(tile, /[2-9] viajes|1 viaje(?!s)/);
  } finally {
    await context.close();
  }
});

test('8. the GPU table gives the T4, which has no BF16, no BF16 decode ceiling', async () => {
  for (const [lang, word] of [['es', 'sin BF16'], ['en', 'no BF16'], ['pt', 'sem BF16']]) {
    const { p, context } = await page(lang);
    try {
      const cell = norm(await p.locator('table[data-table="gpus"] tr[data-row="t4"] [data-col="ceiling"]').textContent());
      assert.equal(cell, word, lang);
      const l4 = norm(await p.locator('table[data-table="gpus"] tr[data-row="l4"] [data-col="ceiling"]').textContent());
      assert.equal(l4, lang === 'pt' ? '18,7' : '18.7', `${lang}: the L4, which has BF16, keeps its ceiling`);
    } finally {
      await context.close();
    }
  }
});
