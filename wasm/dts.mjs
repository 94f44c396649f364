#!/usr/bin/env node
// Writes the API's types and signatures from the core's one API table (core/src/api/table_*.cpp), as the
// built module's rl.functions() returns it:
//   - wasm/roofline.d.ts: wasm/roofline.d.ts.in with, at its `//@generated results` line, an
//     interface for each result type whose name ends in "Result" (DecodeResult, ...: the table's
//     fields, types and doc strings) and, at `//@generated functions`, one line per function in
//     the Roofline interface (its arguments inline). The other types the table names (Gpu, Model,
//     FunctionInfo, ...) are the template's; tests/node/api-table.test.mjs checks them with tsc
//     against the table and against what the functions return.
//   - docs/api.md: in "## Functions", each function's signature line, "- `rl.name({ a, b?, c = 1 })`"
//     (`c = 1`: an optional argument with a default in the table) and, where the line shows its
//     result as code, "→ `{ x, y? }`" (`[{ … }]` for a list; a result described in words is left
//     as it is); in "## Examples", the output line of rl.functions().
// Usage: node wasm/dts.mjs <site-dir> [--check]
//   <site-dir> holds the built roofline.mjs (build-wasm/site). --check writes nothing: it prints
//   what differs and exits 1 when a file is not what the table gives.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { inspect } from 'node:util';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '..');
export const paths = {
  template: join(HERE, 'roofline.d.ts.in'),
  dts: join(HERE, 'roofline.d.ts'),
  docs: join(ROOT, 'docs/api.md'),
};
const WIDTH = 100;

const fail = (message) => {
  throw new Error(`wasm/dts.mjs: ${message}`);
};

// ---- roofline.d.ts ------------------------------------------------------------------------

/** A doc comment at `indent`, wrapped at WIDTH columns. */
function docComment(text, indent) {
  if (text.includes('*/')) fail(`a doc string holds "*/": ${text}`);
  const one = `${indent}/** ${text} */`;
  if (one.length <= WIDTH) return [one];
  const lines = [];
  let line = `${indent}/**`;
  for (const word of text.split(' ')) {
    if (`${line} ${word}`.length > WIDTH && line.trim() !== '/**' && line.trim() !== '*') {
      lines.push(line);
      line = `${indent} *`;
    }
    line += ` ${word}`;
  }
  lines.push(`${line} */`);
  return lines;
}

const member = (f) => (f.name === '*' ? `[key: string]: ${f.type}` : `${f.name}${f.optional ? '?' : ''}: ${f.type}`);

/** `export interface Name { ... }`: on one line where it fits and nothing is documented; else a
 * documented field starts a line under its doc comment, and undocumented ones follow on it. */
function resultInterface(name, fields) {
  const members = fields.map(member);
  const one = `export interface ${name} { ${members.join('; ')} }`;
  if (!fields.some((f) => f.doc) && one.length <= 120) return [one];
  const lines = [`export interface ${name} {`];
  let line = null;
  const flush = () => {
    if (line !== null) lines.push(line);
    line = null;
  };
  fields.forEach((f, i) => {
    const m = `${members[i]};`;
    if (f.doc) {
      flush();
      lines.push(...docComment(f.doc, '  '));
      line = `  ${m}`;
    } else if (line !== null && `${line} ${m}`.length <= WIDTH + 10) {
      line += ` ${m}`;
    } else {
      flush();
      line = `  ${m}`;
    }
  });
  flush();
  lines.push('}');
  return lines;
}

const isGenerated = (f) => f.resultType.endsWith('Result');

/** The result interfaces the table defines, once each, in the order functions first return them. */
function resultInterfaces(table) {
  const out = [];
  const first = new Map();
  for (const f of table) {
    if (!isGenerated(f)) continue;
    if (f.result.length === 0 || f.result.some((r) => r.name === '*')) {
      fail(`${f.name}: a result type named ...Result (${f.resultType}) needs its fields in the table`);
    }
    const shape = JSON.stringify(f.result);
    if (first.has(f.resultType)) {
      const other = first.get(f.resultType);
      if (JSON.stringify(other.result) !== shape) {
        fail(`${other.name} and ${f.name} both return ${f.resultType}, with different fields in the table`);
      }
      continue;
    }
    first.set(f.resultType, f);
    out.push(...resultInterface(f.resultType, f.result));
  }
  return out;
}

const argsType = (f) => f.args.map((a) => `${a.name}${a.optional ? '?' : ''}: ${a.type}`).join('; ');

/** The Roofline interface's lines: one per function, under its doc comment where it has one. */
function signatures(table) {
  const out = [];
  for (const f of table) {
    if (f.doc) out.push(...docComment(f.doc, '  '));
    const args = f.args.length ? `args: { ${argsType(f)} }` : '';
    out.push(`  ${f.name}(${args}): ${f.resultType}${f.returns === 'list' ? '[]' : ''};`);
  }
  return out;
}

/** The template with its two //@generated lines replaced. */
export function renderDts(table, template) {
  const parts = { 'results': resultInterfaces(table), 'functions': signatures(table) };
  const lines = template.split('\n');
  const out = [];
  const done = new Set();
  for (const line of lines) {
    const m = /^(\s*)\/\/@generated (\w+)$/.exec(line);
    if (!m) {
      out.push(line);
      continue;
    }
    if (!(m[2] in parts) || done.has(m[2])) fail(`wasm/roofline.d.ts.in: an unknown or repeated line "${line.trim()}"`);
    done.add(m[2]);
    out.push(...parts[m[2]]);
  }
  for (const name of Object.keys(parts)) {
    if (!done.has(name)) fail(`wasm/roofline.d.ts.in has no line "//@generated ${name}"`);
  }
  return out.join('\n');
}

