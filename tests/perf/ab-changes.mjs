#!/usr/bin/env node
// Two builds of the site compared on what an input change costs (docs/performance.md): both
// builds' index.html open side by side in one browser, each calculator brought into view in both,
// then blocks of a few changes measured on one build and the other in turn, alternating which goes
// first, so that a noisy moment of this shared machine hits both alike. The change, its handler
// and its change with paint are the page benchmark's (page.mjs: CHANGES, measureChanges). Prints
// each calculator's medians, their ratio B ÷ A, and in how many rounds B was faster.
//
//   node tests/perf/ab-changes.mjs SITE_A SITE_B [--kinds step,decode] [--rounds 20] [--changes 5]
//
// A/A (the same folder twice) shows the noise: see docs/performance.md.
import { launch, serve } from '../web/helpers.mjs';
import { CHANGES, measureChanges, summarize, median, calculatorInView } from './page.mjs';

function parseArgs(argv) {
  const o = { dirs: [], kinds: ['step', 'decode'], rounds: 20, changes: 5 };
  for (let i = 0; i < argv.length; i += 1) {
    if (argv[i] === '--kinds') o.kinds = argv[++i].split(',');
    else if (argv[i] === '--rounds') o.rounds = Number(argv[++i]);
    else if (argv[i] === '--changes') o.changes = Number(argv[++i]);
    else o.dirs.push(argv[i]);
  }
  if (o.dirs.length !== 2 || !(o.rounds >= 1) || !(o.changes >= 1) || o.kinds.some((k) => !CHANGES[k] || CHANGES[k].cell)) {
    console.error('usage: node tests/perf/ab-changes.mjs SITE_A SITE_B [--kinds step,decode] [--rounds N] [--changes N]');
    process.exit(2);
  }
  return o;
}

/** A page of `site` at index.html, settled, with every calculator of `kinds` built. */
async function open(browser, site, kinds) {
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 }, locale: 'en-US', colorScheme: 'light' });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${site.url}index.html?lang=en`, { waitUntil: 'load' });
  for (const kind of kinds) await calculatorInView(page, kind, CHANGES[kind]);
  await page.waitForTimeout(500);
  return { page, context, errors };
}

const o = parseArgs(process.argv.slice(2));
const sites = { A: await serve(o.dirs[0]), B: await serve(o.dirs[1]) };
const browser = await launch();
const samples = Object.fromEntries(o.kinds.map((k) => [k, { A: { handler: [], paint: [] }, B: { handler: [], paint: [] }, bWon: 0 }]));
try {
  let pages = null;
  for (let round = -1; round < o.rounds; round += 1) { // round -1 warms up and is not counted
    // both pages opened again every 4 rounds, in turn A first and B first: the page opened
    // second ran faster in an A/A run (0.88×), and a page's speed drifts as it ages
    if (round % 4 === 0 || !pages) {
      if (pages) for (const p of Object.values(pages)) await p.context.close();
      const order = (round / 4) % 2 ? ['B', 'A'] : ['A', 'B'];
      pages = {};
      for (const which of order) pages[which] = await open(browser, sites[which], o.kinds);
    }
    for (const kind of o.kinds) {
      const paint = {};
      for (const which of round % 2 ? ['A', 'B'] : ['B', 'A']) {
        const { page, errors } = pages[which];
        await page.bringToFront();
        await page.evaluate((k) => document.querySelector(`roofline-calculator[kind="${k}"]`).scrollIntoView({ block: 'center' }), kind);
        await page.waitForTimeout(100);
        const r = await page.evaluate(measureChanges, { kind, spec: CHANGES[kind], changes: o.changes });
        if (r.error || errors.length) throw new Error(`${which} ${kind}: ${r.error || errors.join('; ')}`);
        if (r.distinctOutputs < 2) throw new Error(`${which} ${kind}: the change did not change any result`);
        const s = summarize(r, CHANGES[kind], o.changes);
        paint[which] = s.paint.median;
        if (round >= 0) {
          samples[kind][which].handler.push(...s.samples.handler);
          samples[kind][which].paint.push(...s.samples.paint);
        }
      }
      if (round >= 0 && paint.B < paint.A) samples[kind].bWon += 1;
    }
    if (round >= 0) process.stderr.write(`round ${round + 1}/${o.rounds}\r`);
  }
} finally {
  await browser.close();
  await sites.A.close();
  await sites.B.close();
}
const f = (v) => v.toFixed(2);
console.log(`| calculator | handler A (ms) | handler B (ms) | B ÷ A | with paint A (ms) | with paint B (ms) | B ÷ A | rounds B faster (with paint) |`);
console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const kind of o.kinds) {
  const { A, B, bWon } = samples[kind];
  const [hA, hB, pA, pB] = [median(A.handler), median(B.handler), median(A.paint), median(B.paint)];
  console.log(`| ${kind} | ${f(hA)} | ${f(hB)} | ${f(hB / hA)} | ${f(pA)} | ${f(pB)} | ${f(pB / pA)} | ${bWon} of ${o.rounds} |`);
}
