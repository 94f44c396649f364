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
import { openPage, until, rows, field, fieldError, norm, shotPath, serve, runWorker, SITE_DIR, ROOT, useBrowserAndSite } from '../helpers.mjs';

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
  // The fields show the measured rates as the results do (three significant digits, in GB/s and
  // GFLOPS) and the calculator computes with the rates themselves: the rows are the module's
  // answers for the measured rates, recomputed here through a fresh module instance.
  const expected = await page.evaluate(async ([bw, peak]) => {
    const rl = await globalThis.createRoofline();
    const root = document.querySelector('roofline-calculator[kind="device"]').shadowRoot;
    const read = (id) => Number(root.querySelector(`[data-field="${id}"] input`).value.replace(/,/g, '')) * 1e9;
    const fieldBw = read('bw');
    const fieldPeak = read('peak');
    const dc = rl.caseArgs({ id: 'llama-l4-decode', function: 'decode' });
    const d = rl.decode({ weightBytes: dc.weightBytes, kvBytesPerSequence: dc.kvBytesPerSequence, batch: dc.batch, gpus: dc.gpus, flopsPerToken: dc.flopsPerToken, bytesPerSecond: bw, peakFlopsPerSecond: peak });
    const ridge = rl.roofline({ peakFlopsPerSecond: peak, bytesPerSecond: bw, flopsPerByte: 1 }).ridgeFlopsPerByte;
    const lc = rl.caseArgs({ id: 'layer-4096', function: 'minBatchForRidge', values: { dtype: 'fp32' } });
    const batch = rl.minBatchForRidge({ inputs: lc.inputs, outputs: lc.outputs, dtype: 'fp32', ridgeFlopsPerByte: ridge }).batch;
    return { bw, peak, fieldBw, fieldPeak, tps: d.tokensPerSecond, bound: d.bound, ridge, batch };
  }, [r.bytesPerSecond, r.flopsPerSecond]);
  assert.ok(Math.abs(expected.fieldBw - r.bytesPerSecond) <= 5e-3 * r.bytesPerSecond, `${where}: the bandwidth field shows the measured rate (${expected.fieldBw} for ${r.bytesPerSecond})`);
  assert.ok(Math.abs(expected.fieldPeak - r.flopsPerSecond) <= 5e-3 * r.flopsPerSecond, `${where}: the peak field shows the measured rate (${expected.fieldPeak} for ${r.flopsPerSecond})`);
  // One conversation (batch 1, about 1 FLOP per byte) is memory-bound on any device whose ridge is
  // well above that; a browser's one-thread peak on a loaded machine can sink below its bandwidth
  // (a ridge under 1 FLOP/B), and then the page rightly says compute-bound.
  if (expected.ridge >= 2) {
    assert.equal(expected.bound, 'memory', `one conversation is memory-bound at a ridge of ${expected.ridge} FLOPs/B (peak ${expected.peak} FLOP/s, ${expected.bw} B/s)`);
  }
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
    // not cross-origin isolated: one thread, and no option for more
    assert.equal(await page.evaluate(() => globalThis.crossOriginIsolated), false);
    assert.equal(await page.locator(`${HOST} .measure-threads`).count(), 0, 'no thread option without isolation');
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
    assert.equal(await page.locator(`${HOST} .measure-threads`).count(), 0, 'no thread option from file://');
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
    assert.equal(await page.locator(`${HOST} .measure-threads`).count(), 0, 'no thread option in the embed');
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
    const decodeHow = () => page.locator(`${HOST} tr[data-row="decode"] td.how`).innerText().then(norm);
    assert.match(await decodeHow(), /20 GB\/s ÷ 16\.1 GB read per token/);
    // a peak below the bandwidth: one conversation is limited by the arithmetic, and the row says
    // how it is counted then (the lesson model's 16.1 GFLOPs per token at 5 GFLOPS: 0.311 tokens/s)
    await field(page, 'device', 'peak').fill('5');
    assert.equal((await rows(page, 'device')).ridge, '0.25 FLOPs/B');
    assert.match(await decodeHow(), /5 GFLOPS ÷ 16\.1 GFLOPs per token/);
    assert.equal((await rows(page, 'device')).decode, '0.311');
    // and its glossary link names the bound the row states, then goes back with the peak
    const decodeTerm = () => page.locator(`${HOST} tr[data-row="decode"] th .term-tip summary`).allInnerTexts().then((t) => t.map(norm));
    assert.deepEqual(await decodeTerm(), ['Compute-bound — what is it?']);
    await field(page, 'device', 'peak').fill('50');
    assert.match(await decodeHow(), /20 GB\/s ÷ 16\.1 GB read per token/);
    assert.deepEqual(await decodeTerm(), ['Memory-bound — what is it?']);
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
    await page.locator('#bench-file').setInputFiles(join(import.meta.dirname, '..', 'fixtures', 'bench-cpu.json'));
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
    const r = await runWorker(page, { arrayBytes: 2 ** 28 });
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