// ---- docs/api.md --------------------------------------------------------------------------

/** "{ a, b?, c = 1 }": the arguments of a signature line. */
function docArgs(f) {
  if (f.args.length === 0) return '';
  const each = f.args.map((a) => (a.default !== null ? `${a.name} = ${a.default}` : `${a.name}${a.optional ? '?' : ''}`));
  return `{ ${each.join(', ')} }`;
}

/** "{ x, y? }", or "[{ x, y? }]" for a list; null where the table lists no fields (errorCodes) or
 * any keys (caseArgs). */
function docResult(f) {
  if (f.result.length === 0 || f.result.some((r) => r.name === '*')) return null;
  const inner = `{ ${f.result.map((r) => `${r.name}${r.optional ? '?' : ''}`).join(', ')} }`;
  return f.returns === 'list' ? `[${inner}]` : inner;
}

/** docs/api.md with its signature lines, and the example output of rl.functions(), from the table. */
export function renderDocs(table, md) {
  const byName = new Map(table.map((f) => [f.name, f]));
  const start = md.indexOf('\n## Functions\n');
  const end = md.indexOf('\n## Examples\n');
  if (start < 0 || end < start) fail('docs/api.md needs a "## Functions" section followed by "## Examples"');
  const seen = new Set();
  const section = md.slice(start, end).replace(/^- `rl\.(\w+)\([^`\n]*\)`/gm, (line, name) => {
    const f = byName.get(name);
    if (!f) fail(`docs/api.md: a signature line for rl.${name}, which the table does not have`);
    if (seen.has(name)) fail(`docs/api.md: two signature lines for rl.${name}`);
    seen.add(name);
    return `- \`rl.${name}(${docArgs(f)})\`\u0000${name}\u0000`;
  })
    // the result shown as code right after the signature (on its line or the next): the table's
    // fields (\u0000 marks a signature's name in the text being rewritten: docs/api.md has none)
    // eslint-disable-next-line no-control-regex
    .replace(/\u0000(\w+)\u0000(\s*→\s*)`(\{|\[\{)[^`]*`/g, (all, name, arrow) => {
      const r = docResult(byName.get(name));
      return r === null ? all : `\u0000${name}\u0000${arrow}\`${r}\``;
    })
    // eslint-disable-next-line no-control-regex
    .replace(/\u0000\w+\u0000/g, '');
  const missing = table.map((f) => f.name).filter((n) => !seen.has(n));
  if (missing.length) {
    fail(`docs/api.md has no signature line for ${missing.map((n) => `rl.${n}`).join(', ')}: add "- \`rl.name()\`" under a heading of "## Functions"`);
  }
  let rest = md.slice(end);
  const example = /(\nrl\.functions\(\)\n\/\/ → ).*\n/;
  if (!example.test(rest)) fail('docs/api.md: "## Examples" has no "rl.functions()" example');
  const first = inspect(table[0], { depth: Infinity, breakLength: Infinity, maxArrayLength: Infinity, maxStringLength: Infinity });
  rest = rest.replace(example, (all, head) => `${head}[ ${first}, … ]  (${table.length} items)\n`);
  return md.slice(0, start) + section + rest;
}

// ---- writing or checking ------------------------------------------------------------------

/** The lines that differ, with two of context around each change (a longest-common-subsequence diff). */
export function lineDiff(before, after, label) {
  const a = before.split('\n');
  const b = after.split('\n');
  const n = a.length;
  const m = b.length;
  const lcs = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  }
  const ops = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) ops.push([' ', a[i++], i, j++]);
    else if (j < m && (i === n || lcs[i][j + 1] >= lcs[i + 1][j])) ops.push(['+', b[j++], i, j]);
    else ops.push(['-', a[i++], i, j]);
  }
  const show = ops.map((op, k) => op[0] !== ' ' || ops.slice(Math.max(0, k - 2), k + 3).some((o) => o[0] !== ' '));
  const out = [`--- ${label} (as it is)`, `+++ ${label} (from the table)`];
  ops.forEach((op, k) => {
    if (!show[k]) return;
    if (k > 0 && !show[k - 1]) out.push(`@@ line ${op[2]} @@`);
    out.push(`${op[0]}${op[1]}`);
  });
  return out.join('\n');
}

async function main(argv) {
  const check = argv.includes('--check');
  const site = argv.find((a) => !a.startsWith('--'));
  if (!site) {
    console.error('usage: node wasm/dts.mjs <site-dir> [--check]   (the site dir holds the built roofline.mjs)');
    return 2;
  }
  const module = await import(pathToFileURL(resolve(site, 'roofline.mjs')).href);
  const table = (await module.default()).functions();
  const outputs = [
    [paths.dts, renderDts(table, readFileSync(paths.template, 'utf8'))],
    [paths.docs, renderDocs(table, readFileSync(paths.docs, 'utf8'))],
  ];
  let stale = 0;
  for (const [path, text] of outputs) {
    const now = readFileSync(path, 'utf8');
    const label = path.slice(ROOT.length + 1);
    if (now === text) continue;
    stale++;
    if (check) {
      console.error(lineDiff(now, text, label));
    } else {
      writeFileSync(path, text);
      console.log(`wrote ${label}`);
    }
  }
  if (check && stale) {
    console.error(`\n${stale} file(s) differ from what the API table gives: run node wasm/dts.mjs ${site}`);
    return 1;
  }
  if (!stale) console.log(`wasm/roofline.d.ts and docs/api.md are as the API table gives (${table.length} functions)`);
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main(process.argv.slice(2)).then((code) => { process.exitCode = code; }, (e) => { console.error(e.message); process.exitCode = 2; });
}
