// wasm/roofline.d.ts and docs/api.md against the core's API table (rl.functions()). Both are
// written from it by wasm/dts.mjs, so the committed files must be what it writes now; and the
// d.ts, compiled with tsc, must give every function exactly the table's arguments and result
// fields (the result types the template declares by hand too: Gpu, Model, ...), accept the
// arguments of tests/api/valid_args.json and type what each function really returns.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, mkdtempSync, rmSync, copyFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { root, siteDir, validArgs } from './helpers.mjs';
import { renderDts, renderDocs, paths } from '../../wasm/dts.mjs';

const rl = await (await import(join(siteDir, 'roofline.mjs'))).default();
const table = rl.functions();
const byName = new Map(table.map((f) => [f.name, f]));

test('wasm/roofline.d.ts and the signature lines of docs/api.md are what the table gives (node wasm/dts.mjs --check)', () => {
  const r = spawnSync(process.execPath, [join(root, 'wasm/dts.mjs'), siteDir, '--check'], { encoding: 'utf8' });
  assert.equal(r.status, 0, `${r.stdout}${r.stderr}`);
});

test('the table lists the functions of tests/api/valid_args.json, each once', () => {
  assert.equal(byName.size, table.length, 'a function listed twice');
  assert.deepEqual(table.map((f) => f.name).sort(), Object.keys(validArgs).sort());
  for (const f of table) {
    assert.ok(['object', 'list'].includes(f.returns), f.name);
    const names = f.args.map((a) => a.name);
    assert.equal(new Set(names).size, names.length, `${f.name}: an argument listed twice`);
    const fields = f.result.map((r) => r.name);
    assert.equal(new Set(fields).size, fields.length, `${f.name}: a result field listed twice`);
  }
});

test('an argument\'s documented default is what the function takes when it is left out', () => {
  let checked = 0;
  for (const f of table) {
    for (const a of f.args.filter((x) => x.default !== null)) {
      assert.ok(a.optional, `${f.name}.${a.name}: a default for a required argument`);
      const { [a.name]: _, ...without } = structuredClone(validArgs[f.name]);
      const value = new Function(`return (${a.default});`)();
      assert.deepEqual(rl[f.name](without), rl[f.name]({ ...without, [a.name]: value }), `${f.name}.${a.name} = ${a.default}`);
      checked++;
    }
  }
  assert.ok(checked >= 10, `only ${checked} defaults`);
});

test('the generator writes what the table says: a changed field or argument changes both files', () => {
  const template = readFileSync(paths.template, 'utf8');
  const md = readFileSync(paths.docs, 'utf8');
  const changed = structuredClone(table);
  const decode = changed.find((f) => f.name === 'decode');
  decode.result.find((r) => r.name === 'fits').type = 'boolean';
  decode.result.push({ name: 'extra', type: 'number', optional: true, doc: '' });
  decode.args.find((a) => a.name === 'batch').optional = true;
  const dts = renderDts(changed, template);
  assert.notEqual(dts, renderDts(table, template));
  assert.ok(dts.includes('  fits: boolean;\n') && dts.includes(' extra?: number;'), 'the changed DecodeResult');
  assert.ok(dts.includes('decode(args: { weightBytes?: number; kvBytesPerSequence?: number; batch?: number;'));
  const docs = renderDocs(changed, md);
  assert.ok(docs.includes('kvBytesPerSequence, extra? }`'), 'the changed result in docs/api.md');
  assert.ok(docs.includes('`rl.decode({ weightBytes?, kvBytesPerSequence?, batch?, '), 'the changed signature in docs/api.md');
  // a function without a signature line in docs/api.md, and one line too many
  assert.throws(() => renderDocs([...table, { ...decode, name: 'newFunction' }], md), /no signature line for rl\.newFunction/);
  assert.throws(() => renderDocs(table.filter((f) => f.name !== 'tile'), md), /rl\.tile, which the table does not have/);
  // two functions naming one generated type must declare the same fields
  const flops = structuredClone(table);
  flops.find((f) => f.name === 'trainingFlops').result[0].name = 'flop';
  assert.throws(() => renderDts(flops, template), /FlopsResult, with different fields/);
});

// ---- the d.ts, compiled -------------------------------------------------------------------

const member = (r) => (r.name === '*' ? `[key: string]: ${r.type}` : `${r.name}${r.optional ? '?' : ''}: ${r.type}`);
const union = (values) => [...new Set(values)].map((v) => JSON.stringify(v)).join(' | ');

/** A TypeScript file that compiles only if roofline.d.ts agrees with the table and the module:
 * the d.ts's text (so that the table's type names are in scope), then the checks. */
