#!/usr/bin/env node
// Builds the Roofline Lab site from web/src and web/i18n (Node standard library only):
//   node web/build.mjs --module-dir build-wasm/site --out build-wasm/site
// writes into --out:
//   index.html, roofline-lab.css, roofline-calculator.js  the served page (loads roofline.js)
//   roofline-lab.html                                     one self-contained file (works from file://)
//   embed-example.html, embed-example.css                 one calculator embedded in another page
//   roofline-calculator.css, snippets/<kind>.<lang>.html  each calculator prerendered, to paste
// roofline-calculator.js is also the embeddable custom element <roofline-calculator>.
import { readFileSync, writeFileSync, mkdirSync, mkdtempSync, existsSync, copyFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';
import { prerender, prerenderCalculators, PRERENDER_CSS } from './prerender.mjs';
import { catalogTexts as readCatalogTexts } from './catalog-texts.mjs';
import { calculatorTypes } from './calculator-types.mjs';
import { esbuild, ESBUILD_TARGET, MINIFY, minifyCss } from '../wasm/esbuild.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const SRC = join(HERE, 'src');
const I18N = join(HERE, 'i18n');
// The calculator kinds (web/src/kinds.js). The calculators an author can paste prerendered
// (snippets/<kind>.<lang>.html) are its `snippet` ones. Not byhand: its grid is placed through
// element.style, which static HTML could only carry as style attributes, refused by a strict CSP;
// nor device, which measures the reader's own machine.
import { KINDS, SNIPPET_KINDS, kindExport } from './src/kinds.js';
// The languages (web/src/lang.js) and how each writes numbers, read from this Node's Intl and
// written into every bundle (web/src/numbers.js: the page then needs no locale data of its own)
import { LANGS } from './src/lang.js';
import { NUMBERS } from './src/numbers.js';

function args(argv) {
  const out = { moduleDir: 'build-wasm/site', out: null };
  for (let i = 0; i < argv.length; i += 1) {
    if (argv[i] === '--module-dir') out.moduleDir = argv[++i];
    else if (argv[i] === '--out') out.out = argv[++i];
    else if (argv[i] === '--help') {
      console.log('usage: node web/build.mjs --module-dir DIR --out DIR');
      process.exit(0);
    } else throw new Error(`unknown argument ${argv[i]}`);
  }
  out.out = out.out || out.moduleDir;
  return out;
}

function readJson(path, optional) {
  if (!existsSync(path)) {
    if (optional) {
      console.warn(`build: ${relative(process.cwd(), path)} not found, building without it`);
      return {};
    }
    throw new Error(`missing ${path}`);
  }
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new Error(`${path}: ${e.message}`);
  }
}

/** Every UI string and catalog text must exist in every language (no silent English fallback). */
function checkTexts(file, texts) {
  const missing = [];
  for (const [id, entry] of Object.entries(texts)) {
    for (const l of LANGS) if (typeof entry[l] !== 'string' || !entry[l].trim()) missing.push(`${id}.${l}`);
  }
  if (missing.length) throw new Error(`${file.includes('/') ? file : `web/i18n/${file}`} is missing translations: ${missing.join(', ')}`);
}

// ---- bundling and minifying: esbuild -------------------------------------------------------
// web/src is plain ES modules; esbuild (wasm/esbuild.mjs) bundles each script from its entry module, as
// one function scope for the browsers the page claims (docs/building.md#browsers), and minifies
// it. The modules are bundled from a copy of web/src with three modules written here beside them:
// data.js (the texts and styles each script carries, different per script) and kinds-first.js /
// kinds-later.js, from the registry of kinds (web/src/kinds.js). ROOFLINE_MINIFY=0 keeps the
// scripts readable, for debugging. The served page's two parts share one instance of each module:
// the first script hands the modules the later one imports to it (globalThis.__rooflineModules),
// and the later script takes them from there (esbuild's external imports, answered by that
// table) rather than carrying copies.
const DATA_NAMES = ['UI', 'PROSE', 'GLOSSARY', 'CATALOG', 'CALC_CSS', 'ALL_TEXTS', 'PRERENDER'];

