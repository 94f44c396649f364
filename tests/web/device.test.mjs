// The device calculator measures this browser's machine in a Web Worker and puts it on the
// roofline: on the served page under the strict CSP, in the single file from file:// with the
// network blocked, and in the embed example. Each run must finish in ≤ 15 s with sane rates,
// and what the page shows must be what the module computes from them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { readFileSync, mkdtempSync, cpSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { openPage, until, rows, field, fieldError, norm, shotPath, serve, SITE_DIR, ROOT, useBrowserAndSite } from './helpers.mjs';

const env = useBrowserAndSite();
const HOST = 'roofline-calculator[kind="device"]';
const MEASURE_MS = 15000;

/** Scrolls the device calculator into view and waits until it has rendered. */
async function showDevice(page) {
  // (the lesson's page adds its later sections in idle time)
  await until(page, (sel) => document.querySelector(sel), HOST);
  await page.evaluate((sel) => document.querySelector(sel).scrollIntoView({ block: 'start' }), HOST);
  await until(page, (sel) => document.querySelector(sel)?.shadowRoot?.querySelector('[data-measure]'), HOST);
}

/** Clicks "Measure this device" and waits for the end; returns the state and the rates. */
async function measure(page) {
  await showDevice(page);
  const t0 = Date.now();
  await page.locator(`${HOST} [data-measure]`).click();
  await until(page, (sel) => document.querySelector(sel).shadowRoot.querySelector('[data-measure-state="running"]'), HOST, { timeout: 3000, interval: 10 })
    .catch(() => null); // a very fast machine may already be done
  const state = await until(page, (sel) => {
    const box = document.querySelector(sel).shadowRoot.querySelector('[data-measure-state]');
    const st = box.getAttribute('data-measure-state');
    return st === 'running' || st === 'idle' ? null : st;
  }, HOST, { timeout: MEASURE_MS + 5000, interval: 50 });
  const ms = Date.now() - t0;
  const info = await page.evaluate((sel) => {
    const box = document.querySelector(sel).shadowRoot.querySelector('[data-measure-state]');
    return {
      bytesPerSecond: Number(box.getAttribute('data-bytes-per-second')),
      flopsPerSecond: Number(box.getAttribute('data-flops-per-second')),
      status: box.querySelector('.measure-status').textContent,
    };
  }, HOST);
  return { state, ms, ...info };
}

/** The checks every place shares: time, bounds, the chart's point, the lesson cases recomputed. */
async function checkMeasured(page, r, where) {
  assert.equal(r.state, 'done', `${where}: ${r.status}`);
  assert.ok(r.ms <= MEASURE_MS, `${where}: took ${r.ms} ms`);
  assert.ok(r.bytesPerSecond >= 1e9 && r.bytesPerSecond <= 500e9, `${where}: ${r.bytesPerSecond} bytes/s`);
  assert.ok(r.flopsPerSecond >= 1e9 && r.flopsPerSecond <= 10e12, `${where}: ${r.flopsPerSecond} FLOP/s`);
  await until(page, (sel) => document.querySelector(sel).shadowRoot.querySelector('svg .triad-point'), HOST);
  assert.equal(await page.locator(`${HOST} svg .device-point`).count(), 1, `${where}: the device's ridge`);
  assert.equal(await page.locator(`${HOST} svg .roof.device`).count(), 1, `${where}: the device's roof`);
  assert.ok(await page.locator(`${HOST} svg .roof.gpu`).count() >= 4, `${where}: the GPUs' roofs`);
  // The fields hold the measured rates (6 significant digits, in GB/s and GFLOPS); the rows are
  // the module's answers for those fields, recomputed here through a fresh module instance.
  const expected = await page.evaluate(async () => {
    const rl = await globalThis.createRoofline();
    const root = document.querySelector('roofline-calculator[kind="device"]').shadowRoot;
    const read = (id) => Number(root.querySelector(`[data-field="${id}"] input`).value.replace(/,/g, '')) * 1e9;
    const bw = read('bw');
    const peak = read('peak');
    const dc = rl.caseArgs({ id: 'llama-l4-decode', function: 'decode' });
    const d = rl.decode({ weightBytes: dc.weightBytes, kvBytesPerSequence: dc.kvBytesPerSequence, batch: dc.batch, gpus: dc.gpus, flopsPerToken: dc.flopsPerToken, bytesPerSecond: bw, peakFlopsPerSecond: peak });
    const ridge = rl.roofline({ peakFlopsPerSecond: peak, bytesPerSecond: bw, flopsPerByte: 1 }).ridgeFlopsPerByte;
    const lc = rl.caseArgs({ id: 'layer-4096', function: 'minBatchForRidge', values: { dtype: 'fp32' } });
    const batch = rl.minBatchForRidge({ inputs: lc.inputs, outputs: lc.outputs, dtype: 'fp32', ridgeFlopsPerByte: ridge }).batch;
    return { bw, peak, tps: d.tokensPerSecond, bound: d.bound, ridge, batch };
  });
  assert.ok(Math.abs(expected.bw - r.bytesPerSecond) <= 1e-5 * r.bytesPerSecond, `${where}: the bandwidth field shows the measured rate`);
  assert.ok(Math.abs(expected.peak - r.flopsPerSecond) <= 1e-5 * r.flopsPerSecond, `${where}: the peak field shows the measured rate`);
  assert.equal(expected.bound, 'memory', 'one conversation is memory-bound on any device');
  const shown = await rows(page, 'device');
  const num = (s) => Number(norm(s).replace(/[^0-9.]/g, '').replace(/,/g, ''));
  return { expected, shown, num };
}

