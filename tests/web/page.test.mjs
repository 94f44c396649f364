// The served page: every calculator's defaults show the lesson's numbers in every language, the
// lesson's "try this" variations give its answers, the language switch and ?lang= work, inputs
// round-trip through the URL, nothing is requested from another origin, and axe-core is clean.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import {
  openPage, until, rows, field, select, fieldError, norm, shotPath, waitReady, frames, idle, KINDS, ROOT, useBrowserAndSite, loadUi, renderAll, LANGS } from './helpers.mjs';

// the page's sections: one per calculator with a section of its own, and the 8 others (the two
// diagrams, real life, exercises, questions, the benchmark, mistakes, the glossary)
const SECTION_COUNT = KINDS.length + 8;
const env = useBrowserAndSite();

// The lesson's numbers as the page shows them, per language (Spanish as es-MX, Portuguese as pt-BR).
const L = (en, pt, es = en) => ({ en, es, pt });
const DEFAULTS = {
  matmul: {
    size: L('16,000', '16.000'), macs: L('32,768,000', '32.768.000'), flops: L('65,536,000', '65.536.000'),
    gflops: L('0.066', '0,066'), time: L('1.01 µs', '1,01 µs'), perSecond: L('991,821', '991.821'),
  },
  byhand: { size: L('2 × 2', '2 × 2'), macs: L('12', '12'), flops: L('24', '24') },
  roofline: {
    ridge: L('203.1 FLOPs/B', '203,1 FLOPs/B'), memory: L('0.32 TFLOPS', '0,32 TFLOPS'), attainable: L('0.32 TFLOPS', '0,32 TFLOPS'),
    fraction: L('0.5%', '0,5%'), ratio: L('0.0049×', '0,0049×'),
  },
  decode: {
    bytesPerStep: L('16.1 GB', '16,1 GB'), memoryTime: L('53.5 ms', '53,5 ms'), computeTime: L('133 µs', '133 µs'),
    perConversation: L('18.7', '18,7'), total: L('18.7', '18,7'),
  },
  batching: { intensity: L('31.5 FLOPs/B', '31,5 FLOPs/B'), limit: L('2,048 FLOPs/B', '2.048 FLOPs/B') },
  clocks: { prefillCompute: L('265 ms', '265 ms'), prefillMemory: L('53.5 ms', '53,5 ms'), decodeCompute: L('133 µs', '133 µs'), decodeMemory: L('53.5 ms', '53,5 ms') },
  tile: { tileIntensity: L('32 FLOPs/B', '32 FLOPs/B'), noReuse: L('0.5 FLOPs/B', '0,5 FLOPs/B'), elementwise: L('0.25 FLOPs/B', '0,25 FLOPs/B') },
  quant: { bf16Tokens: L('18.7', '18,7'), int8Bytes: L('8.03 GB', '8,03 GB'), int8Tokens: L('37.4', '37,4'), int4Bytes: L('5.73 GB', '5,73 GB'), int4Tokens: L('52.3', '52,3') },
};
const KV_COUNTED = {
  en: /Each conversation's KV cache is counted: 1.07 GB at 8,192 tokens\.$/,
  es: /Cuenta el KV cache de cada conversación: 1.07 GB con 8,192 tokens\.$/,
  pt: /Conta o KV cache de cada conversa: 1,07 GB com 8.192 tokens\.$/,
};
const KV_LEFT_OUT = {
  en: /^At most 18.7 tokens per second .* The KV cache is left out, as in the lesson's first example; counting its 1.07 GB per conversation \(8,192 tokens\), it would be at most 17.5 tokens per second\.$/,
  es: /^A lo mucho 18.7 tokens por segundo .* El KV cache queda fuera, como en el primer ejemplo de la lección; contando sus 1.07 GB por conversación \(8,192 tokens\), serían a lo mucho 17.5 tokens por segundo\.$/,
  pt: /^No máximo 18,7 tokens por segundo .* O KV cache fica de fora, como no primeiro exemplo da lição; contando seus 1,07 GB por conversa \(8.192 tokens\), seriam no máximo 17,5 tokens por segundo\.$/,
};
const decodeSummary = (page) => page.evaluate(() => document.querySelector('roofline-calculator[kind="decode"]').shadowRoot.querySelector('.summary').textContent);
const VERDICT = { memory: { en: 'memory-bound', es: 'memory-bound (limitado por la memoria)', pt: 'memory-bound (limitado pela memória)' } };

