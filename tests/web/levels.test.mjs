// The memory hierarchy on the page: the benchmark overlay draws one roof per level of a native
// result (ceilings.measured.levels) and judges each kernel against the level its working set fits
// in; "Measure this device" reads the same data from 16 KiB to 256 MiB and shows the device's
// cache against its memory, on the served page, in the single file from file:// and in the embed
// example, each within 10 s.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { readFileSync } from 'node:fs';
import { openPage, until, norm, shotPath, renderAll, runWorker, SITE_DIR, ROOT, LANGS, useBrowserAndSite } from './helpers.mjs';
import { format } from '../../web/src/format.js';

const env = useBrowserAndSite();
const FIXTURE = join(import.meta.dirname, 'fixtures', 'bench-levels.json');
const HOST = 'roofline-calculator[kind="device"]';
const SWEEP_MS = 10000;
const KIB = 2 ** 10;
const MIB = 2 ** 20;

/** A size as the page writes it: binary prefixes, the number in the language's notation. */
function binary(bytes, lang) {
  const [unit, size] = bytes >= 2 ** 30 ? ['GiB', 2 ** 30] : bytes >= MIB ? ['MiB', MIB] : bytes >= KIB ? ['KiB', KIB] : ['B', 1];
  return `${format(bytes / size, 'number', lang)} ${unit}`;
}

const nb = (s) => String(s).replace(/[\u00a0\u202f]/g, ' ');

/** Loads a roofline-bench file (a path or { name, mimeType, buffer }) into the overlay. */
async function loadBench(page, file) {
  await page.evaluate(() => document.querySelector('.bench svg.chart')?.remove());
  await page.locator('#bench-file').setInputFiles(file);
  await until(page, () => document.querySelector('.bench svg.chart') || document.querySelector('.bench .form-error'));
}

/** What the overlay shows of the levels: roofs, their names, the table's last column, the roofs' table. */
function overlayLevels(page) {
  return page.evaluate(() => {
    const svg = document.querySelector('.bench svg.chart');
    const table = document.querySelector('.bench-table');
    const heads = [...table.querySelectorAll('thead th')].map((x) => x.textContent);
    return {
      roofs: svg.querySelectorAll('.roof.hier').length,
      labels: [...svg.querySelectorAll('.hier-label')].map((x) => x.textContent),
      heads,
      lastCells: [...table.querySelectorAll('tbody tr')].map((tr) => tr.lastElementChild.textContent),
      roofCells: [...table.querySelectorAll('tbody tr')].map((tr) => tr.children[4].textContent),
      caption: table.querySelector('caption').textContent,
      desc: svg.querySelector('desc').textContent,
      roofTable: [...document.querySelectorAll('.bench details.chart-data tbody tr')].map((tr) => [...tr.children].map((c) => c.textContent)),
      text: document.querySelector('.bench').textContent,
    };
  });
}

