// The WebAssembly module from Node: both packages, every function, the lesson oracle (bit for bit
// against the native core), every kind of bad argument, and resilience after many errors.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { siteDir, nativeResults, oracle, validArgs, resolvePath, numbersIn, optionalFields } from './helpers.mjs';

const require = createRequire(import.meta.url);

const packages = {
  'roofline.mjs (ES module)': async () => (await import(join(siteDir, 'roofline.mjs'))).default(),
  'roofline.js (classic script, CommonJS in Node)': async () => require(join(siteDir, 'roofline.js'))(),
};

for (const [label, load] of Object.entries(packages)) {
  describe(label, async () => {
    const rl = await load();

    test('exposes exactly the documented functions plus RooflineError', () => {
      const names = Object.keys(rl).filter((k) => k !== 'RooflineError').sort();
      assert.deepEqual(names, Object.keys(validArgs).sort());
      assert.equal(typeof rl.RooflineError, 'function');
      assert.ok(Object.isFrozen(rl));
    });

    test('every function answers its valid arguments with finite numbers', () => {
      for (const [name, args] of Object.entries(validArgs)) {
        const result = rl[name](structuredClone(args));
        for (const x of numbersIn(result)) assert.ok(Number.isFinite(x), `${name} returned ${x}`);
      }
    });

    test('the issue\'s examples: matmul, roofline, decode, kvCacheBytes, quantizedWeights, minBatchForRidge', () => {
      assert.deepEqual(rl.matmul({ n: 32, k: 2048, m: 500, dtype: 'fp16' }), {
        rows: 32, cols: 500, outputElements: 16000, macs: 32768000, flops: 65536000, bytes: 2211072,
        flopsPerByte: 65536000 / 2211072,
      });
      const r = rl.roofline({ peakFlopsPerSecond: 65e12, bytesPerSecond: 320e9, flopsPerByte: 1 });
      assert.equal(r.ridgeFlopsPerByte, 203.125);
      assert.equal(r.attainableFlopsPerSecond, 0.32e12);
      assert.equal(r.bound, 'memory');
      assert.equal(rl.roofline({ peakFlopsPerSecond: 65e12, bytesPerSecond: 320e9, flopsPerByte: 203.125 }).bound, 'compute');
      const d = rl.decode({ weightBytes: 70.6e9, kvBytesPerSequence: 0, batch: 1, bytesPerSecond: 3350e9, gpus: 2 });
      assert.equal(d.bytesPerStep, 35.3e9);
      assert.equal(rl.decode({ weightBytes: 16.06e9, kvBytesPerSequence: 0, batch: 1, bytesPerSecond: 300e9 }).bytesPerStep, 16.06e9);
      assert.equal(rl.kvCacheBytes({ layers: 32, kvHeads: 8, headDim: 128, tokens: 1, dtype: 'bf16' }), 131072);
      const q = rl.quantizedWeights({ params: 8.03e9, dtype: 'int8' });
      assert.equal(q.bytes, 8.03e9);
      assert.equal(q.bitsPerWeight, 8);
      assert.equal(rl.minBatchForRidge({ inputs: 4096, outputs: 4096, dtype: 'fp16', ridgeFlopsPerByte: 203.125 }), 226);
      assert.equal(rl.tile({ rows: 1, cols: 1, dtype: 'fp16' }).flopsPerByte, 0.5);
      assert.deepEqual(rl.multiply({ a: [[1, 2], [3, 4]], b: [[5, 6], [7, 8]] }).c, [[19, 22], [43, 50]]);
      const t4 = rl.gpus().find((g) => g.id === 't4');
      assert.equal(t4.peakFlopsPerSecond.fp16, 65e12);
      assert.ok(!('fp8' in t4.peakFlopsPerSecond));
      assert.equal(rl.models().find((m) => m.id === 'llama3-8b').params, 8.03e9);
    });

    test('lesson oracle: every worked number, and the same bits as the native core', () => {
      assert.ok(existsSync(nativeResults), `native results missing at ${nativeResults}: build and run ctest first`);
      const native = JSON.parse(readFileSync(nativeResults, 'utf8'));
      let compared = 0;
      for (const check of oracle.checks) {
        const ctx = `${check.id} (${check.source}: "${check.lesson_text}")`;
        let value;
        let error;
        try {
          value = rl[check.call](structuredClone(check.args));
        } catch (e) {
          error = e;
        }
        if (check.expected_error) {
          assert.ok(error instanceof rl.RooflineError, ctx);
          assert.equal(error.code, check.expected_error, ctx);
          assert.equal(native[check.id].error, check.expected_error, ctx);
          continue;
        }
        assert.equal(error, undefined, ctx);
        assert.deepEqual(value, native[check.id].value, `${ctx}: wasm and native differ`);
        compared++;
        const root = check.select ? value.find((x) => Object.entries(check.select).every(([k, v]) => x[k] === v)) : value;
        const got = resolvePath(root, check.field);
        if (check.expected_absent) { assert.equal(got, undefined, ctx); continue; }
        if ('expected_bool' in check) { assert.equal(got, check.expected_bool, ctx); continue; }
        const cmp = (g, want) => {
          if (Array.isArray(want)) { assert.equal(g.length, want.length, ctx); want.forEach((w, i) => cmp(g[i], w)); return; }
          if (typeof want === 'string') { assert.equal(g, want, ctx); return; }
          const tol = 'abs' in check.tolerance ? check.tolerance.abs : (check.tolerance.rel ?? 0) * Math.abs(want);
          assert.ok(Math.abs(g - want) <= tol, `${ctx}: got ${g}, lesson says ${want}`);
        };
        cmp(got, check.expected);
      }
      assert.ok(compared > 400);
    });

    test('every bad argument of every field of every function throws a RooflineError naming the field', () => {
      const corruptions = [
        ['missing', undefined, ['missing_field']],
        ['text', 'abc', ['not_a_number']],
        ['empty text', '', ['not_a_number']],
        ['null', null, ['not_a_number']],
        ['boolean', true, ['not_a_number']],
        ['object', {}, ['not_a_number']],
        ['array', [1], ['not_a_number']],
        ['NaN', NaN, ['not_finite']],
        ['Infinity', Infinity, ['not_finite']],
        ['-Infinity', -Infinity, ['not_finite']],
        ['1e400', 1e400, ['not_finite']],
        ['negative', -1, ['negative', 'not_positive']],
        ['zero', 0, null],
        ['fraction', 2.7, null],
        ['huge', 1e300, null],
        ['2**60', 2 ** 60, null],
      ];
      let errors = 0;
      for (const [name, args] of Object.entries(validArgs)) {
        for (const [field, good] of Object.entries(args)) {
          if (typeof good !== 'number') continue;
          for (const [what, bad, codes] of corruptions) {
            const ctx = `${name}.${field} = ${what}`;
            const a = structuredClone(args);
            if (what === 'missing') delete a[field]; else a[field] = bad;
            let result;
            try {
              result = rl[name](a);
            } catch (e) {
              errors++;
              assert.ok(e instanceof rl.RooflineError && e instanceof Error, `${ctx}: threw ${e}`);
              assert.equal(typeof e.code, 'string', ctx);
              assert.ok(e.message.length > 0 && e.message.includes(e.field), `${ctx}: ${e.message}`);
              if (codes) {
                assert.ok(codes.includes(e.code), `${ctx}: code ${e.code}`);
                assert.equal(e.field, field, ctx);
              }
              continue;
            }
            assert.ok(codes === null || (what === 'missing' && optionalFields.has(`${name}.${field}`)), `${ctx}: accepted`);
            for (const x of numbersIn(result)) assert.ok(Number.isFinite(x), `${ctx}: returned ${x}`);
            if (what === 'fraction' && /^(n|k|m|batch|inputs|outputs|layers|kvHeads|headDim|tokens|rows|cols|gpus|elements|examples|epochs|params|keptParams|groupSize)$/.test(field)) {
              assert.fail(`${ctx}: a fractional count was accepted (silently truncated?)`);
            }
          }
        }
      }
      assert.ok(errors > 500, `only ${errors} errors`);
    });

    test('unknown dtypes and ids, and non-object arguments, are clear errors', () => {
      const code = (f) => { try { f(); } catch (e) { return [e.code, e.field]; } return null; };
      assert.deepEqual(code(() => rl.matmul({ n: 1, k: 1, m: 1, dtype: 'fp64' })), ['unknown_dtype', 'dtype']);
      assert.deepEqual(code(() => rl.matmul({ n: 1, k: 1, m: 1, dtype: 16 })), ['unknown_dtype', 'dtype']);
      assert.deepEqual(code(() => rl.gpu({ id: 'rtx' })), ['unknown_gpu', 'id']);
      assert.deepEqual(code(() => rl.model({ id: undefined })), ['missing_field', 'id']);
      assert.deepEqual(code(() => rl.matmul()), ['missing_field', 'n']);
      assert.deepEqual(code(() => rl.matmul(42)), ['missing_field', '']);
      assert.deepEqual(code(() => rl.matmul('n=1')), ['missing_field', '']);
      assert.deepEqual(code(() => rl.multiply({ a: [[1, 2, 3]], b: [[1, 2, 3]] })), ['shape_mismatch', 'b']);
      assert.deepEqual(code(() => rl.multiply({ a: [[1, 2], [3]], b: [[1]] })), ['ragged_matrix', 'a']);
      assert.deepEqual(code(() => rl.minBatchForRidge({ inputs: 2048, outputs: 500, dtype: 'fp16', ridgeFlopsPerByte: 403.3 })),
        ['never_crosses_ridge', 'ridgeFlopsPerByte']);
      assert.equal(code(() => rl.matmul({ n: 2 ** 40, k: 2 ** 20, m: 2 ** 20, dtype: 'fp16' }))[0], 'too_large');
      assert.deepEqual(rl.errorCodes().slice(0, 3), ['missing_field', 'not_a_number', 'not_finite']);
    });

    test('the module stays usable after 10,000 errors', () => {
      for (let i = 0; i < 10000; i++) {
        assert.throws(() => rl.decode({ weightBytes: -i, kvBytesPerSequence: 0, batch: 1, bytesPerSecond: 1 }), rl.RooflineError);
      }
      assert.equal(rl.matmul({ n: 2, k: 3, m: 2, dtype: 'fp32' }).macs, 12);
    });
  });
}
