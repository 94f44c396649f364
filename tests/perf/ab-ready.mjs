#!/usr/bin/env node
// Two builds of the site compared on time to ready, load by load (docs/performance.md): each
// round loads every page once from each build, alternating which build goes first, in one
// browser, so that a noisy moment of this shared machine hits both builds alike. The ready
// definition and the probe are the page benchmark's (page.mjs). Prints each page's medians, their
// ratio B ÷ A, and in how many rounds B was faster.
//
//   node tests/perf/ab-ready.mjs SITE_A SITE_B [--pages index,lab,embed] [--rounds 15]
//
// A/A (the same folder twice) shows the noise: ratios of 0.97–1.03 on this machine.
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { launch, serve } from '../web/helpers.mjs';
import { TARGETS, loadOnce, median } from './page.mjs';

const URLS = {
  index: (site) => `${site.url}index.html?lang=en`,
  lab: (site) => pathToFileURL(join(site.dir, 'roofline-lab.html')).href,
  embed: (site) => `${site.url}embed-example.html`,
};

function parseArgs(argv) {
  const o = { dirs: [], pages: ['index', 'lab', 'embed'], rounds: 15 };
  for (let i = 0; i < argv.length; i += 1) {
    if (argv[i] === '--pages') o.pages = argv[++i].split(',');
    else if (argv[i] === '--rounds') o.rounds = Number(argv[++i]);
    else o.dirs.push(argv[i]);
  }
  if (o.dirs.length !== 2 || !(o.rounds >= 1) || o.pages.some((p) => !URLS[p])) {
    console.error('usage: node tests/perf/ab-ready.mjs SITE_A SITE_B [--pages index,lab,embed] [--rounds N]');
    process.exit(2);
  }
  return o;
}

async function serveDir(dir) {
  return { ...(await serve(dir)), dir: resolve(dir) };
}

const o = parseArgs(process.argv.slice(2));
const sites = { A: await serveDir(o.dirs[0]), B: await serveDir(o.dirs[1]) };
const browser = await launch();
const times = Object.fromEntries(o.pages.map((p) => [p, { A: [], B: [] }]));
try {
  for (let round = -1; round < o.rounds; round += 1) { // round -1 warms up and is not counted
    for (const p of o.pages) {
      for (const which of round % 2 ? ['A', 'B'] : ['B', 'A']) {
        const r = await loadOnce(browser, URLS[p](sites[which]), TARGETS[p]);
        if (r.errors.length) throw new Error(`${which} ${p}: ${r.errors.join('; ')}`);
        if (round >= 0) times[p][which].push(r.ready);
      }
    }
    if (round >= 0) process.stderr.write(`round ${round + 1}/${o.rounds}\r`);
  }
} finally {
  await browser.close();
  await sites.A.close();
  await sites.B.close();
}
console.log(`| page | A median (ms) | B median (ms) | B ÷ A | rounds B faster |`);
console.log('| --- | ---: | ---: | ---: | ---: |');
for (const [p, t] of Object.entries(times)) {
  const a = median(t.A);
  const b = median(t.B);
  const wins = t.A.filter((x, i) => t.B[i] < x).length;
  console.log(`| ${p} | ${a.toFixed(1)} | ${b.toFixed(1)} | ${(b / a).toFixed(3)} | ${wins} of ${t.A.length} |`);
}
