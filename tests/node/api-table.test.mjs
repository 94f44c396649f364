// wasm/roofline.d.ts and docs/api.md against the core's API table (rl.functions()): the same
// functions, the same argument names, the same optional arguments, the same result fields.
// The d.ts is read with regexes made for its layout (see its header): one line per function in
// the Roofline interface, each result a named interface.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { root, siteDir, validArgs } from './helpers.mjs';

const rl = await (await import(join(siteDir, 'roofline.mjs'))).default();
const table = rl.functions();
const byName = new Map(table.map((f) => [f.name, f]));

// ---- roofline.d.ts --------------------------------------------------------------------------

const dts = readFileSync(join(root, 'wasm/roofline.d.ts'), 'utf8')
  .replace(/\/\*[\s\S]*?\*\//g, '')
  .replace(/\/\/.*$/gm, '');

/** The text between the brace at `open` and its match. */
function braced(text, open) {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '{') depth++;
    else if (text[i] === '}' && --depth === 0) return text.slice(open + 1, i);
  }
  throw new Error(`unbalanced braces after ${text.slice(open, open + 40)}`);
}

/** The text with every nested {...} emptied, so that only top-level members remain. */
function topLevel(body) {
  let out = '';
  let depth = 0;
  for (const ch of body) {
    if (ch === '{') depth++;
    if (depth === 0) out += ch;
    if (ch === '}') depth--;
  }
  return out;
}

/** Members of an object type body: [{ name, optional, type }], and whether it has an index signature. */
function members(body) {
  const fields = [];
  let index = false;
  for (const part of topLevel(body).split(/[;\n]/).map((p) => p.trim()).filter(Boolean)) {
    if (/^\[\w+: string\]\s*:/.test(part)) { index = true; continue; }
    const m = /^(?:readonly\s+)?(\w+)(\?)?\s*:\s*(.+)$/.exec(part);
    assert.ok(m, `roofline.d.ts: cannot read the member "${part}"`);
    fields.push({ name: m[1], optional: m[2] === '?', type: m[3].trim() });
  }
  return { fields, index };
}

/** The d.ts as data: its interfaces, type aliases and the Roofline interface's signatures. Read
 * inside the tests, so that a layout it cannot read fails a test rather than the file. */