/** Starts workers of roofline-measure-worker.js on `page` as one team; resolves with each worker's messages but progress, at a result or when every worker has ended. */
function runTeam(page, starts) {
  return page.evaluate((starts) => new Promise((resolve) => {
    const at = (name) => new URL(name, location.href).href;
    const shared = new SharedArrayBuffer(16 + starts.length * 4 * 8);  // worker.js: TEAM_SLOTS = 4
    const got = starts.map(() => []);
    const ends = (list) => list.some((m) => ['done', 'error', 'stopped'].includes(m.type));
    const workers = starts.map((start, index) => {
      const w = new Worker('roofline-measure-worker.js');
      w.onmessage = (e) => {
        got[index].push(e.data);
        if (e.data.type === 'done' || got.every(ends)) {
          workers.forEach((x) => x.terminate());
          resolve(got.map((list) => list.filter((m) => m.type !== 'progress')));
        }
      };
      return w;
    });
    workers.forEach((w, index) => w.postMessage({
      type: 'start', arrayBytes: starts[index].arrayBytes,
      urls: starts[index].badUrls ? { simd: at('no-such-file.js'), scalar: at('no-such-file.js') } : { simd: at('roofline-measure.js'), scalar: at('roofline-measure-scalar.js') },
      team: { index, size: starts.length, shared },
    }));
  }), starts);
}

test('cross-origin isolated page: the thread option appears, and 2 threads measure together in ≤ 15 s', async () => {
  const site = await serve(SITE_DIR, { isolated: true });
  const { page, context, foreign, errors } = await openPage(env.browser, `${site.url}index.html?lang=en`, { allowedOrigin: site.url });
  try {
    assert.equal(await page.evaluate(() => globalThis.crossOriginIsolated), true, 'COOP + COEP make the page isolated');
    const cores = await page.evaluate(() => navigator.hardwareConcurrency);
    await showDevice(page);
    const select = page.locator(`${HOST} select.measure-threads`);
    if (cores < 2) {
      assert.equal(await select.count(), 0, 'one core: no option');
      return;
    }
    assert.equal(await select.count(), 1);
    assert.equal(await select.inputValue(), '1', 'one thread by default');
    const values = await select.locator('option').evaluateAll((os) => os.map((o) => o.value));
    assert.deepEqual(values, Array.from({ length: Math.min(cores, 16) }, (_, i) => String(i + 1)));
    // labelled, and usable from the keyboard: focus it and choose 2 with the arrow key
    assert.equal(await select.evaluate((el) => el.labels.length && el.labels[0].textContent.trim().startsWith('Threads')), true);
    await select.focus();
    await page.keyboard.press('ArrowDown');
    assert.equal(await select.inputValue(), '2');
    const r = await measure(page);
    await checkMeasured(page, r, 'isolated, 2 threads');
    assert.match(norm(await page.locator(`${HOST} .measure-table caption`).textContent()), /2 threads/);
    assert.match(norm(await page.locator(`${HOST} .measure-table tbody th`).first().textContent()), /in each thread over three arrays of 67\.1 MB/);
    assert.match(norm(await page.locator(`${HOST} .measure-why`).textContent()), /slowest one/);
    // the download records the thread count where the native file has it (machine.threads)
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator(`${HOST} .measure-download`).click()]);
    const json = JSON.parse(readFileSync(await download.path(), 'utf8'));
    assert.equal(json.machine.threads, '2');
    assert.match(json.machine.name, /2 threads/);
    assert.match(json.kernels[0].name, /in each thread/);
    assert.equal(json.ceilings.measured.bytesPerSecond, r.bytesPerSecond);
    assert.equal(json.kernels[0].bytes, 2 * 3 * 2 ** 26, 'two workers, each over three arrays of 64 MiB');
    // the link still carries the two values only
    await page.waitForTimeout(400);
    const keys = [...new URL(page.url()).searchParams.keys()].filter((k) => k.startsWith('device.')).sort();
    assert.deepEqual(keys, ['device.bw', 'device.peak']);
    assert.deepEqual(foreign, []);
    assert.deepEqual(errors, []);
    await page.locator(HOST).screenshot({ path: shotPath('device-isolated-2-threads.png') });
  } finally {
    await context.close();
    await site.close();
  }
});