for (const lang of LANGS) {
  test(`defaults show the lesson's numbers (${lang})`, async () => {
    const { page, context, foreign, errors } = await openPage(env.browser, `${env.site.url}index.html?lang=${lang}`, { allowedOrigin: env.site.url });
    try {
      assert.equal(await page.getAttribute('html', 'lang'), lang);
      // decode counts each conversation's KV cache by default (1.07 GB at 8,192 tokens) and says
      // so; the lesson's first example, which leaves it out, is one choice away
      assert.equal((await rows(page, 'decode')).total, L('17.5', '17,5')[lang]);
      assert.match(norm(await decodeSummary(page)), KV_COUNTED[lang]);
      await select(page, 'decode', 'kvSource').selectOption('none');
      assert.match(norm(await decodeSummary(page)), KV_LEFT_OUT[lang]);
      for (const [kind, expected] of Object.entries(DEFAULTS)) {
        const got = await rows(page, kind);
        for (const [row, texts] of Object.entries(expected)) assert.equal(got[row], texts[lang], `${kind}.${row} in ${lang}`);
      }
      assert.equal((await rows(page, 'roofline')).verdict, VERDICT.memory[lang]);
      // by hand: the shopping example
      const cells = await page.locator('roofline-calculator[kind="byhand"] .c-value').allTextContents();
      assert.deepEqual(cells, ['265', '650', '80', '300']);
      // batching: the 4,096 × 4,096 FP16 layer crosses the T4 ridge at batch 226
      assert.equal(norm(await page.locator('roofline-calculator[kind="batching"] td[data-gpu="NVIDIA T4"]').textContent()), '226');
      // defaults of the inputs as the lesson gives them
      assert.equal(await field(page, 'decode', 'weights').inputValue(), lang === 'pt' ? '16,06' : '16.06');
      assert.equal(await field(page, 'matmul', 'k').inputValue(), '2048');
      // the lesson's texts are there, with every placeholder filled by the module
      await renderAll(page);
      // (the lesson's Python programs are code: their f-strings' {name} are Python's own)
      const body = await page.evaluate(() => [...document.querySelectorAll('.listing pre code')]
        .reduce((text, code) => text.split(code.innerText).join(''), document.body.innerText));
      assert.doesNotMatch(body, /\{[A-Za-z0-9_.]+\}/, 'an unfilled placeholder');
      assert.doesNotMatch(body, /NaN|Infinity|undefined/);
      // the lesson's notation: rates in FLOPS (TFLOPS …), never with a slash, inside the
      // calculators' shadow roots too (labels, tables, charts' titles and axes, aria text)
      const everything = await page.evaluate(() => {
        const texts = [document.body.textContent];
        const attrs = (root) => [...root.querySelectorAll('*')].flatMap((e) => ['aria-label', 'title', 'aria-valuetext'].map((a) => e.getAttribute(a) || ''));
        texts.push(...attrs(document));
        for (const el of document.querySelectorAll('roofline-calculator')) texts.push(el.shadowRoot.textContent, ...attrs(el.shadowRoot));
        return texts.join('\n');
      });
      assert.match(everything, /TFLOPS/);
      assert.doesNotMatch(everything, /FLOPs?\/s/i, 'a rate written with a slash instead of FLOPS');
      assert.equal(await page.locator('.card').count(), 10, 'ten glossary cards');
      assert.ok(await page.locator('.try').count() >= 8, 'a try-this note per calculator');
      assert.deepEqual(foreign, []);
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });
}

test("the lesson's try-this variations give its answers", async () => {
  const { page, context, errors } = await openPage(env.browser, `${env.site.url}index.html?lang=es`, { allowedOrigin: env.site.url });
  try {
    // one photo instead of 32: the work drops 32 times
    await field(page, 'matmul', 'n').fill('1');
    assert.equal((await rows(page, 'matmul')).flops, '2,048,000');
    // the big multiplication
    for (const f of ['n', 'k', 'm']) await field(page, 'matmul', f).fill('4096');
    assert.equal((await rows(page, 'matmul')).flops, '137,438,953,472');
    // intensity past 203: attainable stops growing at the peak
    await field(page, 'roofline', 'intensity').fill('204');
    let r = await rows(page, 'roofline');
    assert.equal(r.attainable, '65 TFLOPS');
    assert.equal(r.fraction, '100%');
    assert.match(r.verdict, /^compute-bound/);
    await field(page, 'roofline', 'intensity').fill('1000');
    assert.equal((await rows(page, 'roofline')).attainable, '65 TFLOPS');
    // the L4 with intensity 1: a bit less than the T4, despite almost twice the peak
    await select(page, 'roofline', 'gpu').selectOption('l4');
    await field(page, 'roofline', 'intensity').fill('1');
    r = await rows(page, 'roofline');
    assert.equal(r.attainable, '0.3 TFLOPS');
    assert.equal(r.ridge, '403.3 FLOPs/B');
    // INT8 on the T4: its peak is in TOPS, as are the rates the calculator derives from it
    await select(page, 'roofline', 'gpu').selectOption('t4');
    await select(page, 'roofline', 'precision').selectOption('int8');
    const roof = page.locator('roofline-calculator[kind="roofline"]');
    assert.equal(norm(await roof.locator('[data-field="peak"] .unit').textContent()), 'TOPS');
    r = await rows(page, 'roofline');
    assert.match(r.attainable, /^0[.]3\d* TOPS$/);
    assert.match(r.memory, / TOPS$/);
    assert.equal(norm(await roof.locator('tr[data-row="attainable"] th').first().textContent()).split(' ')[0], 'OPS');
    await frames(page);
    assert.match(norm(await roof.locator('svg').first().textContent()), /OPS alcanzables/);
    await select(page, 'roofline', 'precision').selectOption('fp16');
    assert.equal(norm(await roof.locator('[data-field="peak"] .unit').textContent()), 'TFLOPS');
    assert.match((await rows(page, 'roofline')).attainable, / TFLOPS$/);
    // the diagrams show the reader's peak in the unit of its precision
    await select(page, 'roofline', 'precision').selectOption('int8');
    await idle(page);  // the diagrams redraw when the browser is idle
    assert.match(norm(await page.locator('.diagram-flow .node-cores .node-value').textContent()), /^130 TOPS$/);
    assert.match(norm(await page.locator('.diagram-limits .node-gpu .node-value').textContent()), /^130 TOPS · 320 GB\/s$/);
    await select(page, 'roofline', 'precision').selectOption('fp16');
    await idle(page);
    assert.match(norm(await page.locator('.diagram-flow .node-cores .node-value').textContent()), /^65 TFLOPS$/);
    await select(page, 'roofline', 'gpu').selectOption('l4');
    await field(page, 'roofline', 'intensity').fill('1');
    // the H100: 990 TFLOPS and 3,350 GB/s
    await field(page, 'roofline', 'peak').fill('990');
    await field(page, 'roofline', 'bw').fill('3350');
    assert.equal((await rows(page, 'roofline')).ridge, '295.5 FLOPs/B');
    // decode, as the lesson begins: the KV cache left out; INT8 weights (8.03 GB) raise the L4 ceiling to ≈ 37
    await select(page, 'decode', 'kvSource').selectOption('none');
    await select(page, 'decode', 'format').selectOption('int8');
    assert.equal(await field(page, 'decode', 'weights').inputValue(), '8.03');
    assert.equal((await rows(page, 'decode')).total, '37.4');
    await select(page, 'decode', 'format').selectOption('bf16');
    assert.equal((await rows(page, 'decode')).total, '18.7');
    // four conversations with 1.07 GB of KV cache each: ≈ 59 in total, ≈ 15 each
    await field(page, 'decode', 'batch').fill('4');
    await field(page, 'decode', 'kv').fill('1.07');
    let d = await rows(page, 'decode');
    assert.equal(d.bytesPerStep, '20.3 GB');
    assert.match(d.stepTime, /^67.8 ms · memory-bound/);
    assert.equal(d.total, '59');
    assert.equal(d.perConversation, '14.7');
    // the KV cache of an 8,192-token Llama 3 8B conversation is the lesson's 1.07 GB
    assert.equal((await rows(page, 'decode')).kvModel, '1.07 GB');
    // the H100's bandwidth, one conversation: ≈ 209 tokens per second (the lesson rounds to 210)
    await field(page, 'decode', 'batch').fill('1');
    await field(page, 'decode', 'kv').fill('0');
    await field(page, 'decode', 'bw').fill('3350');
    d = await rows(page, 'decode');
    assert.equal(d.total, '209');
    // C10: 70.6 GB over 2 H100 in tensor parallel: ≈ 10.5 ms per step
    await field(page, 'decode', 'weights').fill('70.6');
    await field(page, 'decode', 'gpus').fill('2');
    assert.match((await rows(page, 'decode')).stepTime, /^10.5 ms · memory-bound/);
    // tiles: a 256 × 256 tile reaches 128 FLOPs per byte in FP16
    await field(page, 'tile', 'tile').fill('256');
    assert.equal((await rows(page, 'tile')).tileIntensity, '128 FLOPs/B');
    // batching: at a batch of 226 the 4,096 × 4,096 FP16 layer passes the T4's ridge (≈ 203.5)
    await field(page, 'batching', 'batch').fill('226');
    assert.equal((await rows(page, 'batching')).intensity, '204 FLOPs/B');
    await field(page, 'batching', 'batch').fill('225');
    assert.equal((await rows(page, 'batching')).intensity, '203 FLOPs/B');
    // prefill of 2,000 tokens on an L4: compute-bound, ≈ 265 ms; one token: memory-bound, ≈ 54 ms
    const k = await rows(page, 'clocks');
    assert.match(k.ttft, /^265 ms · compute-bound/);
    assert.match(k.tpot, /^53.5 ms · memory-bound/);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('switching language from the keyboard leaves the focus on the button pressed, drawn again in the new language', async () => {
  const { page, context } = await openPage(env.browser, `${env.site.url}index.html?lang=en`, { allowedOrigin: env.site.url });
  try {
    await waitReady(page);
    const focused = () => page.evaluate(() => {
      const a = document.activeElement;
      return a ? `${a.localName}[${a.getAttribute('data-lang') || ''}] pressed=${a.getAttribute('aria-pressed')}` : 'none';
    });
    // Tab from the skip link to the language buttons: English, then Spanish
    await page.locator('.lang-switch button[data-lang="en"]').focus();
    await page.keyboard.press('Tab');
    assert.equal(await focused(), 'button[es] pressed=false');
    await page.keyboard.press('Enter');
    await until(page, (l) => document.documentElement.lang === l, 'es');
    await until(page, () => document.querySelector('.lang-switch button[data-lang="es"]').getAttribute('aria-pressed') === 'true');
    // the page was drawn again: the focus is on the new Spanish button, not lost to the body
    assert.equal(await focused(), 'button[es] pressed=true');
    await page.keyboard.press('Tab');
    assert.equal(await focused(), 'button[pt] pressed=false', 'the next Tab goes on from there');
    await page.keyboard.press('Space');
    await until(page, (l) => document.documentElement.lang === l, 'pt');
    await until(page, () => document.querySelector('.lang-switch button[data-lang="pt"]').getAttribute('aria-pressed') === 'true');
    assert.equal(await focused(), 'button[pt] pressed=true');
  } finally {
    await context.close();
  }
});

test('language switch and ?lang= and the browser language', async () => {
  const { page, context } = await openPage(env.browser, `${env.site.url}index.html`, { allowedOrigin: env.site.url, locale: 'pt-BR' });
  try {
    assert.equal(await page.getAttribute('html', 'lang'), 'pt', 'browser language is the default');
    await page.locator('.lang-switch button[data-lang="es"]').click();
    await until(page, (l) => document.documentElement.lang === l, 'es');  // the language's texts load first
    await waitReady(page);
    assert.equal(await page.getAttribute('html', 'lang'), 'es');
    assert.match(await page.evaluate(() => location.href), /lang=es/);
    assert.equal(norm(await page.locator('#matmul-h').textContent()), 'Contar el trabajo: FLOPs de una matmul');
    await until(page, () => document.querySelector('roofline-calculator[kind="decode"]').shadowRoot.querySelector('.calc-title').textContent === 'Tokens por segundo al decodificar');
    assert.equal((await rows(page, 'matmul')).gflops, '0.066');
    await page.locator('.lang-switch button[data-lang="en"]').click();
    await until(page, (l) => document.documentElement.lang === l, 'en');  // the language's texts load first
    await until(page, () => document.querySelector('roofline-calculator[kind="decode"]').shadowRoot.querySelector('.calc-title').textContent === 'Tokens per second while decoding');
    // typed numbers survive a language switch (the KV cache left out, as the lesson's example)
    await select(page, 'decode', 'kvSource').selectOption('none');
    await field(page, 'decode', 'weights').fill('8.03');
    await page.locator('.lang-switch button[data-lang="pt"]').click();
    await until(page, (l) => document.documentElement.lang === l, 'pt');  // the language's texts load first
    await until(page, () => document.documentElement.lang === 'pt');
    await until(page, () => document.querySelector('roofline-calculator[kind="decode"]').shadowRoot.querySelector('.calc-title').textContent === 'Tokens por segundo na decodificação');
    assert.equal(await field(page, 'decode', 'weights').inputValue(), '8,03');
    assert.equal((await rows(page, 'decode')).total, '37,4');
  } finally {
    await context.close();
  }
});

test('no visible text is left in English on the Spanish and Portuguese pages', async () => {
  const ui = loadUi();
  const { readFile } = await import('node:fs/promises');
  const prose = JSON.parse(await readFile(join(ROOT, 'web/i18n/prose.json'), 'utf8'));
  const glossary = JSON.parse(await readFile(join(ROOT, 'web/i18n/glossary.json'), 'utf8'));
  // English texts that differ from their translation: UI strings, prose without placeholders,
  // glossary terms and definitions without placeholders
  const englishOnly = (lang) => {
    const set = new Set(Object.values(ui).filter((e) => e.en !== e[lang]).map((e) => e.en));
    for (const e of Object.values(prose)) if (e.en !== e[lang] && !/\{/.test(e.en)) set.add(e.en.trim());
    for (const e of Object.values(glossary)) {
      for (const k of ['term', 'short']) if (e.en[k] !== e[lang][k] && !/\{/.test(e.en[k])) set.add(e.en[k].trim());
    }
    return set;
  };
  const visibleTexts = () => {
    const out = [];
    const walk = (root) => {
      const w = document.createTreeWalker(root, NodeFilter.SHOW_TEXT | NodeFilter.SHOW_ELEMENT);
      for (let n = w.currentNode; n; n = w.nextNode()) {
        if (n.nodeType === 1 && n.shadowRoot) walk(n.shadowRoot);
        if (n.nodeType === 3 && n.textContent.trim()) out.push(n.textContent.trim());
        if (n.nodeType === 1 && n.getAttribute('aria-label')) out.push(n.getAttribute('aria-label'));
      }
    };
    walk(document.body);
    return out;
  };
  for (const lang of ['es', 'pt']) {
    const { page, context } = await openPage(env.browser, `${env.site.url}index.html?lang=${lang}`, { allowedOrigin: env.site.url });
    try {
      const texts = await page.evaluate(`(${visibleTexts})()`);
      const english = englishOnly(lang);
      const leftovers = texts.filter((x) => english.has(x));
      assert.deepEqual(leftovers, [], `English left on the ${lang} page`);
    } finally {
      await context.close();
    }
  }
});

test('opening a link leaves the address alone: no history entry is rewritten until the reader changes something', async () => {
  const context = await env.browser.newContext({ viewport: { width: 1100, height: 900 } });
  try {
    await context.addInitScript(() => {
      window.__addressWrites = 0;
      const replace = history.replaceState.bind(history);
      history.replaceState = (...args) => {
        window.__addressWrites += 1;
        return replace(...args);
      };
    });
    const page = await context.newPage();
    const url = `${env.site.url}index.html?lang=en&decode.batch=4&roofline.gpu=h100-sxm`;
    await page.goto(url);
    await waitReady(page);
    await renderAll(page);
    assert.equal(await field(page, 'decode', 'batch').inputValue(), '4');
    await page.waitForTimeout(600); // past the quarter second a calculator waits before writing
    assert.equal(await page.evaluate(() => window.__addressWrites), 0);
    assert.equal(page.url(), url);
    await field(page, 'decode', 'batch').fill('8');
    await until(page, () => /decode\.batch=8/.test(location.href));
    assert.equal(await page.evaluate(() => window.__addressWrites), 1);
  } finally {
    await context.close();
  }
});

test('a burst of changes (a slider dragged) rewrites the address once, after it, with the last value', async () => {
  const { page, context } = await openPage(env.browser, `${env.site.url}index.html?lang=en`, { allowedOrigin: env.site.url });
  try {
    await waitReady(page);
    await field(page, 'matmul', 'n').fill('64');
    await until(page, () => /matmul\.n=64/.test(location.href));
    const writes = await page.evaluate(async () => {
      let count = 0;
      const replace = history.replaceState.bind(history);
      history.replaceState = (...args) => {
        count += 1;
        return replace(...args);
      };
      const input = document.querySelector('roofline-calculator[kind="matmul"]').shadowRoot.querySelector('[data-field="n"] input[type="text"]');
      // 20 changes 50 ms apart: a second of dragging
      for (let i = 1; i <= 20; i += 1) {
        input.value = String(100 + i);
        input.dispatchEvent(new Event('input', { bubbles: true }));
        await new Promise((r) => setTimeout(r, 50));
      }
      const during = count;
      await new Promise((r) => setTimeout(r, 600));
      return { during, after: count, href: location.href };
    });
    assert.equal(writes.during, 0, 'no rewrite while the changes keep coming');
    assert.equal(writes.after, 1, 'one rewrite once they stop');
    assert.match(writes.href, /matmul\.n=120(&|$)/);
  } finally {
    await context.close();
  }
});

test('inputs live in the URL; a copied link restores them; hostile values are validated like typed input', async () => {
  const { page, context } = await openPage(env.browser, `${env.site.url}index.html?lang=en`, { allowedOrigin: env.site.url });
  let url;
  try {
    await field(page, 'matmul', 'n').fill('64');
    await field(page, 'roofline', 'intensity').fill('50');
    await select(page, 'decode', 'gpu').selectOption('h100-sxm');
    await field(page, 'roofline', 'peak').fill('100');
    assert.equal(await select(page, 'roofline', 'gpu').inputValue(), 'custom', 'typing a peak leaves the preset');
    await field(page, 'decode', 'batch').fill('8');
    await page.locator('roofline-calculator[kind="byhand"] input.cell[aria-label="A row 1, column 1"]').fill('7');
    // the address follows once the reader pauses (a quarter of a second)
    url = await until(page, () => /byhand\.a=/.test(location.href) && /decode\.batch=8/.test(location.href) && location.href);
    assert.match(url, /matmul\.n=64/);
    assert.match(url, /roofline\.intensity=50/);
    assert.match(url, /decode\.gpu=h100-sxm/);
    assert.doesNotMatch(url, /matmul\.k=|tile\.|quant\./, 'values left at their defaults stay out of the link');
    assert.match(url, /byhand\.a=7%2C1%2C3%3B1%2C0%2C2|byhand\.a=7,1,3;1,0,2/);
    // the copy-link button copies the same state
    await page.locator('roofline-calculator[kind="matmul"] button.copy').click();
    await until(page, () => {
      const r = document.querySelector('roofline-calculator[kind="matmul"]').shadowRoot;
      return r.querySelector('.copy-status').textContent !== '';
    });
    const copied = await page.evaluate(() => {
      const r = document.querySelector('roofline-calculator[kind="matmul"]').shadowRoot;
      const f = r.querySelector('.copy-field');
      return f.hidden ? navigator.clipboard.readText().catch(() => null) : f.value;
    });
    if (copied !== null) assert.match(copied, /matmul\.n=64/);
  } finally {
    await context.close();
  }
  const again = await openPage(env.browser, url, { allowedOrigin: env.site.url });
  try {
    const { page } = again;
    assert.equal(await field(page, 'matmul', 'n').inputValue(), '64');
    assert.equal((await rows(page, 'matmul')).macs, '65,536,000');
    assert.equal(await field(page, 'roofline', 'intensity').inputValue(), '50');
    assert.equal(await select(page, 'roofline', 'gpu').inputValue(), 'custom');
    assert.equal(await field(page, 'roofline', 'peak').inputValue(), '100');
    assert.equal(await select(page, 'decode', 'gpu').inputValue(), 'h100-sxm');
    assert.equal(await field(page, 'decode', 'bw').inputValue(), '3350');
    assert.equal(await field(page, 'decode', 'batch').inputValue(), '8');
    const cells = await page.locator('roofline-calculator[kind="byhand"] .c-value').allTextContents();
    assert.equal(cells[0], '515');
  } finally {
    await again.context.close();
  }
  const hostile = `${env.site.url}index.html?lang=xx&matmul.n=%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E&roofline.intensity=1e400&decode.batch=-3&roofline.gpu=evil&decode.kv=NaN&byhand.a=1,2;3&tile.tile=${'9'.repeat(500)}`;
  const bad = await openPage(env.browser, hostile, { allowedOrigin: env.site.url });
  try {
    const { page } = bad;
    let dialog = false;
    page.on('dialog', (d) => { dialog = true; d.dismiss(); });
    assert.equal(await page.getAttribute('html', 'lang'), 'en');
    assert.equal(await field(page, 'matmul', 'n').inputValue(), '<img src=x onerror=alert(1)>');
    assert.notEqual(await fieldError(page, 'matmul', 'n'), '');
    assert.equal(await page.locator('roofline-calculator[kind="matmul"] img').count(), 0);
    assert.notEqual(await fieldError(page, 'roofline', 'intensity'), '');
    assert.notEqual(await fieldError(page, 'decode', 'batch'), '');
    assert.notEqual(await fieldError(page, 'decode', 'kv'), '');
    assert.equal(await select(page, 'roofline', 'gpu').inputValue(), 't4');
    assert.equal((await rows(page, 'decode')).total, '—');
    const bh = await page.locator('roofline-calculator[kind="byhand"] .byhand-message').textContent();
    assert.ok(bh.length > 0, 'a ragged matrix from the URL is reported');
    assert.ok((await field(page, 'tile', 'tile').inputValue()).length <= 80, 'URL text is capped');
    assert.notEqual(await fieldError(page, 'tile', 'tile'), '');
    assert.equal(dialog, false);
  } finally {
    await bad.context.close();
  }
});

test('a hand-written link means what choosing its selects and typing its fields would', async () => {
  // what the reader gets by hand: a model, then a format
  const hand = await openPage(env.browser, `${env.site.url}index.html?lang=en`, { allowedOrigin: env.site.url });
  let byHand;
  let ownLink;
  let ownWeights;
  let ownRows;
  try {
    const { page } = hand;
    await select(page, 'decode', 'model').selectOption('c10-70b');
    await select(page, 'decode', 'format').selectOption('int4');
    byHand = await field(page, 'decode', 'weights').inputValue();
    // then the default format, which is not the model's own (FP8): the page's link names it
    await select(page, 'decode', 'format').selectOption('bf16');
    ownLink = await until(page, () => /decode\.format=bf16/.test(location.href) && location.href);
    assert.match(ownLink, /decode\.model=c10-70b/);
    ownWeights = await field(page, 'decode', 'weights').inputValue();
    ownRows = await rows(page, 'decode');
  } finally {
    await hand.context.close();
  }
  const cases = [
    // a bandwidth alone: the GPU named beside it would be wrong, so the select reads "custom"
    ['decode.bw=3000', [['decode', 'gpu', 'custom']], [['decode', 'bw', '3000']]],
    // a GPU alone brings its bandwidth (not the default GPU's)
    ['decode.gpu=h100-sxm', [['decode', 'gpu', 'h100-sxm']], [['decode', 'bw', '3350']]],
    // a GPU and its own bandwidth: nothing to contradict
    ['decode.gpu=h100-sxm&decode.bw=3350', [['decode', 'gpu', 'h100-sxm']], [['decode', 'bw', '3350']]],
    // a model and a format: the model does not put back its own format
    ['decode.model=c10-70b&decode.format=int4', [['decode', 'model', 'c10-70b'], ['decode', 'format', 'int4']], [['decode', 'weights', byHand]]],
    ['roofline.gpu=h100-sxm', [['roofline', 'gpu', 'h100-sxm'], ['roofline', 'precision', 'fp16']], [['roofline', 'peak', '990'], ['roofline', 'bw', '3350']]],
    ['roofline.gpu=l4&roofline.precision=fp8', [['roofline', 'gpu', 'l4'], ['roofline', 'precision', 'fp8']], [['roofline', 'peak', '242'], ['roofline', 'bw', '300']]],
    ['clocks.gpu=h100-sxm&clocks.bw=2000', [['clocks', 'gpu', 'custom']], [['clocks', 'bw', '2000'], ['clocks', 'peak', '990']]],
    ['quant.params=70', [['quant', 'model', 'custom']], [['quant', 'params', '70']]],
  ];
  for (const [query, selects, fields] of cases) {
    const { page, context } = await openPage(env.browser, `${env.site.url}index.html?lang=en&${query}`, { allowedOrigin: env.site.url });
    try {
      for (const [kind, id, value] of selects) assert.equal(await select(page, kind, id).inputValue(), value, `${query}: ${kind}'s ${id}`);
      for (const [kind, id, value] of fields) assert.equal(await field(page, kind, id).inputValue(), value, `${query}: ${kind}'s ${id}`);
    } finally {
      await context.close();
    }
  }
  // the page's own link comes back as it was left: the default format is not taken for the
  // model's own, nor its weights for typed ones (the compute roof is BF16's, not FP8's)
  const { page, context } = await openPage(env.browser, ownLink, { allowedOrigin: env.site.url });
  try {
    assert.equal(await select(page, 'decode', 'model').inputValue(), 'c10-70b');
    assert.equal(await select(page, 'decode', 'format').inputValue(), 'bf16');
    assert.equal(await select(page, 'decode', 'gpu').inputValue(), 'l4');
    assert.equal(await field(page, 'decode', 'weights').inputValue(), ownWeights);
    assert.deepEqual(await rows(page, 'decode'), ownRows);
  } finally {
    await context.close();
  }
});

test('a GPU without the precision chosen keeps the GPU\'s own figures: the precision falls back to the default', async () => {
  const { page, context, errors } = await openPage(env.browser, `${env.site.url}index.html?lang=en`, { allowedOrigin: env.site.url });
  try {
    await select(page, 'roofline', 'gpu').selectOption('h100-sxm');
    await select(page, 'roofline', 'precision').selectOption('fp8');
    assert.equal(await field(page, 'roofline', 'peak').inputValue(), '1979');
    // the T4 has no FP8 peak
    await select(page, 'roofline', 'gpu').selectOption('t4');
    assert.equal(await select(page, 'roofline', 'precision').inputValue(), 'fp16');
    assert.equal(await field(page, 'roofline', 'peak').inputValue(), '65');
    assert.equal(await field(page, 'roofline', 'bw').inputValue(), '320');
    assert.equal((await rows(page, 'roofline')).ridge, '203.1 FLOPs/B');
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

/**
 * The overlay chart's labels, as the browser lays them out: the number of kernel labels when no
 * label (a kernel's number or a roof's name) covers another or a point, and all lie inside the
 * plot; else what covers what.
 */
function overlayClash(page) {
  return page.evaluate(() => {
    const svg = document.querySelector('.bench svg.chart');
    const box = (el) => {
      const b = el.getBBox();
      return { x0: b.x, x1: b.x + b.width, y0: b.y, y1: b.y + b.height, text: el.textContent };
    };
    const labels = [...svg.querySelectorAll('.marker-label, .roof-label')].map(box);
    const points = [...svg.querySelectorAll('.marker circle')].map((c) => {
      const [x, y, r] = ['cx', 'cy', 'r'].map((a) => Number(c.getAttribute(a)));
      return { x0: x - r, x1: x + r, y0: y - r, y1: y + r, text: 'a point' };
    });
    const frame = box(svg.querySelector('.frame'));
    const hit = (a, b) => Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0) > 0.5 && Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0) > 0.5;
    for (const [i, a] of labels.entries()) {
      if (a.x0 < frame.x0 || a.x1 > frame.x1 || a.y0 < frame.y0 || a.y1 > frame.y1) return `${a.text} outside the plot`;
      for (const b of labels.slice(i + 1)) if (hit(a, b)) return `${a.text} on ${b.text}`;
      for (const b of points) if (hit(a, b)) return `${a.text} on ${b.text}`;
    }
    return svg.querySelectorAll('.marker-label').length;
  });
}

test('benchmark overlay: every result file shipped in docs/results loads and plots all its kernels', async () => {
  const { readdirSync, readFileSync } = await import('node:fs');
  const files = readdirSync(join(ROOT, 'docs/results')).filter((f) => f.endsWith('.json'));
  assert.ok(files.length >= 1, 'at least one measured result file');
  const { page, context, errors } = await openPage(env.browser, `${env.site.url}index.html`, { allowedOrigin: env.site.url });
  try {
    // a wide page, then a phone's: the narrow column's chart is drawn for it (compact, taller)
    for (const width of [1100, 420]) {
      await page.setViewportSize({ width, height: 900 });
      for (const f of files) {
        const data = JSON.parse(readFileSync(join(ROOT, 'docs/results', f), 'utf8'));
        await page.evaluate(() => document.querySelector('.bench svg.chart')?.remove());
        await page.locator('#bench-file').setInputFiles(join(ROOT, 'docs/results', f));
        await page.waitForSelector('.bench svg.chart');
        assert.equal(await page.locator('.bench .form-error').count(), 0, f);
        assert.equal(await page.locator('.bench svg.chart.compact').count(), width < 560 ? 1 : 0, `${f} at ${width} px`);
        await renderAll(page);
        const table = norm(await page.locator('.bench-table').innerText());
        for (const k of data.kernels) assert.ok(table.includes(norm(k.name)), `${f}: ${k.name} missing from the table`);
        // every point's number is readable: it covers no other number, no point and no roof's
        // label, and stays inside the plot (dozens of kernels lie close together)
        assert.equal(await overlayClash(page), data.kernels.length, `${f} at ${width} px: every kernel's number placed apart`);
        await page.locator('.bench').screenshot({ path: shotPath(`bench-${f.replace(/\.json$/, '')}${width < 560 ? '-phone' : ''}.png`) });
      }
    }
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('benchmark overlay: a good file draws the measured roofline, a bad one shows a translated error', async () => {
  const { page, context, errors } = await openPage(env.browser, `${env.site.url}index.html?lang=es`, { allowedOrigin: env.site.url });
  try {
    await page.locator('#bench-file').setInputFiles(join(ROOT, 'tests/web/fixtures/bench-cpu.json'));
    await page.waitForSelector('.bench svg.chart');
    await renderAll(page);
    const table = norm(await page.locator('.bench-table').innerText());
    assert.match(table, /STREAM triad/);
    assert.match(table, /SGEMM tiled 512/);
    assert.match(table, /GEMV INT4/);
    assert.equal(await page.locator('.bench svg .roof').count(), 2, 'measured and datasheet rooflines');
    assert.equal(await page.locator('.bench svg[role="img"] title').count(), 1);
    assert.equal(await overlayClash(page), 3);
    // roofs close together (a measured peak just over the datasheet's, or level with it): their
    // names do not cover each other
    const fixture = JSON.parse((await import('node:fs')).readFileSync(join(ROOT, 'tests/web/fixtures/bench-cpu.json'), 'utf8'));
    for (const ratio of [0.97, 1]) {
      const close = structuredClone(fixture);
      close.ceilings.datasheet.peakFlopsPerSecond.fp32 = close.ceilings.measured.peakFlopsPerSecond.fp32 * ratio;
      const roof = () => page.evaluate(() => document.querySelector('.bench svg .roof.datasheet')?.getAttribute('points'));
      const before = await roof();
      await page.locator('#bench-file').setInputFiles({ name: `close-${ratio}.json`, mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(close)) });
      await until(page, (was) => document.querySelector('.bench svg .roof.datasheet')?.getAttribute('points') !== was, before);
      assert.equal(await overlayClash(page), 3, `datasheet peak ${ratio} × the measured one`);
    }
    const errorText = (text) => until(page, (t) => {
      const e = document.querySelector('.bench .form-error');
      return e && e.textContent.replace(/\s+/g, ' ') === t;
    }, text);
    await page.locator('#bench-file').setInputFiles(join(ROOT, 'tests/web/fixtures/bench-bad.json'));
    await errorText('Al archivo del benchmark le falta un campo o trae uno inválido: ceilings.measured.bytesPerSecond.');
    assert.equal(await page.locator('.bench svg.chart').count(), 0);
    await page.locator('#bench-file').setInputFiles({ name: 'x.json', mimeType: 'application/json', buffer: Buffer.from('{not json') });
    await errorText('Este archivo no se pudo leer como JSON.');
    await page.locator('#bench-file').setInputFiles({ name: 'y.json', mimeType: 'application/json', buffer: Buffer.from('{"schema": "other/2"}') });
    await errorText('Este archivo no es un resultado roofline-bench/1 (su campo "schema" dice otra cosa).');
    // drag and drop a good file onto the drop zone
    const json = (await import('node:fs')).readFileSync(join(ROOT, 'tests/web/fixtures/bench-cpu.json'), 'utf8');
    await page.evaluate((text) => {
      const dt = new DataTransfer();
      dt.items.add(new File([text], 'bench.json', { type: 'application/json' }));
      const zone = document.querySelector('.drop-zone');
      zone.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true }));
      zone.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    }, json);
    await until(page, () => document.querySelector('.bench svg.chart'));
    assert.equal(await page.locator('.bench .form-error').count(), 0);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('benchmark overlay: integer dot products are rated in OPS against the INT8 ceiling, a GEMV that converts to FP32 in FLOPS (three languages)', async () => {
  const { readFileSync } = await import('node:fs');
  const fixture = JSON.parse(readFileSync(join(ROOT, 'tests/web/fixtures/bench-cpu.json'), 'utf8'));
  // a run that measured an INT8 ceiling (400 GOPS) beside the FP32 one (90 GFLOPS), at 12 GB/s
  fixture.ceilings.measured.peakFlopsPerSecond.int8 = 400e9;
  const int4 = fixture.kernels.find((k) => k.id === 'gemv_int4');
  assert.equal(int4.computeDtype, 'fp32');
  fixture.kernels.push({ ...int4, id: 'gemv_int8_dp', name: 'GEMV INT8 integer dot', dtype: 'int8', computeDtype: 'int8', flopsPerByte: 1.97, flopsPerSecond: 20e9 });
  // INT8 weights too, but converted to FP32 before the arithmetic: FLOPS, against FP32
  fixture.kernels.push({ ...int4, id: 'gemv_int8', name: 'GEMV INT8 (weight-only)', dtype: 'int8', computeDtype: 'fp32', flopsPerByte: 1.97, flopsPerSecond: 15e9 });
  const file = { name: 'int-dot.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(fixture)) };
  const want = {
    en: { intensity: '1.97 OPs/B', achieved: '20 GOPS', roof: '23.6 GOPS', share: '84.6%', int4: ['3.87 FLOPs/B', '40 GFLOPS', '46.4 GFLOPS'], int8: ['1.97 FLOPs/B', '15 GFLOPS', '23.6 GFLOPS'] },
    es: { intensity: '1.97 OPs/B', achieved: '20 GOPS', roof: '23.6 GOPS', share: '84.6%', int4: ['3.87 FLOPs/B', '40 GFLOPS', '46.4 GFLOPS'], int8: ['1.97 FLOPs/B', '15 GFLOPS', '23.6 GFLOPS'] },
    pt: { intensity: '1,97 OPs/B', achieved: '20 GOPS', roof: '23,6 GOPS', share: '84,6%', int4: ['3,87 FLOPs/B', '40 GFLOPS', '46,4 GFLOPS'], int8: ['1,97 FLOPs/B', '15 GFLOPS', '23,6 GFLOPS'] },
  };
  for (const lang of LANGS) {
    const { page, context, errors } = await openPage(env.browser, `${env.site.url}index.html?lang=${lang}`, { allowedOrigin: env.site.url });
    try {
      await page.locator('#bench-file').setInputFiles(file);
      await page.waitForSelector('.bench svg.chart');
      const rows = () => page.evaluate(() => Object.fromEntries([...document.querySelectorAll('.bench-table tbody tr')]
        .map((tr) => [...tr.children].map((c) => c.textContent.replace(/[\u00a0\u202f]/g, ' ').trim()))
        .map((cells) => [cells[0].replace(/^\d+\. /, ''), cells.slice(1)])));
      for (const precision of ['fp32', 'int8']) {
        // the chosen roof changes the chart, not a kernel's own roof or unit
        await page.locator('#bench-precision').selectOption(precision);
        const r = await rows();
        const w = want[lang];
        assert.deepEqual(r['GEMV INT8 integer dot'].slice(1, 5), [w.intensity, w.achieved, w.roof, w.share], `${lang}, ${precision}`);
        assert.deepEqual(r['GEMV INT4 (weight-only)'].slice(1, 4), w.int4, `${lang}, ${precision}`);
        assert.deepEqual(r['GEMV INT8 (weight-only)'].slice(1, 4), w.int8, `${lang}, ${precision}`);
        assert.equal(r['GEMV INT8 integer dot'][5], r['GEMV INT4 (weight-only)'][5], 'both memory-bound');
      }
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  }
});

test('keyboard: every control is reachable and labeled; charts are images with a title, a description and a table', async () => {
  const { page, context } = await openPage(env.browser, `${env.site.url}index.html?lang=en`, { allowedOrigin: env.site.url });
  try {
    const report = await page.evaluate(() => {
      const problems = [];
      let charts = 0;
      for (const el of document.querySelectorAll('roofline-calculator')) {
        const r = el.shadowRoot;
        for (const input of r.querySelectorAll('input, select')) {
          if (input.type === 'hidden' || input.hidden) continue;
          const labeled = input.getAttribute('aria-label') || (input.id && r.querySelector(`label[for="${input.id}"]`)) || input.closest('label');
          if (!labeled) problems.push(`${el.getAttribute('kind')}: unlabeled ${input.outerHTML.slice(0, 80)}`);
          if (input.tabIndex < 0) problems.push(`${el.getAttribute('kind')}: not focusable`);
        }
        for (const svg of r.querySelectorAll('svg.chart')) {
          charts += 1;
          if (svg.getAttribute('role') !== 'img' || !svg.querySelector('title') || !svg.querySelector('desc')) problems.push(`${el.getAttribute('kind')}: chart without role/title/desc`);
          if (!svg.parentElement.querySelector('table')) problems.push(`${el.getAttribute('kind')}: chart without a data table`);
        }
        if (!r.querySelector('[aria-live]')) problems.push(`${el.getAttribute('kind')}: no aria-live result`);
      }
      return { problems, charts };
    });
    assert.deepEqual(report.problems, []);
    assert.ok(report.charts >= 5);
    // drive the roofline slider with the keyboard
    const slider = page.locator('roofline-calculator[kind="roofline"] [data-field="intensity"] input[type="range"]');
    await slider.focus();
    for (let i = 0; i < 10; i += 1) await page.keyboard.press('ArrowRight');
    assert.notEqual(await field(page, 'roofline', 'intensity').inputValue(), '1');
    // a term in a calculator opens in place, and links to its glossary card
    await page.locator('roofline-calculator[kind="roofline"] details.term-tip[data-term="intensity"] summary').first().click();
    await page.locator('roofline-calculator[kind="roofline"] a.term[href="#glossary-intensity"]').first().click();
    assert.equal(await page.evaluate(() => location.hash), '#glossary-intensity');
    assert.ok(await page.locator('#glossary-intensity').isVisible());
    // arrow keys step a number field like a spin button
    await field(page, 'matmul', 'n').focus();
    await page.keyboard.press('ArrowUp');
    assert.equal(await field(page, 'matmul', 'n').inputValue(), '33');
    assert.equal((await rows(page, 'matmul')).macs, '33,792,000');
    await field(page, 'decode', 'weights').focus();
    await page.keyboard.press('ArrowDown');
    assert.equal(await field(page, 'decode', 'weights').inputValue(), '16.05');
  } finally {
    await context.close();
  }
});

test('the two diagrams follow the reader\'s numbers and walk through their tours', async () => {
  const { page, context, errors } = await openPage(env.browser, `${env.site.url}index.html?lang=en`, { allowedOrigin: env.site.url });
  try {
    // Every section laid out first (off screen they skip layout, content-visibility: auto): a
    // section laid out only when a click scrolls it near can move what is under the pointer
    // between the mouse press and the release (a click missed its node once, under load).
    await renderAll(page);
    await idle(page);
    const flow = page.locator('.diagram-flow');
    assert.equal(norm(await flow.locator('.node-weights .node-value').textContent()), '16.1 GB');
    // the node's detail (a live region) is marked, to see below that a change of the numbers
    // leaves it in place instead of writing it again (which would read it out again)
    await flow.locator('.node-detail .detail-title').evaluate((el) => { el.dataset.kept = 'yes'; });
    await field(page, 'decode', 'weights').fill('8.03');
    await idle(page);  // the diagrams redraw when the browser is idle
    assert.equal(norm(await flow.locator('.node-weights .node-value').textContent()), '8.03 GB');
    assert.equal(await flow.locator('.node-detail .detail-title[data-kept="yes"]').count(), 1);
    // choosing another node does write it
    const before = await flow.locator('.node-detail .detail-title').textContent();
    await flow.locator('.node-weights').click();
    assert.equal(await flow.locator('.node-weights').getAttribute('aria-pressed'), 'true');
    assert.notEqual(await flow.locator('.node-detail .detail-title').textContent(), before);
    assert.equal(await flow.locator('.node-detail .detail-title[data-kept]').count(), 0);
    await field(page, 'roofline', 'bw').fill('3350');
    await idle(page);  // the diagrams redraw when the browser is idle
    assert.equal(norm(await flow.locator('.flow-link').textContent()), '⇄3,350 GB/s');
    await field(page, 'roofline', 'bw').fill('320');
    await idle(page);
    // the limits diagram: the reader's matmul on the reader's GPU, then the lesson's tours
    const limits = page.locator('.diagram-limits');
    assert.equal(await limits.locator('.node-memoryBound.verdict-on').count(), 1);
    await field(page, 'matmul', 'n').fill('4096');
    await field(page, 'matmul', 'k').fill('4096');
    await field(page, 'matmul', 'm').fill('4096');
    await idle(page);  // the diagrams redraw when the browser is idle
    assert.equal(await limits.locator('.node-computeBound.verdict-on').count(), 1);
    await limits.locator('.tour-btn').nth(2).click();
    assert.equal(norm(await limits.locator('.node-intensity .node-value').textContent()), '1 FLOPs/B');
    assert.equal(await limits.locator('.node-memoryBound.verdict-on').count(), 1);
    assert.equal(norm(await limits.locator('.step-count').textContent()), 'Step 1 of 4');
    const first = await limits.locator('.step-text').textContent();
    await limits.locator('.step-nav button').nth(1).click();
    assert.equal(norm(await limits.locator('.step-count').textContent()), 'Step 2 of 4');
    assert.notEqual(await limits.locator('.step-text').textContent(), first);
    assert.ok((await limits.locator('.step-text').textContent()).length > 20);
    await limits.locator('.tour-btn').nth(1).click();
    assert.equal(norm(await limits.locator('.node-intensity .node-value').textContent()), '1,365 FLOPs/B');
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('axe-core finds no violations (light and dark), and screenshots of every calculator', async () => {
  for (const scheme of ['light', 'dark']) {
    const { page, context } = await openPage(env.browser, `${env.site.url}index.html?lang=en`, { allowedOrigin: env.site.url, colorScheme: scheme, bypassCSP: true });
    try {
      await page.addScriptTag({ path: join(ROOT, 'tests/node_modules/axe-core/axe.min.js') });
      const result = await page.evaluate(async () => {
        // eslint-disable-next-line no-undef
        const r = await axe.run(document, { resultTypes: ['violations'] });
        return r.violations.map((v) => `${v.id}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
      });
      assert.deepEqual(result, [], `axe violations (${scheme})`);
      for (const kind of KINDS) {
        await page.locator(`roofline-calculator[kind="${kind}"]`).screenshot({ path: shotPath(`${kind}-${scheme}.png`) });
      }
      for (const id of ['flow', 'limits', 'glossary']) await page.locator(`#${id}`).screenshot({ path: shotPath(`${id}-${scheme}.png`) });
      await page.setViewportSize({ width: 390, height: 844 });
      await page.screenshot({ path: shotPath(`phone-${scheme}.png`) });
      // again with errors showing, a benchmark loaded, a tour running and every <details> open
      await field(page, 'matmul', 'n').fill('abc');
      await page.locator('#bench-file').setInputFiles(join(ROOT, 'tests/web/fixtures/bench-cpu.json'));
      await until(page, () => document.querySelector('.bench svg.chart'));
      await page.locator('.diagram-limits .tour-btn').nth(1).click();
      await page.evaluate(() => {
        const open = (root) => root.querySelectorAll('details').forEach((d) => { d.open = true; });
        open(document);
        document.querySelectorAll('roofline-calculator').forEach((el) => open(el.shadowRoot));
      });
      const again = await page.evaluate(async () => {
        // eslint-disable-next-line no-undef
        const r = await axe.run(document, { resultTypes: ['violations'] });
        return r.violations.map((v) => `${v.id}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
      });
      assert.deepEqual(again, [], `axe violations with errors, benchmark and open details (${scheme})`);
      await field(page, 'matmul', 'n').fill('32');
    } finally {
      await context.close();
    }
  }
});

test('a chart\'s data table the reader opened stays open while the inputs change', async () => {
  const { page, context, errors } = await openPage(env.browser, `${env.site.url}index.html?lang=en#calc-decode`, { allowedOrigin: env.site.url });
  try {
    // its first chart (tokens per second; the second is the cost per million tokens)
    const calc = page.locator('roofline-calculator[kind="decode"]').locator('.chart-box').first();
    await calc.locator('details.chart-data summary').click();
    await field(page, 'decode', 'batch').fill('8');
    await frames(page);
    assert.equal(await calc.locator('details.chart-data').evaluate((d) => d.open), true);
    assert.match(norm(await calc.locator('details.chart-data table').textContent()), /1,024/);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('the top of the page comes first; an anchor or printing brings the whole page at once', async () => {
  const base = `${env.site.url}index.html?lang=en`;
  // Without an anchor: the first sections are there before the rest, which follows on its own.
  const context = await env.browser.newContext({ viewport: { width: 1100, height: 900 } });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  // Record the page as it is right after its first render (before any idle time). The served page
  // then loads its later parts (roofline-page-more.js); once that script has run, and before an
  // idle moment has rendered anything more, ask to print.
  await page.addInitScript(() => {
    const seen = new MutationObserver(() => {
      const lab = document.getElementById('lab');
      if (!lab || lab.dataset.rendered !== 'top' || window.__firstRender) return;
      window.__firstRender = {
        sections: document.querySelectorAll('main > section').length,
        glossary: !!document.getElementById('glossary'),
      };
      seen.disconnect();
    });
    seen.observe(document, { subtree: true, attributes: true, attributeFilter: ['data-rendered'] });
    // (the second part is its code and its texts: printing draws the rest once both are here)
    const loaded = (el) => new Promise((resolve) => el.addEventListener('load', resolve));
    const scripts = new MutationObserver(() => {
      const more = document.querySelector('script[src$="roofline-page-more.js"]');
      const texts = document.querySelector('script[src*="roofline-texts-more."]');
      if (!more || !texts) return;
      scripts.disconnect();
      Promise.all([loaded(more), loaded(texts)]).then(() => {
        // (after the page's own load listener and the promise reactions it starts)
        setTimeout(() => {
          const lab = document.getElementById('lab');
          window.__beforePrint = { rendered: lab.dataset.rendered, sections: document.querySelectorAll('main > section').length };
          dispatchEvent(new Event('beforeprint'));
          // the calculators render once their module promise settles: look after the microtasks
          setTimeout(() => {
            window.__afterPrint = {
              rendered: lab.dataset.rendered,
              sections: document.querySelectorAll('main > section').length,
              pending: document.querySelectorAll('roofline-calculator[data-pending]').length,
              empty: [...document.querySelectorAll('roofline-calculator')].filter((el) => !el.shadowRoot || !el.shadowRoot.querySelector('.calc, .practice')).length,
            };
          }, 0);
        }, 0);
      });
    });
    scripts.observe(document, { subtree: true, childList: true });
  });
  await page.goto(base);
  const first = await until(page, () => window.__firstRender);
  assert.ok(first.sections >= 1 && first.sections < 8, `first render has ${first.sections} sections`);
  assert.equal(first.glossary, false);
  const printed = await until(page, () => window.__afterPrint);
  const before = await page.evaluate(() => window.__beforePrint);
  assert.equal(before.rendered, 'top', 'the rest of the page was not rendered yet when printing began');
  assert.ok(before.sections < SECTION_COUNT);
  assert.equal(printed.rendered, 'all');
  assert.equal(printed.sections, SECTION_COUNT);
  assert.equal(printed.pending, 0);
  assert.equal(printed.empty, 0, 'every calculator and exercise is rendered for printing');
  await context.close();

  // A link straight to a glossary card at the bottom: the card is there and scrolled to.
  const c2 = await env.browser.newContext({ viewport: { width: 1100, height: 900 } });
  const p2 = await c2.newPage();
  await p2.goto(`${base}#glossary-intensity`);
  await until(p2, () => {
    const card = document.getElementById('glossary-intensity');
    if (!card) return false;
    const r = card.getBoundingClientRect();
    return r.top < innerHeight && r.bottom > 0;
  });
  // and following an anchor while the page is still rendering reaches it as well
  const p3 = await c2.newPage();
  await p3.addInitScript(() => {
    const seen = new MutationObserver(() => {
      const lab = document.getElementById('lab');
      if (!lab || lab.dataset.rendered !== 'top') return;
      seen.disconnect();
      window.__hashWhileTop = true;
      location.hash = '#check';
    });
    seen.observe(document, { subtree: true, attributes: true, attributeFilter: ['data-rendered'] });
  });
  await p3.goto(base);
  await until(p3, () => {
    const s = document.getElementById('check');
    if (!window.__hashWhileTop || !s || document.getElementById('lab').dataset.rendered !== 'all') return false;
    const r = s.getBoundingClientRect();
    return r.top < innerHeight / 2 && r.bottom > 0;
  });
  await c2.close();
  assert.deepEqual(errors, []);
});

// The results table's columns have set shares (calculator.css): before, a number one digit shorter
// in one row resized every column, and the first calculator's table grew by a line and back as n
// went from 1,000 to 2,000, moving the page below it.
test('a calculator\'s results table keeps its size while a number changes', async () => {
  const cases = [['matmul', 'n', ['1000', '2000', '64', '4096']], ['decode', 'batch', ['1', '64', '8']], ['roofline', 'intensity', ['10', '100', '3']]];
  for (const lang of ['en', 'es']) {
    const { page, context, errors } = await openPage(env.browser, `${env.site.url}index.html?lang=${lang}`, { allowedOrigin: env.site.url });
    try {
      for (const [kind, id, values] of cases) {
        const heights = [];
        for (const v of values) {
          await field(page, kind, id).fill(v);
          await frames(page);
          heights.push(await page.evaluate((k) => document.querySelector(`roofline-calculator[kind="${k}"]`).shadowRoot.querySelector('.work').getBoundingClientRect().height, kind));
        }
        assert.ok(heights.every((x) => x === heights[0]), `${lang} ${kind}: ${id} ${values} gave heights ${heights}`);
      }
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  }
});

test('a chart updated in place after input changes is the chart drawn afresh for the same values', async () => {
  // [calculator, field, values typed in turn (the last one stays)]; URL keys are <kind>.<field>
  const cases = [
    ['roofline', 'intensity', ['10', '300', '42']],
    ['decode', 'batch', ['64', '1024', '8']],
    ['batching', 'batch', ['1', '4096', '64']],
    ['clocks', 'tokens', ['100', '4000', '2000']],
    ['tile', 'tile', ['8', '128', '64']],
    ['quant', 'params', ['70', '1', '8']],
    ['step', 'context', ['1024', '100000', '5000']],
    ['speculative', 'gamma', ['2', '16', '7']],
    // then another of their inputs: the curves kept while the batch moved are drawn again
    ['roofline', 'bw', ['300', '3000']],
    ['decode', 'kv', ['0.5', '2']],
    ['batching', 'inputs', ['1024', '8192']],
    ['tile', 'select:dtype', ['fp32']],
    ['speculative', 'batch', ['32', '4']],
  ];
  // the chart box as markup, without the generated ids that tie a chart's title to its label
  const chartOf = (kind) => document.querySelector(`roofline-calculator[kind="${kind}"]`).shadowRoot
    .querySelector('svg.chart').parentElement.innerHTML.replace(/ (id|aria-labelledby)="[^"]*"/g, '');
  const { page, context } = await openPage(env.browser, `${env.site.url}index.html?lang=en`, { allowedOrigin: env.site.url });
  const params = new URLSearchParams({ lang: 'en' });
  const updated = {};
  try {
    for (const [kind, id, values] of cases) {
      const name = id.replace(/^select:/, '');
      for (const v of values) {
        if (id === name) await field(page, kind, id).fill(v);
        else await select(page, kind, name).selectOption(v);
        await frames(page);
      }
      updated[kind] = await page.evaluate(chartOf, kind);
      params.set(`${kind}.${name}`, values[values.length - 1]);
    }
  } finally {
    await context.close();
  }
  const fresh = await openPage(env.browser, `${env.site.url}index.html?${params}`, { allowedOrigin: env.site.url });
  try {
    for (const kind of new Set(cases.map(([k]) => k))) {
      await renderAll(fresh.page);
      const drawn = await fresh.page.evaluate(chartOf, kind);
      assert.ok(drawn.includes('<svg'), `${kind}: a chart`);
      assert.equal(updated[kind], drawn, `${kind}: the chart after typing equals the chart drawn from the link`);
    }
  } finally {
    await fresh.context.close();
  }
});

test("the page writes numbers as Chromium's Intl.NumberFormat does, in each language", async () => {
  const { formatNumber } = await import('../../web/src/format.js');
  const { LOCALES } = await import('../../web/src/lang.js');
  const { INTL_OPTIONS, awkwardNumbers } = await import('./numbers.mjs');
  const xs = awkwardNumbers(1500);
  const page = await env.browser.newPage();
  try {
    const theirs = await page.evaluate(({ xs, locales, options }) => {
      const out = {};
      for (const [lang, locale] of Object.entries(locales)) {
        for (const [name, o] of Object.entries(options)) {
          const f = new Intl.NumberFormat(locale, o);
          out[`${lang} ${name}`] = xs.map((x) => f.format(x));
        }
      }
      return out;
    }, { xs: xs.map((x) => (Object.is(x, -0) ? 0 : x)), locales: LOCALES, options: INTL_OPTIONS });
    for (const [key, values] of Object.entries(theirs)) {
      const [lang, name] = key.split(' ');
      const wrong = xs.map((x) => (Object.is(x, -0) ? 0 : x)).map((x, i) => [x, formatNumber(x, lang, name), values[i]]).filter(([, a, b]) => a !== b);
      assert.deepEqual(wrong.slice(0, 5), [], `${key}: ${wrong.length} of ${xs.length} differ from Chromium's`);
    }
  } finally {
    await page.close();
  }
});

test("the contents' two columns leave room for the second column's numbers, in each language", async () => {
  for (const lang of LANGS) {
    const { page, context } = await openPage(env.browser, `${env.site.url}index.html?lang=${lang}`, { allowedOrigin: env.site.url });
    try {
      await until(page, (n) => document.querySelectorAll('.toc li').length === n, SECTION_COUNT);
      const gap = await page.evaluate(() => {
        const boxes = [...document.querySelectorAll('.toc li')].map((li) => li.getBoundingClientRect());
        const firstLeft = boxes[0].left;
        const left = boxes.filter((b) => Math.abs(b.left - firstLeft) < 1);
        const right = boxes.filter((b) => b.left > firstLeft + 1);
        if (!right.length) return null; // one column (narrow screens): nothing to overlap
        const marker = parseFloat(getComputedStyle(document.querySelector('.toc ol')).paddingLeft);
        return Math.min(...right.map((b) => b.left)) - Math.max(...left.map((b) => b.right)) - marker;
      });
      assert.ok(gap === null || gap >= 8, `${lang}: the first column's text ends ${gap} px before the second column's numbers`);
    } finally {
      await context.close();
    }
  }
});

test("the first screen works on its own; when the page's later parts cannot load, the reader is told so in their language", async () => {
  const context = await env.browser.newContext({ viewport: { width: 1100, height: 900 }, locale: 'es-MX' });
  const requested = [];
  await context.route('**/*', (route) => {
    const u = route.request().url();
    requested.push(u);
    if (/roofline-page-more\.js$/.test(u)) return route.abort();
    return route.continue();
  });
  const page = await context.newPage();
  const pageErrors = [];
  page.on('pageerror', (e) => pageErrors.push(e.message));
  try {
    await page.goto(`${env.site.url}index.html?lang=es`);
    // the first calculator shows the lesson's number and answers a change, with the first part alone
    await until(page, () => {
      const o = document.querySelector('roofline-calculator[kind="matmul"]')?.shadowRoot?.querySelector('output[data-row="flops"]');
      return o && o.textContent === '65,536,000';
    });
    await field(page, 'matmul', 'n').fill('1000');
    await until(page, () => document.querySelector('roofline-calculator[kind="matmul"]').shadowRoot.querySelector('output[data-row="flops"]').textContent === '2,048,000,000'); // 2 × 1,000 × 2,048 × 500
    const alert = await until(page, () => document.querySelector('main [data-more-failed]')?.textContent);
    const ui = loadUi();
    assert.equal(alert, ui['page.moreFailed'].es);
    assert.equal(await page.evaluate(() => document.getElementById('lab').dataset.rendered), 'top');
    assert.deepEqual(pageErrors, [], 'nothing thrown: every text the first screen shows came with its first part');
    assert.ok(requested.some((u) => u.endsWith('roofline-texts-more.es.js')), 'the later texts were asked for too');
    // a link to the first screen's own anchor still shows it, the rest failing
    const p2 = await context.newPage();
    await p2.goto(`${env.site.url}index.html?lang=es#calc-matmul`);
    await until(p2, () => document.querySelector('roofline-calculator[kind="matmul"]')?.shadowRoot?.querySelector('output[data-row="flops"]')?.textContent === '65,536,000');
    await until(p2, () => document.querySelector('main [data-more-failed]'));
    await p2.close();
    // a language switch that needs the later parts leaves the page as it was, in its language
    const tries = () => requested.filter((u) => u.endsWith('roofline-page-more.js')).length;
    const before = tries();
    await page.locator('button[data-lang="pt"]').click();
    await until(page, () => document.querySelectorAll('main [data-more-failed]').length === 1 && document.documentElement.lang === 'es');
    for (let i = 0; i < 50 && tries() === before; i += 1) await new Promise((r) => setTimeout(r, 50));
    assert.ok(tries() > before, 'the switch tried to load the later parts again');
    assert.equal(await page.locator('button[data-lang="es"]').getAttribute('aria-pressed'), 'true');
  } finally {
    await context.close();
  }
});

test('the last language asked for wins; a calculator whose kind changes early waits for its code', async () => {
  const context = await env.browser.newContext({ viewport: { width: 1100, height: 900 } });
  // Portuguese texts arrive late: a reader who asks for Portuguese, then Spanish, reads Spanish
  await context.route(/roofline-texts(-more)?\.pt\.js$/, async (route) => {
    await new Promise((r) => setTimeout(r, 1500));
    route.continue();
  });
  const page = await context.newPage();
  try {
    await page.goto(`${env.site.url}index.html?lang=en`);
    await waitReady(page);
    await page.locator('button[data-lang="pt"]').click();
    await page.locator('button[data-lang="es"]').click();
    await until(page, () => document.documentElement.lang === 'es');
    await new Promise((r) => setTimeout(r, 2000)); // the Portuguese files have arrived by now
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'es');
    assert.equal(await page.locator('button[data-lang="es"]').getAttribute('aria-pressed'), 'true');

    // the first calculator turned into another kind before the page's later parts are here
    const p2 = await context.newPage();
    await context.route('**/roofline-page-more.js', async (route) => {
      await new Promise((r) => setTimeout(r, 800));
      route.continue();
    });
    await p2.goto(`${env.site.url}index.html?lang=en`);
    await until(p2, () => document.querySelector('roofline-calculator[kind="matmul"]')?.shadowRoot?.querySelector('output[data-row="flops"]'));
    await p2.evaluate(() => document.querySelector('roofline-calculator[kind="matmul"]').setAttribute('kind', 'decode'));
    await until(p2, () => document.querySelector('#calc-matmul').shadowRoot.querySelector('output[data-row="total"]'));
    assert.equal(await p2.evaluate(() => [...document.querySelector('#calc-matmul').shadowRoot.querySelectorAll('.form-error')].map((e) => e.textContent).join(' | ')), '');
  } finally {
    await context.close();
  }
});
