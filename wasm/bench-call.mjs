#!/usr/bin/env node
// Time of one call of the JS API, from both packaged builds in one run: per build and per call,
// the median, minimum and 90th percentile in microseconds over many single calls after a
// warm-up. Two pure-JS rows time an empty function call (the cost of the timer itself) and
// JSON.stringify of the roofline() arguments, so ratios are visible.
// Usage: node wasm/bench-call.mjs [site-dir ...] [--calls N] [--warmup N]   (default build-wasm/site)
// With several site folders (e.g. a copy of the build before a change, and the build after it),
// each call is timed in all of them in turn, in blocks of 100 calls, so that load from other
// processes on a shared machine falls on all alike; each row then names its folder and gives its
// median as a ratio to the first folder's.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const argv = process.argv.slice(2);
const option = (name, fallback) => {
  const i = argv.indexOf(name);
  if (i < 0) return fallback;
  const [value] = argv.splice(i, 2).slice(1);
  return Number(value);
};
const calls = option('--calls', 20000);
const warmup = option('--warmup', 5000);
const dirs = (argv.length ? argv : ['build-wasm/site']).map((d) => resolve(d));
if (!(calls >= 1) || !(warmup >= 0) || argv.some((a) => a.startsWith('--'))) {
  console.error('usage: node wasm/bench-call.mjs [site-dir ...] [--calls N] [--warmup N]');
  process.exit(2);
}

const require = createRequire(import.meta.url);
const builds = {
  'roofline.mjs': async (dir) => (await import(pathToFileURL(join(dir, 'roofline.mjs')).href)).default(),
  'roofline.js': async (dir) => require(join(dir, 'roofline.js'))(),
};

let sink = 0;  // keeps results alive so nothing is optimized away
const keep = (x) => { sink += typeof x === 'object' && x !== null ? 1 : 0; };

/**
 * Times `calls` single calls of each function of fs after `warmup` untimed ones, the functions
 * taking turns in blocks of 100 calls (the first in each block changing); returns microseconds.
 */
function time(...fs) {
  for (const f of fs) for (let i = 0; i < warmup; i++) keep(f());
  const us = fs.map(() => new Float64Array(calls));
  const block = fs.length > 1 ? 100 : calls;
  for (let start = 0, turn = 0; start < calls; start += block, turn++) {
    for (let j = 0; j < fs.length; j++) {
      const k = (j + turn) % fs.length;
      const f = fs[k];
      for (let i = start; i < Math.min(calls, start + block); i++) {
        const t0 = process.hrtime.bigint();
        const r = f();
        const t1 = process.hrtime.bigint();
        keep(r);
        us[k][i] = Number(t1 - t0) / 1000;
      }
    }
  }
  return us.map((u) => {
    u.sort();
    const at = (q) => u[Math.min(calls - 1, Math.floor(q * calls))];
    return { median: at(0.5), min: u[0], p90: at(0.9) };
  });
}

// DeepSeek-V3's published config.json, from its catalog file, as a reader would paste it
const DEEPSEEK_V3 = JSON.stringify(JSON.parse(readFileSync(new URL('../core/catalog/models/deepseek-v3.json', import.meta.url), 'utf8')).config, null, 2);

function cases(rl) {
  return {
    'modelFromConfig(DeepSeek-V3)': () => rl.modelFromConfig({ config: DEEPSEEK_V3 }),
    'step(DeepSeek-V3, decode)': () => rl.step({ model: 'deepseek-v3', gpu: 'h200', phase: 'decode', batch: 8, context: 4096 }),
    'roofline()': () => rl.roofline({ peakFlopsPerSecond: 65e12, bytesPerSecond: 320e9, flopsPerByte: 1 }),
    'decode()': () => rl.decode({ weightBytes: 16.06e9, kvBytesPerSequence: 0, batch: 1, bytesPerSecond: 300e9 }),
    'matmul()': () => rl.matmul({ n: 32, k: 2048, m: 500, dtype: 'fp16' }),
    'gpus()': () => rl.gpus(),
    'roofline() error': () => {
      try {
        return rl.roofline({ peakFlopsPerSecond: 65e12, bytesPerSecond: 320e9, flopsPerByte: -1 });
      } catch (e) {
        if (!(e instanceof rl.RooflineError)) throw e;
        return e;
      }
    },
  };
}

const rows = [];
const empty = (a) => a;
const baseline = {
  'empty function call': () => empty({ peakFlopsPerSecond: 65e12, bytesPerSecond: 320e9, flopsPerByte: 1 }),
  'JSON.stringify(args)': () => ({ s: JSON.stringify({ peakFlopsPerSecond: 65e12, bytesPerSecond: 320e9, flopsPerByte: 1 }) }),
};
for (const [name, f] of Object.entries(baseline)) rows.push(['pure JS', name, time(f)[0]]);
const label = (build, k) => (dirs.length > 1 ? `${basename(dirs[k])}/${build}` : build);
for (const [build, load] of Object.entries(builds)) {
  const perDir = [];
  for (const dir of dirs) perDir.push(cases(await load(dir)));
  for (const name of Object.keys(perDir[0])) {
    const times = time(...perDir.map((c) => c[name]));
    times.forEach((t, k) => rows.push([label(build, k), name, t, k > 0 ? t.median / times[0].median : null]));
  }
}

const fmt = (x) => x.toFixed(2);
console.log(`${calls} timed calls each after ${warmup} untimed, Node ${process.version}, ${dirs.join(', ')}\n`);
if (dirs.length > 1) {
  console.log('| build | call | median µs | min µs | p90 µs | median ÷ first folder\'s |');
  console.log('| --- | --- | ---: | ---: | ---: | ---: |');
} else {
  console.log('| build | call | median µs | min µs | p90 µs |');
  console.log('| --- | --- | ---: | ---: | ---: |');
}
for (const [build, name, t, ratio] of rows) {
  const last = dirs.length > 1 ? ` ${ratio == null ? '' : ratio.toFixed(3)} |` : '';
  console.log(`| ${build} | ${name} | ${fmt(t.median)} | ${fmt(t.min)} | ${fmt(t.p90)} |${last}`);
}
if (sink < 0) console.log(sink);
