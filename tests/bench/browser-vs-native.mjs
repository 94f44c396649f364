#!/usr/bin/env node
// The browser against the native benchmark on this machine, in one run: for a few rounds, for each
// thread count asked for, it runs roofline-bench (--threads N --only peak_fp32,triad) and the
// browser benchmark (Debian's Chromium, headless, on the served page under the strict CSP) one
// after the other, and prints each one's best triad bandwidth and FP32 peak and the browser ÷
// native ratios, per thread count. With more than one thread the page is served cross-origin
// isolated (the only way the browser benchmark offers threads), and its threads select is used.
//   node tests/bench/browser-vs-native.mjs [--rounds 3] [--threads 1,2] [--bench build/bench/roofline-bench] [--site build-wasm/site]
// Needs a native build (build/), the site (build-wasm/site) and tests/node_modules (npm ci --prefix tests).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSiteServer } from '../../web/serve.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const opt = { rounds: 3, threads: [1], bench: join(ROOT, 'build/bench/roofline-bench'), site: join(ROOT, 'build-wasm/site') };
for (let i = 2; i < process.argv.length; i += 1) {
  const a = process.argv[i];
  if (a === '--rounds') opt.rounds = Number(process.argv[++i]);
  else if (a === '--threads') opt.threads = String(process.argv[++i]).split(',').map(Number);
  else if (a === '--bench') opt.bench = resolve(process.argv[++i]);
  else if (a === '--site') opt.site = resolve(process.argv[++i]);
  else {
    console.error('usage: node tests/bench/browser-vs-native.mjs [--rounds N] [--threads 1,2,…] [--bench PATH] [--site DIR]');
    process.exit(2);
  }
}
if (!Number.isInteger(opt.rounds) || opt.rounds < 1) throw new Error('--rounds must be a whole number ≥ 1');
if (!opt.threads.length || !opt.threads.every((t) => Number.isInteger(t) && t >= 1 && t <= 16)) throw new Error('--threads must list whole numbers from 1 to 16, e.g. 1,2');

const { chromium } = createRequire(join(ROOT, 'tests/package.json'))('playwright-core');
const tmp = mkdtempSync(join(tmpdir(), 'roofline-compare-'));

function native(round, threads) {
  const out = join(tmp, `native-${round}-${threads}.json`);
  execFileSync(opt.bench, ['--threads', String(threads), '--only', 'peak_fp32,triad', '--json', out], { stdio: ['ignore', 'ignore', 'inherit'] });
  const r = JSON.parse(readFileSync(out, 'utf8'));
  return { bytesPerSecond: r.ceilings.measured.bytesPerSecond, flopsPerSecond: r.ceilings.measured.peakFlopsPerSecond.fp32 };
}

async function browserRun(browser, url, threads) {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(url);
    const host = 'roofline-calculator[kind="device"]';
    await page.locator(host).scrollIntoViewIfNeeded();
    if (threads > 1) await page.locator(`${host} select.measure-threads`).selectOption(String(threads));
    await page.locator(`${host} [data-measure]`).click();
    const box = page.locator(`${host} [data-measure-state]`);
    for (let i = 0; i < 600; i += 1) {
      const st = await box.getAttribute('data-measure-state');
      if (st === 'done') break;
      if (st === 'error' || st === 'cancelled') throw new Error(await page.locator(`${host} .measure-status`).textContent());
      await page.waitForTimeout(50);
    }
    return { bytesPerSecond: Number(await box.getAttribute('data-bytes-per-second')), flopsPerSecond: Number(await box.getAttribute('data-flops-per-second')) };
  } finally {
    await context.close();
  }
}

const server = createSiteServer(opt.site, { isolated: opt.threads.some((t) => t > 1) });
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const url = `http://127.0.0.1:${server.address().port}/index.html?lang=en#measure-device`;
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
const runs = Object.fromEntries(opt.threads.map((t) => [t, { native: [], browser: [] }]));
const gb = (x) => (x / 1e9).toFixed(2);
try {
  console.log(`load average before: ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
  for (let round = 1; round <= opt.rounds; round += 1) {
    for (const t of opt.threads) {
      runs[t].native.push(native(round, t));
      runs[t].browser.push(await browserRun(browser, url, t));
      const n = runs[t].native.at(-1);
      const b = runs[t].browser.at(-1);
      console.log(`round ${round}, ${t} thread(s): native ${gb(n.bytesPerSecond)} GB/s ${(n.flopsPerSecond / 1e9).toFixed(1)} GFLOPS; browser ${gb(b.bytesPerSecond)} GB/s ${(b.flopsPerSecond / 1e9).toFixed(1)} GFLOPS`);
    }
  }
  console.log(`load average after: ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
} finally {
  await browser.close();
  server.close();
  rmSync(tmp, { recursive: true, force: true });
}
const best = (list, key) => Math.max(...list.map((x) => x[key]));
console.log(`\n| best of ${opt.rounds} | native roofline-bench | browser (WebAssembly) | browser ÷ native |`);
console.log('| --- | --- | --- | --- |');
for (const t of opt.threads) {
  const r = runs[t];
  const bw = { native: best(r.native, 'bytesPerSecond'), browser: best(r.browser, 'bytesPerSecond') };
  const peak = { native: best(r.native, 'flopsPerSecond'), browser: best(r.browser, 'flopsPerSecond') };
  const label = t === 1 ? 'one thread' : `${t} threads`;
  console.log(`| triad bandwidth, ${label} | ${gb(bw.native)} GB/s | ${gb(bw.browser)} GB/s | ${(bw.browser / bw.native).toFixed(2)} |`);
  console.log(`| FP32 peak, ${label} | ${(peak.native / 1e9).toFixed(1)} GFLOPS | ${(peak.browser / 1e9).toFixed(1)} GFLOPS | ${(peak.browser / peak.native).toFixed(2)} |`);
}