function nearlyEqual(a, b, rel) {
  return Math.abs(a - b) <= rel * Math.abs(b);
}

test('served page (strict CSP): measure this device, in a worker, in ≤ 15 s', async () => {
  const { page, context, foreign, errors } = await openPage(env.browser, `${env.site.url}index.html?lang=en`, { allowedOrigin: env.site.url });
  try {
    const requests = [];
    page.on('request', (q) => requests.push(q.url()));
    // before anything is asked, the benchmark is not loaded
    assert.deepEqual(requests.filter((u) => /roofline-measure/.test(u)), []);
    await showDevice(page);
    assert.match(norm(await page.locator(`${HOST} .summary`).textContent()), /Nothing measured yet/);
    const r = await measure(page);
    const { expected, shown, num } = await checkMeasured(page, r, 'served');
    assert.ok(nearlyEqual(num(shown.decode), expected.tps, 0.01), `decode row ${shown.decode} vs ${expected.tps}`);
    assert.ok(nearlyEqual(num(shown.ridge), expected.ridge, 0.01), `ridge row ${shown.ridge} vs ${expected.ridge}`);
    assert.equal(num(shown.batch), expected.batch);
    // the worker and the SIMD module are same-origin files
    assert.ok(requests.some((u) => u.endsWith('/roofline-measure-worker.js')), 'the worker file');
    assert.ok(requests.some((u) => u.endsWith('/roofline-measure.js') || u.endsWith('/roofline-measure-scalar.js')), 'the module');
    assert.deepEqual(foreign, []);
    assert.deepEqual(errors, []);
    await page.locator(HOST).screenshot({ path: shotPath('device-served.png') });
  } finally {
    await context.close();
  }
});

test('single file from file://, offline: the benchmark runs in a blob worker', async () => {
  const url = pathToFileURL(join(SITE_DIR, 'roofline-lab.html')).href;
  const { page, context, foreign, errors } = await openPage(env.browser, `${url}?lang=es`, { allowedOrigin: 'file:' });
  try {
    const requests = [];
    page.on('request', (q) => requests.push(q.url()));
    const r = await measure(page);
    const { expected, shown, num } = await checkMeasured(page, r, 'file://');
    // es-MX writes 1,234.5: the same parsing as in English
    assert.ok(nearlyEqual(num(shown.decode), expected.tps, 0.01), `decode row ${shown.decode} vs ${expected.tps}`);
    assert.deepEqual(foreign.filter((u) => !u.startsWith('blob:')), []);
    assert.deepEqual(requests.filter((u) => !/^(file|data|blob):/.test(u)), []);
    assert.deepEqual(errors, []);
    await page.locator(HOST).screenshot({ path: shotPath('device-file-es.png') });
  } finally {
    await context.close();
  }
});

test('embed example: <roofline-calculator kind="device"> measures under the strict CSP', async () => {
  const { page, context, foreign, errors } = await openPage(env.browser, `${env.site.url}embed-example.html`, { allowedOrigin: env.site.url, colorScheme: 'dark' });
  try {
    const r = await measure(page);
    const { expected, shown, num } = await checkMeasured(page, r, 'embed');
    assert.ok(nearlyEqual(num(shown.decode), expected.tps, 0.01), `decode row ${shown.decode} vs ${expected.tps}`);
    assert.deepEqual(foreign, []);
    assert.deepEqual(errors, []);
    await page.locator(HOST).screenshot({ path: shotPath('device-embed-dark.png') });
  } finally {
    await context.close();
  }
});