/**
 * A value as the code that makes it: JSON.parse of its JSON text in a string literal. Engines read
 * a string and then JSON faster than the same data as an object literal, which the script's parser
 * has to take apart as code (the element's bundle, whose texts of three languages are most of its
 * 500 kB, ran 4–12 % faster that way in Chromium: docs/performance.md).
 */
function jsonLiteral(value) {
  // in single quotes: the JSON's many double quotes stay as they are
  return `JSON.parse('${JSON.stringify(value).replace(/\\/g, '\\\\').replace(/'/g, "\\'")}')`;
}

/** web/src copied into a folder of its own, with the modules written from the registry of kinds. */
function stageSources() {
  const dir = mkdtempSync(join(tmpdir(), 'roofline-bundle-'));
  process.on('exit', () => rmSync(dir, { recursive: true, force: true })); // (a failed build too)
  for (const f of readdirSync(SRC).filter((x) => x.endsWith('.js'))) copyFileSync(join(SRC, f), join(dir, f));
  for (const first of [true, false]) {
    const kinds = KINDS.filter((k) => Boolean(k.first) === first).map((k) => k.kind);
    writeFileSync(join(dir, first ? 'kinds-first.js' : 'kinds-later.js'), [
      '// the definitions of the kinds in the served page\'s ' + (first ? 'first script' : 'later parts') + ' (web/src/kinds.js), { kind: definition }',
      ...kinds.map((k) => `import { ${kindExport(k)} } from './kind-${k}.js';`),
      `export const DEFS = { ${kinds.map((k) => `${JSON.stringify(k)}: ${kindExport(k)}`).join(', ')} };`, ''].join('\n'));
  }
  return dir;
}

/** data.js for one script: each of DATA_NAMES `data` has, the others undefined. */
function writeData(dir, data) {
  const lines = DATA_NAMES.map((name) => (data && name in data
    ? `export const ${name} = /* @__PURE__ */ ${jsonLiteral(data[name])};`
    : `export const ${name} = undefined;`));
  writeFileSync(join(dir, 'data.js'), `${lines.join('\n')}\n`);
}

/** A script's module graph: { file: [files it imports] }, from esbuild's metafile. */
function graphOf(dir, entry) {
  const meta = join(dir, `${entry}.meta.json`);
  esbuild([`${entry}.js`, '--bundle', '--format=iife', `--metafile=${meta}`, `--outfile=${join(dir, `${entry}.out.js`)}`], { cwd: dir });
  const { inputs } = JSON.parse(readFileSync(meta, 'utf8'));
  return Object.fromEntries(Object.entries(inputs).map(([f, i]) => [f, i.imports.map((x) => x.path)]));
}

/**
 * The modules a later script (`later`) takes from the first (`first`): those of the first that
 * the later script's own modules import. Its own modules are those it reaches without passing
 * through one of the first's.
 */
function sharedModules(dir, first, later) {
  const inFirst = graphOf(dir, first);
  const graph = graphOf(dir, later);
  const shared = new Set();
  const seen = new Set();
  const walk = (f) => {
    if (seen.has(f)) return;
    seen.add(f);
    for (const d of graph[f]) {
      if (d in inFirst) shared.add(d);
      else walk(d);
    }
  };
  walk(`${later}.js`);
  return [...shared].sort();
}

/**
 * One script from an entry module (in the staged folder `dir`) and what it imports; `data` is
 * what its data.js exports. `expose`: the modules (file names) it also hands to scripts loaded
 * after it, as globalThis.__rooflineModules; `external`: such a script's modules, which this one
 * takes from there. `minify`: false for the scripts that run only at build time.
 */