test('the thread option: axe finds no violations (isolated page, dark), and cancelling stops every worker', async () => {
  const site = await serve(SITE_DIR, { isolated: true });
  const { page, context } = await openPage(env.browser, `${site.url}index.html?lang=pt`, { allowedOrigin: site.url, colorScheme: 'dark', bypassCSP: true });
  try {
    await showDevice(page);
    const select = page.locator(`${HOST} select.measure-threads`);
    if (await page.evaluate(() => navigator.hardwareConcurrency) < 2) {
      assert.equal(await select.count(), 0);
      return;
    }
    assert.equal(await select.count(), 1);
    assert.match(norm(await page.locator(`${HOST} .measure-threads-label`).textContent()), /^Threads/);
    await page.addScriptTag({ path: join(ROOT, 'tests/node_modules/axe-core/axe.min.js') });
    const violations = await page.evaluate(async () => {
      // eslint-disable-next-line no-undef
      const res = await axe.run({ include: [['#measure-device']] }, { resultTypes: ['violations'] });
      return res.violations.map((v) => `${v.id}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
    });
    assert.deepEqual(violations, []);
    await page.locator(`${HOST} .measure`).screenshot({ path: shotPath('device-threads-pt-dark.png') });
    // cancelling 2 threads stops both workers: nothing changes afterwards, and the option is back
    await select.selectOption('2');
    await page.locator(`${HOST} [data-measure]`).click();
    await until(page, (sel) => document.querySelector(sel).shadowRoot.querySelector('[data-measure-state="running"]'), HOST);
    assert.ok(await select.isDisabled(), 'no change of threads while measuring');
    await page.locator(`${HOST} .measure-cancel`).click();
    await page.waitForTimeout(1500);
    assert.equal(await page.locator(`${HOST} [data-measure-state]`).getAttribute('data-measure-state'), 'cancelled');
    assert.equal(await field(page, 'device', 'bw').inputValue(), '');
    assert.ok(!(await select.isDisabled()));
    assert.equal(await select.inputValue(), '2', 'the choice is kept');
  } finally {
    await context.close();
    await site.close();
  }
});

test('a team of workers agrees on the smallest arrays, and stops when one worker fails', async () => {
  const site = await serve(SITE_DIR, { isolated: true });
  const { page, context, errors } = await openPage(env.browser, `${site.url}embed-example.html`, { allowedOrigin: site.url });
  try {
    // worker 0 would take 64 MiB arrays, worker 1 only 4 MiB: both measure 4 MiB, and worker 0
    // reports for both
    const [lead, other] = await runTeam(page, [{ arrayBytes: 2 ** 26 }, { arrayBytes: 2 ** 22 }]);
    const done = lead.find((m) => m.type === 'done');
    assert.ok(done, JSON.stringify(lead));
    assert.deepEqual(other, [], 'only worker 0 reports');
    const res = done.result;
    assert.equal(res.threads, 2);
    assert.equal(res.arrayBytes, 2 ** 22);
    assert.equal(res.triad.bytes, 2 * 3 * 2 ** 22, 'the bytes of both workers');
    assert.equal(res.triad.elements, 2 * 2 ** 20);
    assert.equal(res.peak.flops, 2 * res.peak.iterations * 48 * 2, 'the FLOPs of both workers (fma_flops)');
    assert.ok(res.bytesPerSecond >= 1e9 && res.bytesPerSecond <= 500e9, String(res.bytesPerSecond));
    assert.ok(res.triad.seconds.min <= res.triad.seconds.median && res.triad.seconds.median <= res.triad.seconds.max);
    assert.ok(Math.abs(res.bytesPerSecond - res.triad.bytes / res.triad.seconds.min) <= 1e-9 * res.bytesPerSecond, 'the rate from the best run');
    // worker 1 cannot load its module: it reports why, and worker 0 stops instead of waiting
    const [lead2, other2] = await runTeam(page, [{ arrayBytes: 2 ** 22 }, { arrayBytes: 2 ** 22, badUrls: true }]);
    assert.equal(other2.at(-1).type, 'error');
    assert.equal(other2.at(-1).code, 'load');
    assert.deepEqual(lead2.map((m) => m.type), ['stopped']);
    // a malformed team is an error, not a hang
    const bad = await runWorker(page, { urls: {}, arrayBytes: 2 ** 22, team: { index: 3, size: 2, sharedBytes: 64 } });
    assert.equal(bad.type, 'error');
    assert.match(bad.detail, /team/);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
    await site.close();
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
