// The lesson's four tables on the page (web/src/tables.js): each beside the calculator or diagram
// it belongs to, with a caption, column headers and row headers, in a focusable region that
// scrolls on a phone, in English, Spanish and Portuguese, and showing the lesson's numbers in
// each language's notation. Every number is computed by the module from catalog ids and lesson
// cases; the expectations below are the lesson's figures as the page formats them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, norm, until, useBrowserAndSite, LANGS, renderAll } from './helpers.mjs';

const env = useBrowserAndSite();

// en and es (es-MX) write 2,039 and 0.5; pt (pt-BR) writes 2.039 and 0,5.
const L = (en, pt, es = en) => ({ en, es, pt });
const BOUND = {
  memory: { en: 'memory-bound', es: 'memory-bound: manda la memoria', pt: 'memory-bound: a memória ganha' },
  compute: { en: 'compute-bound', es: 'compute-bound: manda el cálculo', pt: 'compute-bound: o cálculo ganha' },
};
const YES = { en: 'Yes', es: 'Sí', pt: 'Sim' };
const NO = { en: 'No', es: 'No', pt: 'Não' };

/** Where each table sits: its section, and the calculator or diagram it follows. */
const PLACES = {
  gpus: { section: 'roofline', after: 'roofline-calculator[kind="roofline"]' },
  listing: { section: 'roofline', after: '#table-gpus' },
  intensity: { section: 'flow', after: '.diagram-flow' },
  uses: { section: 'batching', after: 'roofline-calculator[kind="batching"]' },
};

/**
 * The lesson's numbers, row by row (data-row) and column by column (data-col), per language.
 * GPUs: the ridge is shown to a tenth (the lesson prints 203, 403, 153 and 295: 990 ÷ 3.35 is
 * 295.5); the decode ceiling is bandwidth ÷ 16.06 GB (the lesson's ≈ 19 on an L4, ≈ 127 on an
 * A100 80 GB, ≈ 209 on an H100; the T4 has no BF16, so no BF16 ceiling).
 * Listing: the Python listing's output, four decimals of milliseconds. Intensity: 0.5, ≈ 1,
 * ≈ 341, ≈ 1,365 with ≈ 33.6 million and ≈ 137 billion FLOPs, ≈ 33.6, ≈ 6.3 and ≈ 101 MB.
 * Uses per weight: ≈ 3,100 (3,092.6 to the unit), 206, 54 and 1.
 */
const EXPECTED = {
  gpus: {
    // the T4 has no BF16: no BF16 ceiling, only a word (the lesson: "soporte de BF16, que la T4 no tiene")
    t4: { peak: L('65', '65'), bandwidth: L('320', '320'), ridge: L('203.1', '203,1'), ceiling: { en: 'no BF16', es: 'sin BF16', pt: 'sem BF16' }, fits: NO },
    l4: { peak: L('121', '121'), bandwidth: L('300', '300'), ridge: L('403.3', '403,3'), ceiling: L('18.7', '18,7'), fits: YES },
    'a100-80gb': { peak: L('312', '312'), bandwidth: L('2,039', '2.039'), ridge: L('153.0', '153,0'), ceiling: L('127', '127'), fits: YES },
    'h100-sxm': { peak: L('990', '990'), bandwidth: L('3,350', '3.350'), ridge: L('295.5', '295,5'), ceiling: L('209', '209'), fits: YES },
  },
  listing: {
    'matmul-4096': { intensity: L('1,365.3', '1.365,3'), compute: L('2.1144', '2,1144'), memory: L('0.3146', '0,3146'), bound: BOUND.compute },
    'matvec-4096': { intensity: L('1.0', '1,0'), compute: L('0.0005', '0,0005'), memory: L('0.1049', '0,1049'), bound: BOUND.memory },
    'c01-last-layer': { intensity: L('29.6', '29,6'), compute: L('0.0010', '0,0010'), memory: L('0.0069', '0,0069'), bound: BOUND.memory },
    'llama-l4-decode': { intensity: L('1.0', '1,0'), compute: L('0.1327', '0,1327'), memory: L('53.5333', '53,5333'), bound: BOUND.memory },
    'llama-l4-prefill': { intensity: L('2,000.0', '2.000,0'), compute: L('265.4545', '265,4545'), memory: L('53.5333', '53,5333'), bound: BOUND.compute },
  },
  intensity: {
    'dot-4096': { intensity: L('0.5', '0,5'), flops: L('8.19 kFLOPs', '8,19 kFLOPs'), bytes: L('16.4 kB', '16,4 kB') },
    'matvec-4096': { intensity: L('1', '1'), flops: L('33.6 MFLOPs', '33,6 MFLOPs'), bytes: L('33.6 MB', '33,6 MB') },
    'matmul-1024': { intensity: L('341', '341'), flops: L('2.15 GFLOPs', '2,15 GFLOPs'), bytes: L('6.29 MB', '6,29 MB') },
    'matmul-4096': { intensity: L('1,365', '1.365'), flops: L('137 GFLOPs', '137 GFLOPs'), bytes: L('101 MB', '101 MB') },
  },
  uses: {
    // as the lesson's table writes them: 668 M MACs ÷ 0.216 M weights, 1,464 M ÷ 7.1 M (the
    // Spanish page once wrote "1460 M"), 809 M ÷ 15.0 M, 1,024,000 ÷ 1,024,500
    stage1: { uses: L('3,093', '3.093'), macs: L('668 M', '668 M'), weights: L('0.216 M', '0,216 M') },
    stage3: { uses: L('206', '206'), macs: L('1,464 M', '1.464 M'), weights: L('7.1 M', '7,1 M') },
    stage4: { uses: L('54', '54'), macs: L('809 M', '809 M'), weights: L('15 M', '15 M') },
    fc: { uses: L('1', '1'), macs: L('1,024,000', '1.024.000'), weights: L('1,024,500', '1.024.500') },
  },
};
const ROW_NAMES = {
  gpus: { t4: 'NVIDIA T4', 'h100-sxm': 'NVIDIA H100 SXM' },
  intensity: { 'matmul-1024': { en: 'Two 1,024 × 1,024 matrices', es: 'Dos matrices de 1,024 × 1,024', pt: 'Duas matrizes de 1.024 × 1.024' } },
};