test('benchmark overlay: one roof per memory level, named with its bandwidth, in en, es and pt, desktop and phone, light and dark', async () => {
  const data = JSON.parse(readFileSync(FIXTURE, 'utf8'));
  const levels = data.ceilings.measured.levels;
  assert.ok(levels.length >= 3, 'the fixture has a hierarchy');
  const views = [['desktop', { width: 1280, height: 900 }], ['phone', { width: 390, height: 844 }]];
  for (const lang of LANGS) {
    for (const colorScheme of ['light', 'dark']) {
      const { page, context, errors } = await openPage(env.browser, `${env.site.url}index.html?lang=${lang}`, { allowedOrigin: env.site.url, colorScheme });
      try {
        for (const [view, viewport] of views) {
          await page.setViewportSize(viewport);
          await loadBench(page, FIXTURE);
          assert.equal(await page.locator('.bench .form-error').count(), 0, `${lang}: the file loads`);
          assert.equal(await page.locator('.bench svg.chart.compact').count(), view === 'phone' ? 1 : 0, `${lang} ${view}`);
          await renderAll(page);
          const o = await overlayLevels(page);
          const where = `${lang}, ${view}, ${colorScheme}`;
          assert.equal(o.roofs, levels.length, `${where}: a roof per level`);
          // each named "L1 · 412 GB/s", the bandwidth in the language's notation
          assert.deepEqual(o.labels.map(nb), levels.map((l) => nb(`${l.name} · ${format(l.bytesPerSecond, 'bytesPerSecond', lang)}`)), where);
          // the measured and datasheet roofs are drawn as before
          assert.equal(await page.locator('.bench svg .roof.measured').count(), 1);
          // the file gives no working set per kernel: every kernel is judged against DRAM, and the table says so
          assert.equal(o.heads.length, 8, `${where}: a column for the level`);
          assert.equal(o.lastCells.length, data.kernels.length);
          for (const cell of o.lastCells) assert.equal(cell, 'DRAM', where);
          const dram = levels.find((l) => l.name === 'DRAM');
          assert.ok(nb(o.caption).includes(nb(format(dram.bytesPerSecond, 'bytesPerSecond', lang))), `${where}: the caption names the DRAM roof: ${o.caption}`);
          // the chart's description and its roofs' table list every level, with its working set
          for (const l of levels) {
            assert.ok(nb(o.desc).includes(nb(binary(l.workingSetBytes, lang))), `${where}: ${l.name} in the description`);
            const row = o.roofTable.find((r) => r[0] === l.name);
            assert.ok(row, `${where}: ${l.name} in the roofs' table`);
            assert.equal(nb(row[1]), nb(format(l.bytesPerSecond, 'bytesPerSecond', lang)));
            assert.equal(nb(row[4]), nb(binary(l.workingSetBytes, lang)));
          }
          assert.doesNotMatch(o.text, /NaN|Infinity|undefined/, where);
          // every kernel's number still stands apart from the others and from the roofs' names
          const clash = await page.evaluate(() => {
            const svg = document.querySelector('.bench svg.chart');
            const box = (el) => {
              const b = el.getBBox();
              return { x0: b.x, x1: b.x + b.width, y0: b.y, y1: b.y + b.height, text: el.textContent };
            };
            const labels = [...svg.querySelectorAll('.marker-label, .roof-label')].map(box);
            const hit = (a, b) => Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0) > 0.5 && Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0) > 0.5;
            for (const [i, a] of labels.entries()) for (const b of labels.slice(i + 1)) if (hit(a, b)) return `${a.text} on ${b.text}`;
            return null;
          });
          assert.equal(clash, null, where);
          await page.locator('.bench').screenshot({ path: shotPath(`levels-overlay-${lang}-${view}-${colorScheme}.png`) });
        }
        assert.deepEqual(errors, []);
      } finally {
        await context.close();
      }
    }
  }
});