function checks(dts) {
  const lines = [
    dts,
    '// ---- the checks',
    'type Equal<X, Y> = (<T>() => T extends X ? 1 : 2) extends (<T>() => T extends Y ? 1 : 2) ? true : false;',
    'type Is<T extends true> = T;',
    'type Extends<X, Y> = [X] extends [Y] ? true : false;',
    'type R = Roofline;',
    '// every function of the table, and nothing else',
    `export type Functions = Is<Equal<keyof R, 'RooflineError' | ${union(table.map((f) => f.name))}>>;`,
    `export type Codes = Is<Equal<ErrorCode, ${union(rl.errorCodes())}>>;`,
    `export type Dtypes = Is<Equal<Dtype, ${union(rl.dtypes().map((d) => d.id))}>>;`,
    `export type Kinds = Is<Extends<${union(table.flatMap((f) => f.args.map((a) => a.kind)))}, ArgKind>>;`,
  ];
  for (const f of table) {
    const args = f.args.length ? `[args: { ${f.args.map((a) => `${a.name}${a.optional ? '?' : ''}: ${a.type}`).join('; ')} }]` : '[]';
    lines.push(`export type Args_${f.name} = Is<Equal<Parameters<R['${f.name}']>, ${args}>>;`);
    // the result: the table's fields, whoever declares the type (generated or by hand)
    const item = f.result.length ? `{ ${f.result.map(member).join('; ')} }` : f.resultType;
    lines.push(`export type Result_${f.name} = Is<Equal<ReturnType<R['${f.name}']>, ${f.returns === 'list' ? `Array<${item}>` : item}>>;`);
  }
  // what the functions take and give: valid_args.json's arguments and the module's results
  // (strict: a null where the type says number fails, an undeclared field fails)
  const samples = Object.entries(validArgs).map(([name, args]) => [name, args, rl[name](structuredClone(args))]);
  // decode with neither roof nor capacity: computeSeconds, fits and maxBatch are null
  const bare = { weightBytes: 16.06e9, kvBytesPerSequence: 0, batch: 1, bytesPerSecond: 300e9 };
  samples.push(['decode', bare, rl.decode(bare)]);
  samples.forEach(([name, args, result], i) => {
    if (byName.get(name).args.length) lines.push(`export const args${i}: Parameters<R['${name}']>[0] = ${JSON.stringify(args)};`);
    lines.push(`export const result${i}: ReturnType<R['${name}']> = ${JSON.stringify(result)};`);
  });
  const nulls = JSON.stringify(samples.map((s) => s[2])).match(/:null\b/g)?.length ?? 0;
  return { text: `${lines.join('\n')}\n`, nulls };
}

test('roofline.d.ts, compiled with tsc: each function takes the table\'s arguments, returns its fields, and types what it returns', () => {
  const ts = createRequire(import.meta.url)('typescript');
  const { text, nulls } = checks(readFileSync(join(root, 'wasm/roofline.d.ts'), 'utf8'));
  assert.ok(nulls >= 6, `only ${nulls} null fields among the results checked`);
  const dir = mkdtempSync(join(tmpdir(), 'roofline-dts-'));
  try {
    copyFileSync(join(root, 'wasm/roofline.d.ts'), join(dir, 'roofline.d.ts'));
    writeFileSync(join(dir, 'check.ts'), text);
    const program = ts.createProgram([join(dir, 'roofline.d.ts'), join(dir, 'check.ts')], {
      strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler, lib: ['lib.es2022.d.ts'], types: [], skipLibCheck: false,
    });
    const errors = ts.getPreEmitDiagnostics(program).map((d) => {
      const where = d.file ? `${d.file.fileName.slice(dir.length + 1)}:${d.file.getLineAndCharacterOfPosition(d.start).line + 1}` : '';
      const line = d.file?.fileName.endsWith('check.ts') ? text.split('\n')[d.file.getLineAndCharacterOfPosition(d.start).line].slice(0, 300) : '';
      return `${where} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}${line ? `\n    at: ${line}` : ''}`;
    });
    assert.deepEqual(errors, []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// ---- docs/api.md --------------------------------------------------------------------------

test('docs/api.md lists every error code', () => {
  const md = readFileSync(join(root, 'docs/api.md'), 'utf8');
  const errors = md.slice(md.indexOf('## Errors'), md.indexOf('## Functions'));
  for (const code of rl.errorCodes()) assert.ok(errors.includes(`\`${code}\``), `docs/api.md: no row for ${code}`);
});