/** Everything a test needs to know about the four tables, read from the page. */
async function readTables(page) {
  const raw = await page.evaluate((places) => {
    const out = {};
    for (const [id, place] of Object.entries(places)) {
      const table = document.querySelector(`table[data-table="${id}"]`);
      if (!table) continue;
      const section = table.closest('section');
      const anchor = section && section.querySelector(place.after);
      const region = table.closest('.table-scroll');
      out[id] = {
        section: section && section.id,
        afterAnchor: Boolean(anchor && (anchor.compareDocumentPosition(table) & Node.DOCUMENT_POSITION_FOLLOWING)),
        inCalculator: Boolean(table.closest('roofline-calculator')),
        caption: table.caption ? table.caption.textContent : '',
        headers: [...table.querySelectorAll('thead th')].map((th) => ({ scope: th.getAttribute('scope'), text: th.textContent })),
        rows: [...table.tBodies[0].rows].map((tr) => ({
          id: tr.dataset.row,
          head: tr.cells[0].tagName === 'TH' ? { scope: tr.cells[0].getAttribute('scope'), text: tr.cells[0].textContent } : null,
          cells: Object.fromEntries([...tr.cells].slice(1).map((td) => [td.dataset.col, td.textContent])),
          tds: [...tr.cells].slice(1).every((c) => c.tagName === 'TD'),
        })),
        region: region && {
          role: region.getAttribute('role'),
          tabindex: region.getAttribute('tabindex'),
          label: region.getAttribute('aria-label'),
        },
      };
    }
    return out;
  }, PLACES);
  for (const t of Object.values(raw)) {
    t.caption = norm(t.caption);
    for (const r of t.rows) {
      for (const k of Object.keys(r.cells)) r.cells[k] = norm(r.cells[k]);
      if (r.head) r.head.text = norm(r.head.text);
    }
  }
  return raw;
}

const captions = {};

