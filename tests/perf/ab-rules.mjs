#!/usr/bin/env node
// What a part of a calculator costs in an input change (docs/performance.md): style rules added to
// the calculator's shadow root (a constructed sheet; `.step-ops { display: none }` hides its table
// of operators, while the change still computes and writes everything), each a variant, measured
// in one page in blocks of a few changes, the variants in turn and their order reversed every other
// round, so that a slow moment of this shared machine does not land on one variant. The change and
// its measurements are the page benchmark's (page.mjs: CHANGES, measureChanges).
//
//   node tests/perf/ab-rules.mjs SITE_DIR --kind step --rules '{"as shipped": "", "no table": ".step-ops { display: none }"}' [--rounds 16] [--changes 5]
import { launch, serve } from '../web/helpers.mjs';
import { CHANGES, measureChanges, summarize, median, calculatorInView } from './page.mjs';

function parseArgs(argv) {
  const o = { dir: null, kind: 'step', rules: null, rounds: 16, changes: 5 };
  for (let i = 0; i < argv.length; i += 1) {
    if (argv[i] === '--kind') o.kind = argv[++i];
    else if (argv[i] === '--rules') o.rules = JSON.parse(argv[++i]);
    else if (argv[i] === '--rounds') o.rounds = Number(argv[++i]);
    else if (argv[i] === '--changes') o.changes = Number(argv[++i]);
    else o.dir = argv[i];
  }
  if (!o.dir || !o.rules || !Object.keys(o.rules).length || !CHANGES[o.kind] || CHANGES[o.kind].cell || !(o.rounds >= 1) || !(o.changes >= 1)) {
    console.error('usage: node tests/perf/ab-rules.mjs SITE_DIR --kind step --rules \'{"name": "css", …}\' [--rounds N] [--changes N]');
    process.exit(2);
  }
  return o;
}

const o = parseArgs(process.argv.slice(2));
const site = await serve(o.dir);
const browser = await launch();
const spec = CHANGES[o.kind];
const samples = Object.fromEntries(Object.keys(o.rules).map((k) => [k, { handler: [], paint: [] }]));
try {
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 }, locale: 'en-US', colorScheme: 'light' });
  const page = await context.newPage();
  await page.goto(`${site.url}index.html?lang=en`, { waitUntil: 'load' });
  await calculatorInView(page, o.kind, spec);
  await page.waitForTimeout(800);
  for (let round = -1; round < o.rounds; round += 1) { // round -1 warms up and is not counted
    const names = Object.keys(o.rules);
    if (round % 2) names.reverse();
    for (const name of names) {
      await page.evaluate(({ k, css }) => {
        const root = document.querySelector(`roofline-calculator[kind="${k}"]`).shadowRoot;
        const sheet = new CSSStyleSheet();
        sheet.replaceSync(css);
        root.abRulesFrom = root.abRulesFrom ?? root.adoptedStyleSheets.length; // the calculator's own sheets
        root.adoptedStyleSheets = [...root.adoptedStyleSheets.slice(0, root.abRulesFrom), sheet];
      }, { k: o.kind, css: o.rules[name] });
      await page.waitForTimeout(100);
      const r = await page.evaluate(measureChanges, { kind: o.kind, spec, changes: o.changes });
      if (r.error) throw new Error(r.error);
      const s = summarize(r, spec, o.changes);
      if (round >= 0) {
        samples[name].handler.push(...s.samples.handler);
        samples[name].paint.push(...s.samples.paint);
      }
    }
    if (round >= 0) process.stderr.write(`round ${round + 1}/${o.rounds}\r`);
  }
  await context.close();
} finally {
  await browser.close();
  await site.close();
}
console.log(`| ${o.kind}: rules added | handler (ms) | with paint (ms) |`);
console.log('| --- | ---: | ---: |');
for (const [name, v] of Object.entries(samples)) console.log(`| ${name} | ${median(v.handler).toFixed(2)} | ${median(v.paint).toFixed(2)} |`);