test('benchmark overlay: every result file shipped with levels (docs/results) draws a roof per level, desktop and phone', async () => {
  const { readdirSync } = await import('node:fs');
  const files = readdirSync(join(ROOT, 'docs/results')).filter((f) => f.endsWith('.json'))
    .filter((f) => (JSON.parse(readFileSync(join(ROOT, 'docs/results', f), 'utf8')).ceilings.measured.levels || []).length);
  const { page, context, errors } = await openPage(env.browser, `${env.site.url}index.html?lang=es`, { allowedOrigin: env.site.url });
  try {
    for (const f of files) {
      const data = JSON.parse(readFileSync(join(ROOT, 'docs/results', f), 'utf8'));
      for (const [view, width] of [['desktop', 1280], ['phone', 390]]) {
        await page.setViewportSize({ width, height: 900 });
        await loadBench(page, join(ROOT, 'docs/results', f));
        await renderAll(page);
        const o = await overlayLevels(page);
        assert.equal(o.roofs, data.ceilings.measured.levels.length, f);
        assert.deepEqual(o.labels.map(nb), data.ceilings.measured.levels.map((l) => nb(`${l.name} · ${format(l.bytesPerSecond, 'bytesPerSecond', 'es')}`)), f);
        assert.doesNotMatch(o.text, /NaN|Infinity|undefined/, f);
        await page.locator('.bench svg.chart').screenshot({ path: shotPath(`levels-shipped-${f.replace(/\.json$/, '')}-es-${view}.png`) });
      }
    }
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('benchmark overlay: a kernel with a working set is judged against the smallest level it fits in; a file without levels draws as before; bad levels name their field', async () => {
  const data = JSON.parse(readFileSync(FIXTURE, 'utf8'));
  const levels = data.ceilings.measured.levels;
  // working sets: one in L1, one just over L1 (→ L2), one beyond every level (→ the largest)
  const sized = structuredClone(data);
  const pick = { dot: 8 * KIB, sgemv_openblas: levels[0].workingSetBytes + 1, gemv_bf16: 4 * levels[levels.length - 1].workingSetBytes };
  for (const k of sized.kernels) if (k.id in pick) k.workingSetBytes = pick[k.id];
  const { page, context, errors } = await openPage(env.browser, `${env.site.url}index.html?lang=pt`, { allowedOrigin: env.site.url });
  try {
    await loadBench(page, { name: 'sized.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(sized)) });
    await renderAll(page);
    const o = await overlayLevels(page);
    o.lastCells = o.lastCells.map(nb);
    const names = await page.evaluate(() => [...document.querySelectorAll('.bench-table tbody tr th')].map((x) => x.textContent.replace(/^\d+\. /, '')));
    const expected = await page.evaluate(async ({ ks, pick, levels, peak }) => {
      const rl = await globalThis.createRoofline();
      return ks.map((k) => {
        const ws = pick[k.id];
        const level = ws === undefined ? levels.find((l) => l.name === 'DRAM') : (levels.find((l) => l.workingSetBytes >= ws) || levels[levels.length - 1]);
        return { name: level.name, roof: rl.roofline({ peakFlopsPerSecond: peak[k.computeDtype] ?? peak.fp32, bytesPerSecond: level.bytesPerSecond, flopsPerByte: k.flopsPerByte }).attainableFlopsPerSecond };
      });
    }, { ks: sized.kernels, pick, levels, peak: sized.ceilings.measured.peakFlopsPerSecond });
    const rowOf = (id) => names.indexOf(sized.kernels.find((k) => k.id === id).name);
    assert.match(o.lastCells[rowOf('dot')], /^L1 \(.*8 KiB\)$/);
    assert.match(o.lastCells[rowOf('sgemv_openblas')], /^L2 /);
    assert.match(o.lastCells[rowOf('gemv_bf16')], /^DRAM \(.*256 MiB\)$/);
    assert.equal(o.lastCells[rowOf('triad')], 'DRAM');
    sized.kernels.forEach((k, i) => {
      assert.ok(o.lastCells[rowOf(k.id)].startsWith(expected[i].name), `${k.id}: ${o.lastCells[rowOf(k.id)]}`);
      const unit = k.computeDtype === 'int8' ? 'opsPerSecond' : 'flopsPerSecond';
      assert.equal(nb(o.roofCells[rowOf(k.id)]), nb(format(expected[i].roof, unit, 'pt')), `${k.id}: its level's roof`);
    });

    // a result without levels: no level roofs, no level column, the roofs' table lists the two roofs
    await loadBench(page, join(import.meta.dirname, 'fixtures', 'bench-cpu.json'));
    const plain = await overlayLevels(page);
    assert.equal(plain.roofs, 0);
    assert.equal(plain.heads.length, 7);
    assert.equal(plain.roofTable.length, 2);
    assert.equal(await page.locator('.bench svg .roof').count(), 2, 'measured and datasheet rooflines');

    // a level that is not a level: the error names the field, in the reader's language
    const bad = structuredClone(data);
    bad.ceilings.measured.levels[1].bytesPerSecond = -1;
    await loadBench(page, { name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(bad)) });
    assert.match(norm(await page.locator('.bench .form-error').textContent()), /ceilings\.measured\.levels\[1\]\.bytesPerSecond/);
    const badKernel = structuredClone(data);
    badKernel.kernels[2].workingSetBytes = 'big';
    await loadBench(page, { name: 'bad2.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(badKernel)) });
    assert.match(norm(await page.locator('.bench .form-error').textContent()), /kernels\[2\]\.workingSetBytes/);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

/** Clicks "Measure this device", waits for the end (≤ SWEEP_MS), returns what the panel shows. */
async function measureLevels(page) {
  await until(page, (sel) => document.querySelector(sel), HOST);
  await page.evaluate((sel) => document.querySelector(sel).scrollIntoView({ block: 'start' }), HOST);
  await until(page, (sel) => document.querySelector(sel)?.shadowRoot?.querySelector('[data-measure]'), HOST);
  const t0 = Date.now();
  await page.locator(`${HOST} [data-measure]`).click();
  const state = await until(page, (sel) => {
    const st = document.querySelector(sel).shadowRoot.querySelector('[data-measure-state]').getAttribute('data-measure-state');
    return st === 'running' || st === 'idle' ? null : st;
  }, HOST, { timeout: SWEEP_MS + 10000, interval: 50 });
  const ms = Date.now() - t0;
  const info = await page.evaluate((sel) => {
    const root = document.querySelector(sel).shadowRoot;
    const box = root.querySelector('[data-measure-state]');
    const q = (s) => root.querySelector(s);
    return {
      levels: box.getAttribute('data-levels'),
      status: q('.measure-status').textContent,
      rows: [...root.querySelectorAll('.measure-levels tbody tr')].map((tr) => [...tr.children].map((c) => c.textContent)),
      pays: q('.measure-levels-pays')?.textContent ?? null,
      link: q('.measure-levels-pays a')?.getAttribute('href') ?? null,
      flat: q('.measure-levels-flat')?.textContent ?? null,
      twoRates: q('.measure-two-rates')?.textContent ?? null,
      triad: box.getAttribute('data-bytes-per-second'),
      roofs: [...root.querySelectorAll('svg .roof.hier')].map((x) => x.getAttribute('class')),
      labels: [...root.querySelectorAll('svg .hier-label')].map((x) => x.textContent),
      desc: q('svg.chart desc').textContent,
      text: q('.calc').textContent,
    };
  }, HOST);
  return { state, ms, ...info };
}

/** The checks every place shares; returns the parsed levels. */
function checkLevels(r, where, lang, { linked }) {
  assert.equal(r.state, 'done', `${where}: ${r.status}`);
  assert.ok(r.ms <= SWEEP_MS, `${where}: the whole measurement took ${r.ms} ms`);
  const levels = JSON.parse(r.levels);
  assert.ok(Array.isArray(levels) && levels.length >= 2, `${where}: ${r.levels}`);
  console.log(`# ${where}, ${r.ms} ms in all: ${levels.map((l) => `${binary(l.workingSetBytes, 'en')} ${(l.bytesPerSecond / 1e9).toFixed(1)} GB/s`).join(', ')}`);
  for (const l of levels) {
    assert.deepEqual(Object.keys(l).sort(), ['bytesPerSecond', 'workingSetBytes']);
    for (const v of Object.values(l)) assert.ok(typeof v === 'number' && Number.isFinite(v) && v > 0, `${where}: ${JSON.stringify(l)}`);
    // between what any browser on any machine reads and what no memory reaches
    assert.ok(l.bytesPerSecond >= 1e8 && l.bytesPerSecond <= 5e12, `${where}: ${JSON.stringify(l)}`);
  }
  const ws = levels.map((l) => l.workingSetBytes);
  assert.deepEqual(ws, [...ws].sort((a, b) => a - b), 'smallest set first');
  assert.equal(ws[0], 16 * KIB);
  assert.ok(ws.at(-1) <= 256 * MIB && ws.at(-1) >= 4 * MIB, `${where}: the largest set ${ws.at(-1)}`);
  // the table lists each point as data-levels has it, in the reader's language
  assert.equal(r.rows.length, levels.length);
  levels.forEach((l, i) => {
    assert.equal(nb(r.rows[i][0]), nb(binary(l.workingSetBytes, lang)));
    assert.equal(nb(r.rows[i].at(-1)), nb(format(l.bytesPerSecond, 'bytesPerSecond', lang)));
  });
  // cache against memory: the smallest set at least 1.5 × the largest says why tiles pay, else why not
  const ratio = levels[0].bytesPerSecond / levels.at(-1).bytesPerSecond;
  if (ratio >= 1.5) {
    assert.ok(r.pays && !r.flat, `${where}: ratio ${ratio}`);
    assert.equal(r.link, linked ? '#tile' : null, `${where}: the link to the tiles section`);
    const fastest = Math.max(...levels.map((l) => l.bytesPerSecond));
    assert.ok(nb(r.pays).includes(nb(format(fastest, 'bytesPerSecond', lang))), r.pays);
    assert.ok(nb(r.pays).includes(nb(format(levels.at(-1).bytesPerSecond, 'bytesPerSecond', lang))), r.pays);
  } else {
    assert.ok(r.flat && !r.pays, `${where}: ratio ${ratio}, and the panel says why: ${r.flat}`);
  }
  // the triad's bandwidth (the summary's) and the sweep's read-only memory roof: both named, each
  // with its own number, in one line that says why they differ
  assert.ok(r.twoRates, `${where}: no line naming the two bandwidths`);
  assert.ok(nb(r.twoRates).includes(nb(format(Number(r.triad), 'bytesPerSecond', lang))), r.twoRates);
  assert.ok(nb(r.twoRates).includes(nb(format(levels.at(-1).bytesPerSecond, 'bytesPerSecond', lang))), r.twoRates);
  assert.match(r.twoRates, /triad/);
  // two more roofs on the chart, named, and the chart's description says what they are
  assert.deepEqual(r.roofs.map((c) => c.replace(/^roof hier /, '')).sort(), ['hier-cache', 'hier-memory']);
  assert.equal(r.labels.length, 2);
  assert.ok(nb(r.desc).includes(nb(binary(levels.at(-1).workingSetBytes, lang))), r.desc);
  assert.doesNotMatch(r.text, /NaN|Infinity|undefined/, where);
  return levels;
}

test('measure this device: the sweep runs on the served page (strict CSP) in ≤ 10 s, links to the tiles, and passes axe', async () => {
  const { page, context, foreign, errors } = await openPage(env.browser, `${env.site.url}index.html?lang=en`, { allowedOrigin: env.site.url });
  try {
    const r = await measureLevels(page);
    checkLevels(r, 'served', 'en', { linked: true });
    if (r.link) {
      // the link leads to the lesson's tiles section, by keyboard too
      assert.equal(await page.locator('#tile').count(), 1);
      await page.locator(`${HOST} .measure-levels-pays a`).focus();
      await page.keyboard.press('Enter');
      await until(page, () => location.hash === '#tile');
    }
    assert.deepEqual(foreign, []);
    assert.deepEqual(errors, []);
    await page.evaluate((sel) => document.querySelector(sel).scrollIntoView({ block: 'start' }), HOST);
    await page.locator(HOST).screenshot({ path: shotPath('levels-device-served-en.png') });
  } finally {
    await context.close();
  }
  // axe on the measured panel, its tables and its chart, light and dark (the script needs the CSP off)
  for (const colorScheme of ['light', 'dark']) {
    const { page: p2, context: c2 } = await openPage(env.browser, `${env.site.url}index.html?lang=pt`, { allowedOrigin: env.site.url, colorScheme, bypassCSP: true });
    try {
      const r = await measureLevels(p2);
      checkLevels(r, `axe ${colorScheme}`, 'pt', { linked: true });
      await p2.evaluate((sel) => document.querySelector(sel).shadowRoot.querySelectorAll('details').forEach((d) => { d.open = true; }), HOST);
      await p2.addScriptTag({ path: join(ROOT, 'tests/node_modules/axe-core/axe.min.js') });
      const violations = await p2.evaluate(async () => {
        // eslint-disable-next-line no-undef
        const res = await axe.run({ include: [['#measure-device']] }, { resultTypes: ['violations'] });
        return res.violations.map((v) => `${v.id}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
      });
      assert.deepEqual(violations, [], colorScheme);
      await p2.locator('#measure-device').screenshot({ path: shotPath(`levels-device-pt-${colorScheme}.png`) });
    } finally {
      await c2.close();
    }
  }
});

test('measure this device: the sweep runs in the single file from file://, offline, in ≤ 10 s', async () => {
  const url = pathToFileURL(join(SITE_DIR, 'roofline-lab.html')).href;
  const { page, context, foreign, errors } = await openPage(env.browser, `${url}?lang=es`, { allowedOrigin: 'file:' });
  try {
    const requests = [];
    page.on('request', (q) => requests.push(q.url()));
    const r = await measureLevels(page);
    checkLevels(r, 'file://', 'es', { linked: true });
    assert.deepEqual(foreign.filter((u) => !u.startsWith('blob:')), []);
    assert.deepEqual(requests.filter((u) => !/^(file|data|blob):/.test(u)), []);
    assert.deepEqual(errors, []);
    await page.locator(HOST).screenshot({ path: shotPath('levels-device-file-es.png') });
  } finally {
    await context.close();
  }
});

test('measure this device: the sweep runs in the embed example under its strict CSP in ≤ 10 s (no lesson page to link to)', async () => {
  const { page, context, foreign, errors } = await openPage(env.browser, `${env.site.url}embed-example.html`, { allowedOrigin: env.site.url, colorScheme: 'dark', viewport: { width: 390, height: 844 } });
  try {
    const r = await measureLevels(page);
    checkLevels(r, 'embed', 'es', { linked: false });
    assert.deepEqual(foreign, []);
    assert.deepEqual(errors, []);
    await page.locator(HOST).screenshot({ path: shotPath('levels-device-embed-es-phone-dark.png') });
  } finally {
    await context.close();
  }
});

test('the worker leaves out the working sets the browser refuses memory for, and says which', async () => {
  const { page, context, errors } = await openPage(env.browser, `${env.site.url}embed-example.html`, { allowedOrigin: env.site.url });
  try {
    // 1 GiB of dot arrays is beyond the module's 512 MB: refused, the smaller sets measured
    const r = await runWorker(page, { arrayBytes: 2 ** 22, levelBytes: [2 ** 14, 2 ** 20, 2 ** 30] });
    assert.equal(r.type, 'done', JSON.stringify(r));
    assert.deepEqual(r.result.levels.map((l) => l.workingSetBytes), [2 ** 14, 2 ** 20]);
    assert.deepEqual(r.result.levelsSkippedBytes, [2 ** 30]);
    assert.equal(r.result.levelsFlopsPerByte, 0.25, 'the dot: 2 FLOPs per 8 bytes (kernel_costs)');
    for (const l of r.result.levels) {
      assert.ok(l.runs >= 3 && l.passes >= 1, JSON.stringify(l));
      assert.ok(l.seconds.min <= l.seconds.median && l.seconds.median <= l.seconds.max);
      // the rate is the bytes of every pass of the best run over its time
      assert.ok(Math.abs(l.bytesPerSecond - (l.workingSetBytes * l.passes) / l.seconds.min) <= 1e-9 * l.bytesPerSecond);
    }
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});
