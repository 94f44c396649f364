// Where the page shows the lesson's worked numbers (tests/lesson/coverage.json), read from the
// served page in each language. For every entry it prints whether its page.text is found in its
// section; for an entry the page does not show yet (page: null) it lists the places where the
// lesson's figure, written as the page writes numbers in that language, appears.
//
//   node tests/lesson/coverage-find.mjs            # prints, changes nothing
//   node tests/lesson/coverage-find.mjs --write    # also fills page for page: null entries with
//                                                  # exactly one candidate whose figure has three
//                                                  # digits or a decimal (marked "auto": true)
//   options: --lang es   (one language)   --id <id>   (one entry)   --all   (print every entry)
//
// SITE_DIR as for the browser tests (default build-wasm/site). tests/web/coverage.test.mjs
// imports the readers below, so the test and this script read the page the same way.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
export const COVERAGE = resolve(HERE, 'coverage.json');

/** The change that opens every exercise's solution and every check question's explanation. */
export const SOLUTIONS = 'open-solutions';

/** Same as helpers.mjs norm, and every run of white space (a line break between nodes) as one space. */
export const norm = (s) => String(s).replace(/[\u00a0\u202f]/g, ' ').replace(/\s+/g, ' ').replace(/\s+%/g, '%').trim();

export function readCoverage(file = COVERAGE) {
  return JSON.parse(readFileSync(file, 'utf8'));
}

/**
 * The load an entry is read on: '' (the lesson's inputs), a change's query string, or
 * 'action:open-solutions'.
 */
export function loadKey(entry) {
  const c = entry.page && entry.page.change;
  if (!c) return '';
  if (c.action) return `action:${c.action}`;
  return c.url;
}

/** The address of a load: index.html?lang=…, then the change's URL-state parameters. */
export function loadUrl(base, lang, key) {
  const q = key && !key.startsWith('action:') ? `&${key}` : '';
  return `${base}index.html?lang=${lang}${q}`;
}

/**
 * Runs a load's action in an open page: for open-solutions, presses Check on every exercise and
 * check question (with nothing typed, which counts as an attempt), then opens each exercise's
 * solution, and waits until every one is shown.
 */