function bundle(dir, entry, data, { title = 'page and <roofline-calculator> element', expose = [], external = [], minify = true } = {}) {
  writeData(dir, data);
  let from = `${entry}.js`;
  if (expose.length) {
    // an entry of its own: imports each module it hands on (before the entry's own code runs, as
    // imports do) and lists them
    const names = expose.map((f, i) => [f, `m${i}`]);
    from = `${entry}.expose.js`;
    writeFileSync(join(dir, from), [...names.map(([f, v]) => `import * as ${v} from './${f}';`),
      `globalThis.__rooflineModules = { ${names.map(([f, v]) => `${JSON.stringify(`./${f}`)}: ${v}`).join(', ')} };`,
      `import './${entry}.js';`, ''].join('\n'));
  }
  const args = [from, '--bundle', '--format=iife', `--target=${ESBUILD_TARGET}`, '--define:ROOFLINE_BUILT=true', `--define:ROOFLINE_NUMBERS=${JSON.stringify(NUMBERS)}`,
    ...external.map((f) => `--external:./${f}`)];
  if (minify && MINIFY) args.push('--minify');
  let code = esbuild(args, { cwd: dir });
  if (external.length) {
    // esbuild writes an external import as require('./x.js'): answered by the first script's table
    code = `(function (require) {\n${code}})((name) => {
  const m = globalThis.__rooflineModules && globalThis.__rooflineModules[name];
  if (!m) throw new Error('Roofline Lab: this script needs roofline-page.js first');
  return m;
});\n`;
  }
  // module code is strict; the script keeps it so
  return `/* Roofline Lab — ${title} (built by web/build.mjs) */\n'use strict';\n${code}`;
}

// ---- HTML ----------------------------------------------------------------------------------
function escapeHtml(s) {
  return String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function inlineScript(code) {
  return code.replace(/<\/script/gi, '<\\/script').replace(/<!--/g, '<\\!--');
}

function noscript(ui) {
  return LANGS.map((l) => `<p lang="${l}">${escapeHtml(ui['page.noscript'][l])}</p>`).join('\n');
}

const FAVICON = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#0a58a8"/><path d="M5 26 L15 10 L27 10" fill="none" stroke="#fff" stroke-width="3.5" stroke-linejoin="round"/></svg>';
const FAVICON_DATA = `data:image/svg+xml,${encodeURIComponent(FAVICON)}`;

function pageHtml(ui, { css, scripts, icon, first = null, tail = '' }) {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="description" content="${escapeHtml(ui['page.description'].en)}">
<title>${escapeHtml(ui['page.title'].en)}</title>
<link rel="icon" href="${icon}">
${css}
${scripts}
</head>
<body>
<div id="lab"${first ? ` data-prerendered="${first.langs.join(' ')}"` : ''}>
<noscript>
${noscript(ui)}
</noscript>
${first ? first.html : ''}
</div>${tail}
</body>
</html>
`;
}

function embedHtml(ui, decodeSnippet) {
  const e = (id) => escapeHtml(ui[id].en);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="description" content="${e('embed.text')}">
<title>${e('embed.title')}</title>
<link rel="icon" href="favicon.svg">
<link rel="stylesheet" href="embed-example.css">
</head>
<body>
<main>
<h1>${e('embed.title')}</h1>
<p>${e('embed.text')}</p>
<!-- The snippet: one script tag and one element (see docs/embedding.md). This element holds its
     calculator prerendered (snippets/decode.es.html, with roofline-calculator.css beside the
     page), so that it shows before the script has run; the element alone, without its
     template, works the same once the script has run. -->
<script src="roofline-calculator.js" defer></script>
<h2>${e('embed.example')}</h2>
${decodeSnippet}
<p>${e('embed.after')}</p>
<!-- One of the lesson's exercises, checked on the page: -->
<roofline-calculator kind="exercise" exercise="7" lang="es"></roofline-calculator>
<!-- Your own device on the roofline (a benchmark that runs only when the reader asks): -->
<roofline-calculator kind="device" lang="es"></roofline-calculator>
</main>
</body>
</html>
`;
}

// The browser benchmark (wasm/measure): its worker and two module builds sit beside the page and
// are loaded only when a reader measures; the single file carries them as inert text blocks
// (type="text/plain", never parsed as script) that become blob: workers when asked for.
const MEASURE_FILES = { simd: 'roofline-measure.js', scalar: 'roofline-measure-scalar.js', worker: 'roofline-measure-worker.js' };

function measureFiles(moduleDir, out) {
  const texts = {};
  for (const [key, name] of Object.entries(MEASURE_FILES)) {
    const from = join(moduleDir, name);
    if (!existsSync(from)) {
      console.warn(`build: ${name} not found, building without the browser benchmark`);
      return { inline: '' };
    }
    if (moduleDir !== out) copyFileSync(from, join(out, name));
    texts[key] = readFileSync(from, 'utf8');
    if (/<\/script|<!--/i.test(texts[key])) throw new Error(`${name} cannot be inlined as text: it contains </script or <!--`);
  }
  const inline = Object.entries(texts).map(([key, text]) => `\n<script type="text/plain" id="roofline-measure-${key}">${text}</script>`).join('');
  return { inline };
}

// ---- the served page's texts in two parts --------------------------------------------------
// The first part holds what the page's first screen shows: the page's own strings, the first
// calculator's (matmul) and those every calculator uses, the names of the catalog's GPUs and models, the prose of the
// page's top and first section, and each glossary card's term and short definition (the first
// calculator links its terms to them). The second part holds the rest; a glossary card there is
// whole. The page's tests fail on any text missing when it is needed.
const FIRST_UI = ['page', 'section', 'lang', 'calc', 'matmul', 'error', 'verdict', 'glossary', 'embed'];
const FIRST_PROSE = ['page', 'calc.matmul', 'takeaway.matmul'];

function splitTexts(lang, { ui, catalogTexts, prose, glossary }) {
  const inFirst = (prefixes, id) => prefixes.some((p) => id === p || id.startsWith(`${p}.`));
  const first = { part: 'first', UI: {}, CATALOG: {}, PROSE: {}, GLOSSARY: {} };
  const more = { part: 'more', UI: {}, CATALOG: {}, PROSE: {}, GLOSSARY: {} };
  for (const [id, e] of Object.entries(ui)) (inFirst(FIRST_UI, id) ? first : more).UI[id] = e[lang];
  // the names of GPUs and models go first; the names of lesson cases, stages, formats and measurements and where
  // each entry's figures come from are shown only by the later parts' calculators, tables and cards
  const later = (id) => /^(source|case|stage|format|measurement)\./.test(id);
  for (const [id, e] of Object.entries(catalogTexts)) (later(id) ? more : first).CATALOG[id] = e[lang];
  const withValues = (e, text) => (e.values ? { t: text, values: e.values } : { t: text });
  for (const [id, e] of Object.entries(prose)) (inFirst(FIRST_PROSE, id) ? first : more).PROSE[id] = withValues(e, e[lang]);
  for (const [id, e] of Object.entries(glossary)) {
    const card = e[lang];
    const short = { term: card.term, original: card.original, short: card.short };
    // the first part's card carries only the values its short definition fills
    const used = new Set([...JSON.stringify(short).matchAll(/\{([A-Za-z0-9_.]+)(?:\|[^}]*)?\}/g)].map((m) => m[1]));
    const values = e.values && Object.fromEntries(Object.entries(e.values).filter(([name]) => used.has(name)));
    first.GLOSSARY[id] = values && Object.keys(values).length ? { t: short, values } : { t: short };
    more.GLOSSARY[id] = withValues(e, card);
  }
  return { first, more };
}