test('cancel stops the worker and leaves the fields blank; a second run completes', async () => {
  const { page, context, errors } = await openPage(env.browser, `${env.site.url}index.html?lang=pt`, { allowedOrigin: env.site.url });
  try {
    await showDevice(page);
    // by keyboard: Enter on the start button; focus moves to cancel, and back when cancelled
    await page.locator(`${HOST} [data-measure]`).focus();
    await page.keyboard.press('Enter');
    await until(page, (sel) => document.querySelector(sel).shadowRoot.querySelector('[data-measure-state="running"]'), HOST);
    assert.ok(await page.locator(`${HOST} .measure-cancel`).isVisible());
    const focused = () => page.evaluate((sel) => document.querySelector(sel).shadowRoot.activeElement?.className, HOST);
    assert.equal(await focused(), 'measure-cancel');
    assert.ok(await page.locator(`${HOST} [data-measure]`).isDisabled(), 'no second run while one is running');
    await page.keyboard.press('Enter');
    assert.equal(await page.locator(`${HOST} [data-measure-state]`).getAttribute('data-measure-state'), 'cancelled');
    assert.equal(await focused(), 'measure-start');
    assert.equal(await page.locator(`${HOST} [data-measure-state]`).getAttribute('data-bytes-per-second'), null);
    assert.equal(await field(page, 'device', 'bw').inputValue(), '');
    assert.match(norm(await page.locator(`${HOST} .measure-status`).textContent()), /cancelada/);
    // the page stayed responsive, and the worker is gone: nothing changes afterwards
    await page.waitForTimeout(1500);
    assert.equal(await page.locator(`${HOST} [data-measure-state]`).getAttribute('data-measure-state'), 'cancelled');
    const r = await measure(page);
    assert.equal(r.state, 'done', r.status);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('typed values: bad input gets a clear message, never NaN or Infinity', async () => {
  const { page, context, errors } = await openPage(env.browser, `${env.site.url}index.html?lang=en`, { allowedOrigin: env.site.url });
  try {
    await showDevice(page);
    const cases = [['abc', /number/i], ['0', /greater than zero|positive/i], ['-5', /greater than zero|positive/i], ['1e400', /too large/i]];
    await field(page, 'device', 'peak').fill('50');
    for (const [text, message] of cases) {
      await field(page, 'device', 'bw').fill(text);
      const err = await fieldError(page, 'device', 'bw');
      assert.match(err, message, `${text}: ${err}`);
      const all = norm(await page.locator(`${HOST} .calc`).innerText());
      assert.doesNotMatch(all, /NaN|Infinity/, text);
    }
    // one field alone is not enough either
    await field(page, 'device', 'bw').fill('');
    assert.match(await fieldError(page, 'device', 'bw'), /\S/, 'an empty bandwidth with a peak typed is an error');
    // typed values give the same rows as measured ones would
    await field(page, 'device', 'bw').fill('20');
    await field(page, 'device', 'peak').fill('50');
    const r = await rows(page, 'device');
    assert.equal(r.ridge, '2.5 FLOPs/B');
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('share by link (values only), and download as roofline-bench/1 that the overlay loads, side by side with a native file', async () => {
  const { page, context, errors } = await openPage(env.browser, `${env.site.url}index.html?lang=en`, { allowedOrigin: env.site.url });
  try {
    const r = await measure(page);
    assert.equal(r.state, 'done', r.status);
    const before = await rows(page, 'device');
    // the link carries the two values and nothing else of the measurement
    await page.waitForTimeout(400);
    const link = new URL(page.url());
    assert.ok(link.searchParams.get('device.bw') && link.searchParams.get('device.peak'), link.href);
    assert.deepEqual([...link.searchParams.keys()].filter((k) => k.startsWith('device.')).sort(), ['device.bw', 'device.peak']);
    const other = await context.newPage();
    await other.goto(link.href);
    await showDevice(other);
    assert.deepEqual(await rows(other, 'device'), before, 'the shared link shows the same numbers');
    assert.equal(await other.locator(`${HOST} [data-measure-state]`).getAttribute('data-measure-state'), 'idle');
    await other.close();

    // download, then load the file in the benchmark overlay
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator(`${HOST} .measure-download`).click()]);
    const path = await download.path();
    const json = JSON.parse(readFileSync(path, 'utf8'));
    assert.equal(json.schema, 'roofline-bench/1');
    assert.equal(json.ceilings.measured.bytesPerSecond, r.bytesPerSecond);
    assert.equal(json.ceilings.measured.peakFlopsPerSecond.fp32, r.flopsPerSecond);
    assert.equal(json.kernels[0].flopsPerByte, 2 / 12, 'the triad: 2 FLOPs per 12 bytes (kernel_costs)');
    await page.locator('#bench-file').setInputFiles(path);
    await until(page, () => document.querySelector('.bench .bench-table'));
    assert.match(norm(await page.locator('.bench-status').textContent()), /browser/i);
    // a native result loaded in the overlay: browser against native, side by side
    await page.locator('#bench-file').setInputFiles(join(import.meta.dirname, 'fixtures', 'bench-cpu.json'));
    await until(page, (sel) => document.querySelector(sel).shadowRoot.querySelector('.measure-native table'), HOST);
    const native = norm(await page.locator(`${HOST} .measure-native`).innerText());
    assert.match(native, /Browser/);
    assert.match(native, /%/);
    await page.locator(`${HOST} .measure-native`).screenshot({ path: shotPath('device-native.png') });
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('memory refused: the worker sizes the arrays down by halves and reports it', async () => {
  const { page, context, errors } = await openPage(env.browser, `${env.site.url}embed-example.html`, { allowedOrigin: env.site.url });
  try {
    // 3 × 256 MiB is beyond the module's 512 MB of memory: refused, then halved until it fits
    const r = await page.evaluate(() => new Promise((resolve) => {
      const w = new Worker('roofline-measure-worker.js');
      w.onmessage = (e) => {
        if (e.data.type === 'done' || e.data.type === 'error') {
          w.terminate();
          resolve(e.data);
        }
      };
      w.postMessage({ type: 'start', urls: { simd: new URL('roofline-measure.js', location.href).href, scalar: new URL('roofline-measure-scalar.js', location.href).href }, arrayBytes: 2 ** 28 });
    }));
    assert.equal(r.type, 'done', JSON.stringify(r));
    assert.equal(r.result.sizedDown, true);
    assert.ok(r.result.arrayBytes < 2 ** 28 && r.result.arrayBytes >= 2 ** 22, String(r.result.arrayBytes));
    assert.equal(r.result.triad.bytes, 3 * r.result.arrayBytes, 'the triad moves its three smaller arrays');
    assert.ok(r.result.bytesPerSecond >= 1e9 && r.result.bytesPerSecond <= 500e9);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('an embedder who did not copy the worker file gets a clear message, not a frozen tab', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'roofline-noworker-'));
  cpSync(SITE_DIR, dir, { recursive: true, filter: (src) => !src.endsWith('roofline-measure-worker.js') });
  const site = await serve(dir);
  const { page, context } = await openPage(env.browser, `${site.url}embed-example.html`, { allowedOrigin: site.url });
  try {
    const r = await measure(page);
    assert.equal(r.state, 'error');
    assert.match(norm(r.status), /Web Worker/);
    assert.ok(!(await page.locator(`${HOST} [data-measure]`).isDisabled()), 'the button works again');
    assert.equal(await field(page, 'device', 'bw').inputValue(), '');
  } finally {
    await context.close();
    await site.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('axe finds no violations in the measured panel, its tables and its chart (light and dark)', async () => {
  for (const colorScheme of ['light', 'dark']) {
    const { page, context } = await openPage(env.browser, `${env.site.url}index.html?lang=es`, { allowedOrigin: env.site.url, colorScheme, bypassCSP: true });
    try {
      const r = await measure(page);
      assert.equal(r.state, 'done', r.status);
      await page.evaluate((sel) => document.querySelector(sel).shadowRoot.querySelectorAll('details').forEach((d) => { d.open = true; }), HOST);
      await page.addScriptTag({ path: join(ROOT, 'tests/node_modules/axe-core/axe.min.js') });
      const violations = await page.evaluate(async () => {
        // eslint-disable-next-line no-undef
        const res = await axe.run({ include: [['#measure-device']] }, { resultTypes: ['violations'] });
        return res.violations.map((v) => `${v.id}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
      });
      assert.deepEqual(violations, [], colorScheme);
      await page.locator('#measure-device').screenshot({ path: shotPath(`device-measured-es-${colorScheme}.png`) });
    } finally {
      await context.close();
    }
  }
});