export async function runAction(page, key) {
  if (key !== `action:${SOLUTIONS}`) return;
  const checks = page.locator('#exercises [data-check], #check [data-check]');
  const n = await checks.count();
  for (let i = 0; i < n; i += 1) await checks.nth(i).click();
  const solutions = page.locator('#exercises [data-solution]');
  const m = await solutions.count();
  for (let i = 0; i < m; i += 1) await solutions.nth(i).click();
  const end = Date.now() + 15000;
  for (;;) {
    const open = await page.evaluate(() => [...document.querySelectorAll('#exercises roofline-calculator, #check roofline-calculator')]
      .reduce((sum, el) => sum + (el.shadowRoot ? el.shadowRoot.querySelectorAll('.solution:not([hidden])').length : 0), 0));
    if (open >= n) return;
    if (Date.now() > end) throw new Error(`only ${open} of ${n} solutions and explanations opened`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * { sectionId: text } of the page: the masthead as 'header', then every <section> under
 * <main id="main">: its text nodes in document order, shadow roots included, and the value of
 * every text field (what the reader sees typed in it), each trimmed, joined by one space and
 * normalized.
 */
export async function sectionTexts(page) {
  const raw = await page.evaluate(() => {
    const walk = (node, acc) => {
      if (node.shadowRoot) walk(node.shadowRoot, acc);
      for (const c of node.childNodes) {
        if (c.nodeType === 3) {
          const t = c.textContent.trim();
          if (t) acc.push(t);
        } else if (c.nodeType === 1) {
          if (c.tagName === 'INPUT') {
            if ((c.type === 'text' || c.type === 'number') && c.value.trim()) acc.push(c.value.trim());
          } else if (c.matches('details.term-tip:not([open]) > p')) {
            // a term's definition, in place in a calculator: not on screen until opened
          } else if (c.tagName !== 'SCRIPT' && c.tagName !== 'STYLE' && c.tagName !== 'TEMPLATE') {
            walk(c, acc);
          }
        }
      }
    };
    const out = {};
    const header = document.querySelector('#lab > header');
    if (header) {
      const acc = [];
      walk(header, acc);
      out.header = acc.join(' ');
    }
    const main = document.getElementById('main');
    for (const s of main ? main.children : []) {
      if (!s.id) continue;
      const acc = [];
      walk(s, acc);
      out[s.id] = acc.join(' ');
    }
    return out;
  });
  for (const k of Object.keys(raw)) raw[k] = norm(raw[k]);
  return raw;
}

const isDigit = (ch) => ch >= '0' && ch <= '9';

/**
 * True when `text` occurs in `body` as a whole figure: a match that starts (ends) with a digit
 * must not have a digit right before (after) it, nor a decimal or group mark that a digit
 * precedes (follows), so "203" is not found in "1,203" or "203.1".
 */
export function found(body, text) {
  const t = norm(text);
  if (!t) return false;
  for (let i = body.indexOf(t); i >= 0; i = body.indexOf(t, i + 1)) {
    const j = i + t.length;
    if (isDigit(t[0]) && i > 0) {
      const b = body[i - 1];
      if (isDigit(b) || ((b === '.' || b === ',') && i > 1 && isDigit(body[i - 2]))) continue;
    }
    if (isDigit(t[t.length - 1]) && j < body.length) {
      const a = body[j];
      if (isDigit(a) || ((a === '.' || a === ',') && j + 1 < body.length && isDigit(body[j + 1]))) continue;
    }
    return true;
  }
  return false;
}

/** Entries with a page, grouped by language and load: Map(lang → Map(key → entries)). */
export function groupLoads(entries, { all = false } = {}) {
  const byLang = new Map();
  for (const e of entries) {
    if (!e.page && !all) continue;
    if (!byLang.has(e.lang)) byLang.set(e.lang, new Map());
    const loads = byLang.get(e.lang);
    const key = loadKey(e);
    if (!loads.has(key)) loads.set(key, []);
    loads.get(key).push(e);
  }
  return byLang;
}

/** Counts of the coverage: shown at the lesson's inputs, after a change, reduced, missing, contradicted. */
export function counts(entries) {
  const c = { total: entries.length, shown: 0, inputs: 0, changed: 0, reduced: 0, missing: 0, contradicted: 0 };
  for (const e of entries) {
    if (e.page) {
      c.shown += 1;
      if (e.page.change) c.changed += 1;
      else c.inputs += 1;
      if (e.form === 'reduced') c.reduced += 1;
    } else {
      c.missing += 1;
      if (e.conflict) c.contradicted += 1;
    }
  }
  return c;
}

// ---- the figures of a lesson text, written as the page writes numbers ----------------------

/** The figures in a lesson text: "4,100", "0.126", "10⁹" is left out (a power of ten alone). */
function figures(lessonText, lesson) {
  const out = [];
  const re = /\d[\d.,]*\d|\d/g;
  for (const m of String(lessonText).matchAll(re)) {
    const raw = m[0];
    // group and decimal marks as the lesson writes them: pt (000) 1.234,5; en/es 1,234.5
    const group = lesson === 'pt' ? '.' : ',';
    const decimal = lesson === 'pt' ? ',' : '.';
    const groups = raw.split(decimal);
    if (groups.length > 2) continue;
    const intPart = groups[0].split(group).join('');
    if (!/^\d+$/.test(intPart)) continue;
    const frac = groups[1] || '';
    if (frac && !/^\d+$/.test(frac)) continue;
    out.push({ raw, intPart, frac });
  }
  return out;
}

/** The ways the page may print a figure in `lang`: grouped (2,048 / 2.048) and ungrouped. */
export function formattings(fig, lang) {
  const group = lang === 'pt' ? '.' : ',';
  const decimal = lang === 'pt' ? ',' : '.';
  const grouped = fig.intPart.replace(/\B(?=(\d{3})+(?!\d))/g, group);
  const tail = fig.frac ? decimal + fig.frac : '';
  return [...new Set([grouped + tail, fig.intPart + tail])];
}

/** The lesson's language of an entry's lesson_text: 000 is Portuguese, the others en/es notation. */
const lessonOf = (entry) => (String(entry.source).startsWith('000') ? 'pt' : 'en');

/**
 * Places (load, section) where every figure of an entry's lesson_text appears in one of the
 * page's formattings, each with its most telling figure (the longest) as the page writes it. A
 * section that has them at the lesson's inputs is listed once, without the loads that change
 * something. `strong` is true when that figure has three digits or more, or a decimal part: a
 * lone "2" or "32" says little about where a number is.
 */
export function candidates(entry, pages) {
  const figs = figures(entry.lesson_text, lessonOf(entry)).filter((f) => f.intPart.length > 1 || f.frac || Number(f.intPart) > 1);
  if (!figs.length) return [];
  const main = [...figs].sort((a, b) => (b.intPart.length + b.frac.length) - (a.intPart.length + a.frac.length))[0];
  const strong = main.intPart.length + main.frac.length >= 3 || main.frac.length > 0;
  const out = [];
  const atInputs = new Set();
  for (const [key, sections] of pages) {
    for (const [section, body] of Object.entries(sections)) {
      if (key !== '' && atInputs.has(section)) continue;
      if (!figs.every((f) => formattings(f, entry.lang).some((t) => found(body, t)))) continue;
      const text = formattings(main, entry.lang).find((t) => found(body, t));
      if (key === '') atInputs.add(section);
      out.push({ key, section, text, strong });
    }
  }
  return out;
}

/** coverage.json as it is kept: the header, then one entry per line. */
export function serialize(doc) {
  const ser = (v) => {
    if (Array.isArray(v)) return `[${v.map(ser).join(', ')}]`;
    if (v && typeof v === 'object') return `{${Object.entries(v).map(([k, x]) => `${JSON.stringify(k)}: ${ser(x)}`).join(', ')}}`;
    return JSON.stringify(v);
  };
  const head = Object.entries(doc).filter(([k]) => k !== 'numbers').map(([k, v]) => `  ${JSON.stringify(k)}: ${ser(v)},`).join('\n');
  return `{\n${head}\n  "numbers": [\n${doc.numbers.map((e) => `    ${ser(e)}`).join(',\n')}\n  ]\n}\n`;
}

// ---- the script ------------------------------------------------------------------------------

async function main(argv) {
  const arg = (name) => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : null;
  };
  const write = argv.includes('--write');
  const printAll = argv.includes('--all');
  const onlyLang = arg('--lang');
  const onlyId = arg('--id');
  const { launch, serve, openPage, requireSite } = await import('../web/helpers.mjs');
  requireSite(['index.html']);
  const doc = readCoverage();
  const entries = doc.numbers.filter((e) => (!onlyLang || e.lang === onlyLang) && (!onlyId || e.id === onlyId));
  // every load coverage.json names, in each language it has entries for
  const keys = ['', ...new Set(doc.numbers.map(loadKey).filter(Boolean))];
  const langs = [...new Set(entries.map((e) => e.lang))];
  const browser = await launch();
  const site = await serve();
  const pages = new Map(); // lang → Map(key → sections)
  try {
    for (const lang of langs) {
      const loads = new Map();
      for (const key of keys) {
        const { page, context } = await openPage(browser, loadUrl(site.url, lang, key), { allowedOrigin: site.url });
        try {
          await runAction(page, key);
          loads.set(key, await sectionTexts(page));
        } finally {
          await context.close();
        }
      }
      pages.set(lang, loads);
    }
  } finally {
    await browser.close();
    await site.close();
  }
  const label = (key) => (key === '' ? 'lesson inputs' : key);
  let notFound = 0;
  let filled = 0;
  for (const e of entries) {
    const loads = pages.get(e.lang);
    if (e.page) {
      const body = (loads.get(loadKey(e)) || {})[e.page.section];
      const ok = body !== undefined && found(body, e.page.text);
      if (!ok) notFound += 1;
      if (!ok || printAll) console.log(`${ok ? 'found    ' : 'NOT FOUND'} ${e.id} [${e.lang}] ${e.page.section}: ${JSON.stringify(e.page.text)} (${label(loadKey(e))})`);
      if (!ok) {
        for (const c of candidates(e, loads).slice(0, 8)) console.log(`          candidate ${c.section}: ${JSON.stringify(c.text)} (${label(c.key)})`);
      }
      continue;
    }
    const cs = candidates(e, loads);
    console.log(`missing   ${e.id} [${e.lang}] ${JSON.stringify(e.lesson_text)}: ${cs.length ? `${cs.length} candidate${cs.length > 1 ? 's' : ''}` : 'no candidate'} (${e.missing})`);
    for (const c of cs.slice(0, 8)) console.log(`          candidate ${c.section}: ${JSON.stringify(c.text)} (${label(c.key)})`);
    if (write && cs.length === 1 && cs[0].strong) {
      const [c] = cs;
      const page = { section: c.section, text: c.text };
      if (c.key.startsWith('action:')) page.change = { action: c.key.slice('action:'.length), note: 'every exercise and check question answered once (Check), then each exercise\'s step-by-step solution opened' };
      else if (c.key) page.change = { url: c.key, note: `the change ${c.key}` };
      const target = doc.numbers.find((x) => x.id === e.id);
      target.page = page;
      delete target.missing;
      target.auto = true;
      filled += 1;
    }
  }
  const c = counts(doc.numbers);
  console.log(`\n${c.total} numbers: ${c.shown} shown (${c.inputs} at the lesson's inputs, ${c.changed} after a change; ${c.reduced} reduced), ${c.missing} missing (${c.contradicted} contradicted); ${notFound} page texts not found`);
  if (write) {
    writeFileSync(COVERAGE, serialize(doc));
    console.log(`${filled} entries filled (marked "auto": true) in ${COVERAGE}`);
  }
  return notFound ? 1 : 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main(process.argv.slice(2)).then((code) => { process.exitCode = code; }, (err) => {
    console.error(err);
    process.exitCode = 2;
  });
}