let parsedDts;
function readDts() {
  if (parsedDts) return parsedDts;
  // export interface Name { ... } → Map(Name → members), the Roofline interface aside.
  const interfaces = new Map();
  for (const m of dts.matchAll(/^export interface (\w+) \{/gm)) {
    if (m[1] !== 'Roofline') interfaces.set(m[1], members(braced(dts, m.index + m[0].length - 1)));
  }
  // export type Name = ...; → Map(Name → its text).
  const aliases = new Map([...dts.matchAll(/^export type (\w+) =([\s\S]*?);\s*$/gm)].map((m) => [m[1], m[2].trim()]));
  // The Roofline interface, one function per line: Map(name → { args: [[name, optional]], result, list }).
  const signatures = new Map();
  const start = /^export interface Roofline \{/m.exec(dts);
  assert.ok(start, 'roofline.d.ts has no Roofline interface');
  const body = braced(dts, start.index + start[0].length - 1);
  for (const line of body.split('\n').map((l) => l.trim()).filter(Boolean)) {
    if (line === 'RooflineError: typeof RooflineError;') continue;
    const m = /^(\w+)\((?:args: \{ (.*) \})?\): (\w+)(\[\])?;$/.exec(line);
    assert.ok(m, `roofline.d.ts: the Roofline interface must hold one signature per line, got "${line}"`);
    assert.ok(!signatures.has(m[1]), `roofline.d.ts declares ${m[1]} twice`);
    const args = m[2] === undefined ? [] : m[2].split(';').map((a) => a.trim()).map((a) => {
      const arg = /^(\w+)(\?)?: (.+)$/.exec(a);
      assert.ok(arg, `roofline.d.ts: cannot read the argument "${a}" of ${m[1]}`);
      return [arg[1], arg[2] === '?'];
    });
    signatures.set(m[1], { args, result: m[3], list: m[4] === '[]' });
  }
  const literals = (name) => {
    assert.ok(aliases.has(name), `roofline.d.ts has no type ${name}`);
    return [...aliases.get(name).matchAll(/'([^']*)'/g)].map((m) => m[1]);
  };
  parsedDts = { interfaces, aliases, signatures, literals };
  return parsedDts;
}

const tableArgs = (f) => f.args.map((a) => [a.name, a.optional]);
const tableFields = (f) => f.result.map((r) => [r.replace(/\?$/, ''), r.endsWith('?')]).sort();

test('roofline.d.ts declares exactly the functions of the table', () => {
  const { signatures } = readDts();
  assert.deepEqual([...signatures.keys()].sort(), table.map((f) => f.name).sort());
  assert.deepEqual(table.map((f) => f.name).sort(), Object.keys(validArgs).sort());
});

test('roofline.d.ts: each function takes the table\'s arguments, optional where the table says so', () => {
  const { signatures } = readDts();
  for (const f of table) {
    assert.deepEqual(signatures.get(f.name)?.args, tableArgs(f), `${f.name}: [name, optional] in roofline.d.ts vs functions()`);
  }
});

test('roofline.d.ts: each result type has the table\'s fields, optional exactly where the table marks "?"', () => {
  const { signatures, interfaces, aliases, literals } = readDts();
  for (const f of table) {
    const sig = signatures.get(f.name);
    assert.equal(sig.list, f.returns === 'list', `${f.name}: an array in roofline.d.ts iff functions() says 'list'`);
    if (f.result.length === 0) {
      // A list of strings (errorCodes): a union of string literals, not an interface.
      assert.ok(aliases.has(sig.result) && literals(sig.result).length > 0, `${f.name}: ${sig.result} should be a union of strings`);
      continue;
    }
    const shape = interfaces.get(sig.result);
    assert.ok(shape, `${f.name}: its result ${sig.result} is not a named interface of roofline.d.ts`);
    if (f.result.length === 1 && f.result[0] === '*') {
      assert.ok(shape.index && shape.fields.length === 0, `${f.name}: ${sig.result} should be an index signature only`);
      continue;
    }
    assert.ok(!shape.index, `${f.name}: ${sig.result} has an index signature`);
    const declared = shape.fields.map((x) => [x.name, x.optional]).sort();
    assert.deepEqual(declared, tableFields(f), `${f.name}: [field, optional] of ${sig.result} vs functions()`);
  }
});

test('roofline.d.ts: a field the core answers with null is typed "| null"', () => {
  const { signatures, interfaces } = readDts();
  const samples = Object.entries(validArgs).map(([name, args]) => [name, rl[name](structuredClone(args))]);
  // decode with neither roof nor capacity: computeSeconds, fits and maxBatch are null.
  samples.push(['decode', rl.decode({ weightBytes: 16.06e9, kvBytesPerSequence: 0, batch: 1, bytesPerSecond: 300e9 })]);
  let nulls = 0;
  for (const [name, result] of samples) {
    const shape = interfaces.get(signatures.get(name).result);
    if (!shape || shape.index) continue;
    for (const item of Array.isArray(result) ? result : [result]) {
      for (const [key, value] of Object.entries(item)) {
        const field = shape.fields.find((x) => x.name === key);
        assert.ok(field, `${name}: the core returned ${key}, which roofline.d.ts does not declare`);
        if (value === null) {
          nulls++;
          assert.match(field.type, /\|\s*null\b/, `${name}.${key} is null here; roofline.d.ts types it ${field.type}`);
        }
      }
    }
  }
  assert.ok(nulls >= 6, `only ${nulls} null fields seen`);
});

test('roofline.d.ts: ErrorCode, Dtype and ArgKind list what the module uses', () => {
  const { literals } = readDts();
  assert.deepEqual(literals('ErrorCode'), rl.errorCodes());
  assert.deepEqual(literals('Dtype'), rl.dtypes().map((d) => d.id));
  const kinds = new Set(literals('ArgKind'));
  for (const f of table) for (const a of f.args) assert.ok(kinds.has(a.kind), `${f.name}.${a.name}: kind ${a.kind} is not in ArgKind`);
});

// ---- docs/api.md ----------------------------------------------------------------------------

const md = readFileSync(join(root, 'docs/api.md'), 'utf8');
const functionsSection = md.slice(md.indexOf('## Functions'), md.indexOf('## Examples'));

/** "- `rl.name({ a, b?, c = 1 })`" lines: Map(name → [[arg, optional]]). */
function readDocs() {
  const documented = new Map();
  for (const m of functionsSection.matchAll(/^- `rl\.(\w+)\(([^`]*)\)`/gm)) {
    assert.ok(!documented.has(m[1]), `docs/api.md: rl.${m[1]} has two signature lines`);
    const inner = m[2].trim();
    let args = [];
    if (inner) {
      const obj = /^\{ (.*) \}$/.exec(inner);
      assert.ok(obj, `docs/api.md: rl.${m[1]} should take "{ ... }", got "${inner}"`);
      args = obj[1].split(',').map((a) => a.trim()).map((a) => {
        const arg = /^(\w+)(\?)?(\s*=\s*.+)?$/.exec(a);
        assert.ok(arg, `docs/api.md: cannot read the argument "${a}" of rl.${m[1]}`);
        return [arg[1], arg[2] === '?' || arg[3] !== undefined];
      });
    }
    documented.set(m[1], args);
  }
  return documented;
}

test('docs/api.md has one signature line per function of the table, and no other', () => {
  assert.deepEqual([...readDocs().keys()].sort(), table.map((f) => f.name).sort());
});

test('docs/api.md: each signature line takes the table\'s arguments, optional ("name?" or "name = default") where the table says so', () => {
  const documented = readDocs();
  for (const f of table) assert.deepEqual(documented.get(f.name), tableArgs(f), `rl.${f.name} in docs/api.md vs functions()`);
});

test('docs/api.md lists every error code', () => {
  const errors = md.slice(md.indexOf('## Errors'), md.indexOf('## Functions'));
  for (const code of rl.errorCodes()) assert.ok(errors.includes(`\`${code}\``), `docs/api.md: no row for ${code}`);
});

test('the table is consistent with itself', () => {
  assert.equal(byName.size, table.length, 'a function listed twice');
  for (const f of table) {
    assert.ok(['object', 'list'].includes(f.returns), f.name);
    const names = f.args.map((a) => a.name);
    assert.equal(new Set(names).size, names.length, `${f.name}: an argument listed twice`);
  }
});