for (const lang of LANGS) {
  test(`the four tables are where the lesson has them, as real tables, with the lesson's numbers (${lang})`, async () => {
    const { page, context, errors } = await openPage(env.browser, `${env.site.url}index.html?lang=${lang}`, { allowedOrigin: env.site.url });
    try {
      const tables = await readTables(page);
      assert.deepEqual(Object.keys(tables).sort(), Object.keys(PLACES).sort(), 'every table is on the page');
      captions[lang] = {};
      for (const [id, place] of Object.entries(PLACES)) {
        const tb = tables[id];
        const where = `${id} (${lang})`;
        assert.equal(tb.section, place.section, `${where}: in the section of its calculator or diagram`);
        assert.ok(tb.afterAnchor, `${where}: after ${place.after}`);
        assert.equal(tb.inCalculator, false, `${where}: on the page, not inside a calculator`);
        assert.ok(tb.caption.length > 10, `${where}: a caption`);
        captions[lang][id] = tb.caption;
        assert.ok(tb.headers.length >= 4 && tb.headers.every((x) => x.scope === 'col' && x.text.trim()), `${where}: column headers`);
        assert.ok(tb.rows.length >= 4, `${where}: rows`);
        for (const r of tb.rows) {
          assert.ok(r.head && r.head.scope === 'row' && r.head.text, `${where}: row ${r.id} has a row header`);
          assert.ok(r.tds, `${where}: row ${r.id}: data cells are td`);
          assert.equal(Object.keys(r.cells).length + 1, tb.headers.length, `${where}: row ${r.id} has a cell per column`);
          for (const v of Object.values(r.cells)) assert.doesNotMatch(v, /NaN|Infinity|undefined|—|\{/, `${where}: row ${r.id}`);
        }
        assert.deepEqual(tb.region, { role: 'region', tabindex: '0', label: tb.caption }, `${where}: a focusable, labelled scrolling region`);
        // the lesson's numbers
        const rows = Object.fromEntries(tb.rows.map((r) => [r.id, r]));
        assert.deepEqual(Object.keys(rows), Object.keys(EXPECTED[id]), `${where}: the lesson's rows, in its order`);
        for (const [row, cols] of Object.entries(EXPECTED[id])) {
          for (const [col, texts] of Object.entries(cols)) assert.equal(rows[row].cells[col], texts[lang], `${where}: ${row}.${col}`);
        }
        for (const [row, name] of Object.entries(ROW_NAMES[id] || {})) {
          assert.equal(rows[row].head.text, typeof name === 'string' ? name : name[lang], `${where}: ${row} is named`);
        }
      }
      // the listing names each operation's GPU
      const gpuOf = Object.fromEntries(tables.listing.rows.map((r) => [r.id, r.cells.gpu]));
      assert.deepEqual(gpuOf, {
        'matmul-4096': 'NVIDIA T4', 'matvec-4096': 'NVIDIA T4', 'c01-last-layer': 'NVIDIA T4',
        'llama-l4-decode': 'NVIDIA L4', 'llama-l4-prefill': 'NVIDIA L4',
      });
      // the notes are filled: the T4 has no BF16 to decode Llama 3 8B in, and the ResNet note names the T4 ridge
      await renderAll(page);
      const notes = norm(await page.locator('.lesson-table-box .table-note').allInnerTexts().then((x) => x.join(' | ')));
      assert.doesNotMatch(notes, /\{[A-Za-z]+\}|NaN|undefined/);
      assert.match(notes, lang === 'pt' ? /16,1 GB/ : /16\.1 GB/, 'the weights of Llama 3 8B in the GPU note');
      assert.match(notes, /NVIDIA T4[^|]*BF16/, 'the T4 has no BF16');
      assert.match(notes, lang === 'pt' ? /203,1/ : /203\.1/, 'the T4 ridge in the ResNet note, to a tenth');
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });
}

test('the captions are translated, and a language switch redraws the tables in the new language', async () => {
  for (const id of Object.keys(PLACES)) {
    assert.notEqual(captions.es?.[id], captions.en?.[id], `${id}: Spanish caption`);
    assert.notEqual(captions.pt?.[id], captions.en?.[id], `${id}: Portuguese caption`);
  }
  const { page, context, errors } = await openPage(env.browser, `${env.site.url}index.html?lang=en`, { allowedOrigin: env.site.url });
  try {
    await page.locator('.lang-switch button[data-lang="pt"]').click();
    await until(page, (l) => document.documentElement.lang === l, 'pt');  // the language's texts load first
    const cell = () => page.locator('table[data-table="gpus"] tr[data-row="a100-80gb"] td[data-col="bandwidth"]').textContent();
    assert.equal(norm(await cell()), '2.039');
    assert.equal(await page.locator('table.lesson-table').count(), 6, 'no table drawn twice (the four above, the lesson\'s GPU table and the prefixes)');
    assert.equal(norm(await page.locator('table[data-table="uses"] caption').textContent()), captions.pt.uses);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('on a phone, a wide table scrolls inside its region, which the keyboard can reach; the page does not', async () => {
  const { page, context } = await openPage(env.browser, `${env.site.url}index.html?lang=es`, { allowedOrigin: env.site.url, viewport: { width: 390, height: 844 } });
  try {
    const r = await page.evaluate(() => {
      const box = document.querySelector('table[data-table="listing"]').closest('.table-scroll');
      return {
        scrolls: box.scrollWidth > box.clientWidth,
        overflow: getComputedStyle(box).overflowX,
        pageWidth: document.documentElement.scrollWidth,
        viewport: window.innerWidth,
      };
    });
    assert.ok(r.scrolls, 'the listing is wider than a phone');
    assert.equal(r.overflow, 'auto');
    assert.ok(r.pageWidth <= r.viewport, `the page itself does not scroll sideways (${r.pageWidth} > ${r.viewport})`);
    const region = page.locator('table[data-table="listing"]').locator('xpath=ancestor::div[contains(@class, "table-scroll")]');
    await region.focus();
    assert.equal(await page.evaluate(() => document.activeElement.getAttribute('role')), 'region');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await until(page, () => document.activeElement.scrollLeft > 0, null, { timeout: 5000 });
  } finally {
    await context.close();
  }
});