async function main() {
  const opt = args(process.argv.slice(2));
  const moduleDir = resolve(opt.moduleDir);
  const out = resolve(opt.out);
  mkdirSync(out, { recursive: true });

  // UI strings: ui.json plus one file per page part (ui-exercises.json, ui-tables.json, ...),
  // merged; an id defined twice is an error.
  const ui = readJson(join(I18N, 'ui.json'));
  for (const name of readdirSync(I18N).filter((f) => /^ui-[a-z0-9-]+\.json$/.test(f)).sort()) {
    const part = readJson(join(I18N, name));
    for (const id of Object.keys(part)) {
      if (id in ui) throw new Error(`web/i18n/${name}: ${id} is already defined`);
      ui[id] = part[id];
    }
  }
  checkTexts('ui.json', ui);
  const catalogTexts = readCatalogTexts();
  checkTexts('core/catalog', catalogTexts);
  const prose = readJson(join(I18N, 'prose.json'), true);
  const glossary = readJson(join(I18N, 'glossary.json'), true);
  const calcCss = minifyCss(readFileSync(join(SRC, 'calculator.css'), 'utf8'));
  const pageCss = minifyCss(readFileSync(join(SRC, 'page.css'), 'utf8'));
  const embedCss = readFileSync(join(SRC, 'embed-example.css'), 'utf8');
  const dir = stageSources();

  // Everything in one script, every language's texts included: the embeddable element and the
  // single file.
  const allTexts = { UI: ui, PROSE: prose, GLOSSARY: glossary, CATALOG: catalogTexts, CALC_CSS: calcCss, ALL_TEXTS: true };
  const js = bundle(dir, 'all', allTexts);
  new Script(js, { filename: 'roofline-calculator.js' }); // compile only: a syntax error fails the build
  // The served page: what its first screen needs (roofline-page.js, the code without texts but each
  // language's own name, for the language switch), then the rest (roofline-page-more.js, see
  // web/src/more.js), each with one file of texts per language, loaded when that language and
  // that part are first used.
  const langNames = Object.fromEntries(Object.entries(ui).filter(([id]) => id.startsWith('lang.')));
  const shared = sharedModules(dir, 'main', 'more-parts');
  const pageJs = bundle(dir, 'main', { UI: langNames, PROSE: {}, GLOSSARY: {}, CATALOG: {}, CALC_CSS: calcCss, ALL_TEXTS: false }, { expose: shared });
  new Script(pageJs, { filename: 'roofline-page.js' });
  const moreJs = bundle(dir, 'more-parts', null, { title: "the served page's later parts", external: shared });
  new Script(moreJs, { filename: 'roofline-page-more.js' });
  const classic = join(moduleDir, 'roofline.js');
  if (!existsSync(classic)) throw new Error(`${classic} not found: build the wasm module first`);
  // its first screen in every language, drawn here by the page's code and the module
  // (web/prerender.mjs), each in a <div data-screen lang> of its own: the boot script (or the
  // single file's check) shows the reader's alone (<html data-screen>, page.css) before the body is
  // parsed, the page's code takes that one over and drops the others (prerendered.js). English
  // comes first and keeps the plain ids: it is the one shown without JavaScript.
  const prerenderJs = bundle(dir, 'prerender', allTexts, { title: "the build's prerender", minify: false });
  const screens = [];
  for (const lang of LANGS) screens.push(await prerender(prerenderJs, classic, lang, { idSuffix: lang === LANGS[0] ? '' : `-${lang}` }));
  const kinds = screens[0].kinds;
  for (const s of screens) {
    if (s.kinds.join() !== kinds.join()) throw new Error(`prerender: the first screen in ${s.lang} has other calculators (${s.kinds}) than in ${screens[0].lang} (${kinds})`);
  }
  const firstScreen = (style) => ({
    langs: LANGS,
    html: screens.map((s) => `<div data-screen="${s.lang}" lang="${s.lang}">${s.html(style)}</div>`).join('\n'),
  });
  const PRERENDER = { langs: LANGS, kinds };
  // every calculator alone in every language, prerendered for authors to paste (snippets/)
  const calcPrerenderJs = bundle(dir, 'prerender-calc', allTexts, { title: "the build's calculator prerender", minify: false });
  const snippetList = SNIPPET_KINDS.flatMap((kind) => LANGS.map((lang) => ({ kind, lang })));
  const snippetHtml = await prerenderCalculators(calcPrerenderJs, classic, snippetList, `<link rel="stylesheet" href="${PRERENDER_CSS}">`);
  const snippets = Object.fromEntries(snippetList.map(({ kind, lang }, i) => [`${kind}.${lang}`, snippetHtml[i]]));
  // its first script: starts loading the reader's language's texts in parallel with the code, shows
  // the prerendered first screen in the reader's language and hides it where it is not the reader's
  const bootJs = bundle(dir, 'boot', { PRERENDER }, { title: "the served page's boot script" });
  new Script(bootJs, { filename: 'roofline-boot.js' });
  // the single file's: the same check alone, inline
  const staleJs = bundle(dir, 'stale', { PRERENDER }, { title: 'the prerendered first screen\'s check' });
  new Script(staleJs, { filename: 'roofline-stale.js' });
  const textFiles = {};
  for (const lang of LANGS) {
    const { first: firstPack, more: morePack } = splitTexts(lang, { ui, catalogTexts, prose, glossary });
    const file = (part, pack, name, global) => {
      const code = `/* Roofline Lab texts (${lang}, ${part}) for roofline-page.js */\n(globalThis.${global} || (globalThis.${global} = {}))[${JSON.stringify(lang)}] = ${jsonLiteral(pack)};\n`;
      new Script(code, { filename: name });
      textFiles[name] = code;
    };
    file('first', firstPack, `roofline-texts.${lang}.js`, '__rooflineTexts');
    file('more', morePack, `roofline-texts-more.${lang}.js`, '__rooflineTextsMore');
  }

  if (moduleDir !== out) {
    copyFileSync(classic, join(out, 'roofline.js'));
    for (const name of ['roofline.mjs', 'roofline-web.js', 'roofline.wasm']) {
      if (existsSync(join(moduleDir, name))) copyFileSync(join(moduleDir, name), join(out, name));
    }
  }
  const measure = measureFiles(moduleDir, out);
  const split = existsSync(join(out, 'roofline-web.js')) && existsSync(join(out, 'roofline.wasm'));
  const moduleJs = readFileSync(classic, 'utf8');

  writeFileSync(join(out, 'roofline-calculator.js'), js);
  writeFileSync(join(out, 'roofline-calculator.d.ts'), calculatorTypes());
  writeFileSync(join(out, 'roofline-page.js'), pageJs);
  writeFileSync(join(out, 'roofline-page-more.js'), moreJs);
  writeFileSync(join(out, 'roofline-boot.js'), bootJs);
  for (const [name, code] of Object.entries(textFiles)) writeFileSync(join(out, name), code);
  writeFileSync(join(out, 'roofline-lab.css'), pageCss);
  writeFileSync(join(out, PRERENDER_CSS), calcCss);
  writeFileSync(join(out, 'embed-example.css'), embedCss);
  writeFileSync(join(out, 'favicon.svg'), FAVICON);
  writeFileSync(join(out, 'index.html'), pageHtml(ui, {
    icon: 'favicon.svg',
    first: firstScreen(`<link rel="stylesheet" href="${PRERENDER_CSS}">`),
    // the prerendered calculator's sheet is linked from its shadow root: asked for from the start
    css: `<link rel="stylesheet" href="roofline-lab.css">\n<link rel="preload" href="${PRERENDER_CSS}" as="style">`,
    // the wasm is fetched (and compiled while it arrives) from the start, in parallel with the scripts
    scripts: `${split
      ? '<link rel="preload" href="roofline.wasm" as="fetch" type="application/wasm" crossorigin>\n<script src="roofline-web.js" defer></script>'
      : '<script src="roofline.js" defer></script>'}\n<script src="roofline-page.js" defer></script>\n<script src="roofline-boot.js"></script>`,
  }));
  // the single file: its first screen prerendered too, with the calculator's styles inline; its
  // scripts after it, so that the browser can show it before it runs them
  const styleTag = (css) => `<style>\n${css.replace(/<\/style/gi, '<\\/style')}\n</style>`;
  writeFileSync(join(out, 'roofline-lab.html'), pageHtml(ui, {
    icon: FAVICON_DATA,
    first: firstScreen(styleTag(calcCss)),
    css: styleTag(pageCss),
    scripts: `<script>\n${inlineScript(staleJs)}\n</script>`,
    tail: `\n<script>\n${inlineScript(moduleJs)}\n</script>\n<script>\n${inlineScript(js)}\n</script>${measure.inline}`,
  }));
  writeFileSync(join(out, 'embed-example.html'), embedHtml(ui, snippets['decode.es']));
  rmSync(join(out, 'snippets'), { recursive: true, force: true });
  mkdirSync(join(out, 'snippets'));
  for (const [name, html] of Object.entries(snippets)) writeFileSync(join(out, 'snippets', `${name}.html`), `${html}\n`);
  console.log(`build: wrote index.html (roofline-page.js, roofline-page-more.js, roofline-texts[-more].*.js${split ? ', roofline-web.js + roofline.wasm' : ''}), roofline-lab.html, embed-example.html and assets to ${relative(process.cwd(), out) || '.'}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
