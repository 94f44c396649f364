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
      assert.deepEqual(names, rl.functions().map((f) => f.name).sort());
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
      assert.deepEqual(rl.kvCacheBytes({ layers: 32, kvHeads: 8, headDim: 128, tokens: 1, dtype: 'bf16' }), { bytes: 131072, bytesPerToken: 131072 });
      // Llama 3 8B's own cache is the same: its config has the lesson's 32 layers, 8 KV heads of 128
      assert.deepEqual(rl.kvCacheBytes({ model: 'llama3-8b', tokens: 1, dtype: 'bf16' }), { bytes: 131072, bytesPerToken: 131072 });
      const q = rl.quantizedWeights({ params: 8.03e9, dtype: 'int8' });
      assert.equal(q.bytes, 8.03e9);
      assert.equal(q.bitsPerWeight, 8);
      assert.deepEqual(rl.minBatchForRidge({ inputs: 4096, outputs: 4096, dtype: 'fp16', ridgeFlopsPerByte: 203.125 }), { batch: 226 });
      assert.deepEqual(rl.flopsPerToken({ params: 8.03e9 }), { flops: 16.06e9 });
      assert.deepEqual(rl.denseFromSparsity({ flopsPerSecond: 1979e12 }), { flopsPerSecond: 989.5e12 });
      assert.deepEqual(rl.trainingFlops({ params: 8.03e9, tokens: 15e12 }), { flops: 6 * 8.03e9 * 15e12 });
      assert.deepEqual(rl.cnnTrainingFlops({ forwardFlops: 8.2e9, examples: 1840211, epochs: 8 }), { flops: 3 * 8.2e9 * 1840211 * 8 });
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
        // eslint-disable-next-line no-loss-of-precision -- a literal beyond a double, on purpose
        ['1e400', 1e400, ['not_finite']],
        ['negative', -1, ['negative', 'not_positive']],
        ['zero', 0, null],
        ['fraction', 2.7, null],
        ['huge', 1e300, null],
        ['2**60', 2 ** 60, null],
      ];
      const optional = optionalFields(rl);
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
            assert.ok(codes === null || (what === 'missing' && optional.has(`${name}.${field}`)), `${ctx}: accepted`);
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

    const codeOf = (f) => { try { f(); } catch (e) { assert.ok(e instanceof rl.RooflineError, String(e)); return [e.code, e.field]; } return null; };

    test('an argument a function does not take is unknown_argument naming it, on every function', () => {
      for (const [name, args] of Object.entries(validArgs)) {
        assert.deepEqual(codeOf(() => rl[name]({ ...structuredClone(args), gpu_: 2 })), ['unknown_argument', 'gpu_'], name);
      }
      // A typo must not fall back to a default: gpu for gpus.
      const typo = { weightBytes: 70.6e9, kvBytesPerSequence: 0, batch: 1, bytesPerSecond: 3350e9, gpu: 2 };
      assert.deepEqual(codeOf(() => rl.decode(typo)), ['unknown_argument', 'gpu']);
      // every bad argument at once, the first as the error's own code and field
      try {
        rl.matmul({ n: -1, k: 'x', m: 2.5, dtype: 'fp12' });
        assert.fail('accepted');
      } catch (e) {
        assert.deepEqual(e.errors.map((x) => [x.code, x.field]), [['not_positive', 'n'], ['not_a_number', 'k'], ['not_integer', 'm'], ['unknown_dtype', 'dtype']]);
        assert.deepEqual([e.code, e.field, e.message], [e.errors[0].code, e.errors[0].field, e.errors[0].message]);
      }
      try { rl.decode(typo); } catch (e) { assert.match(e.message, /takes no argument "gpu".*gpus/); }
      assert.deepEqual(codeOf(() => rl.dtypes({ all: true })), ['unknown_argument', 'all']);
    });

    test('dtypes: INT8 and INT4 are the integer formats (rated in TOPS), the others floating point', () => {
      assert.deepEqual(rl.dtypes().filter((d) => d.integer).map((d) => d.id), ['int8', 'int4']);
      assert.ok(rl.dtypes().every((d) => typeof d.integer === 'boolean'));
    });

    test('device: the L4 in BF16, and the T4 has no BF16 peak', () => {
      assert.deepEqual(rl.device({ gpu: 'l4', dtype: 'bf16' }), {
        peakFlopsPerSecond: 121e12, bytesPerSecond: 300e9, memoryBytes: 24e9, ridgeFlopsPerByte: 121e12 / 300e9,
      });
      assert.deepEqual(codeOf(() => rl.device({ gpu: 't4', dtype: 'bf16' })), ['unsupported_dtype', 'dtype']);
      assert.deepEqual(codeOf(() => rl.device({ gpu: 'T4', dtype: 'fp16' })), ['unknown_gpu', 'gpu']);
      assert.deepEqual(codeOf(() => rl.device({ gpu: 't4' })), ['missing_field', 'dtype']);
    });

    test('modelWeights: the lesson\'s five weight sizes', () => {
      const w = (model, format) => rl.modelWeights(format ? { model, format } : { model });
      // the lesson's figures, every weight read per step; its architecture counts 16.06 GB held, ≈ 15.01 GB read
      const { residentBytes, bytesReadPerStepCounted, ...lesson } = w('llama3-8b');
      assert.deepEqual(lesson, { bytes: 16.06e9, params: 8.03e9, keptParams: 0, bitsPerWeight: 16, format: 'bf16', bytesReadPerStep: 16.06e9 });
      assert.equal(residentBytes, 2 * 8030261248);
      assert.equal(bytesReadPerStepCounted, 2 * (8030261248 - 128255 * 4096));
      assert.equal(w('llama3-8b', 'bf16').bytes, 16.06e9);
      assert.equal(w('llama3-8b', 'int8').bytes, 8.03e9);
      const int4 = w('llama3-8b', 'int4');
      assert.ok(Math.abs(int4.bytes - 5.73e9) <= 0.005e9, `int4: ${int4.bytes}`);
      assert.equal(int4.keptParams, 1e9);
      assert.equal(w('c10-70b').bytes, 70.6e9);
      assert.equal(w('c10-70b').format, 'fp8');
      const phone = w('phone-3b');
      assert.ok(Math.abs(phone.bytes - 1.31e9) <= 0.005e9, `phone-3b: ${phone.bytes}`);
      assert.equal(phone.bitsPerWeight, 3.5);
      // models() reports the same bytes, in each model's own format.
      for (const m of rl.models()) {
        assert.equal(m.weightBytes, w(m.id).bytes, m.id);
        assert.equal(m.format, w(m.id).format, m.id);
      }
      assert.deepEqual(codeOf(() => w('llama3-8b', 'int3')), ['unknown_format', 'format']);
      assert.deepEqual(codeOf(() => w('gpt')), ['unknown_model', 'model']);
      assert.ok(rl.formats().some((f) => f.id === 'int4' && f.groupSize === 64 && f.keepsBf16Share));
    });

    // Llama 3 8B in BF16 on an L4, every argument from the core.
    const llamaOnL4 = (batch, kvTokens, extra) => {
      const w = rl.modelWeights({ model: 'llama3-8b' });
      const d = rl.device({ gpu: 'l4', dtype: 'bf16' });
      const kv = kvTokens ? rl.kvCacheBytes({ layers: 32, kvHeads: 8, headDim: 128, tokens: kvTokens, dtype: 'bf16' }).bytes : 0;
      return rl.decode({ weightBytes: w.bytes, kvBytesPerSequence: kv, batch, bytesPerSecond: d.bytesPerSecond, ...extra(w, d) });
    };

    test('decode: compute-bound at a batch of 1,024 on an L4, ≈ 7,530 tokens/s', () => {
      const roofs = (w, d) => ({ flopsPerToken: rl.flopsPerToken({ params: w.params }).flops, peakFlopsPerSecond: d.peakFlopsPerSecond });
      const r = llamaOnL4(1024, 0, roofs);
      assert.equal(r.bound, 'compute');
      assert.ok(Math.abs(r.tokensPerSecond - 7530) <= 5, `got ${r.tokensPerSecond}`);
      assert.equal(r.stepSeconds, r.computeSeconds);
      assert.ok(r.memorySeconds < r.computeSeconds);
      assert.equal(r.fits, null);
      assert.equal(r.maxBatch, null);
      const one = llamaOnL4(1, 0, roofs);
      assert.equal(one.bound, 'memory');
      assert.equal(one.stepSeconds, one.memorySeconds);
      assert.ok(Math.abs(one.tokensPerSecond - 18.7) <= 0.05);
      const memoryOnly = llamaOnL4(1024, 0, () => ({}));
      assert.equal(memoryOnly.computeSeconds, null);
      assert.equal(memoryOnly.bound, 'memory');
      const base = { weightBytes: 16.06e9, kvBytesPerSequence: 0, batch: 1, bytesPerSecond: 300e9 };
      assert.deepEqual(codeOf(() => rl.decode({ ...base, flopsPerToken: 16.06e9 })), ['missing_field', 'peakFlopsPerSecond']);
      assert.deepEqual(codeOf(() => rl.decode({ ...base, peakFlopsPerSecond: 121e12 })), ['missing_field', 'flopsPerToken']);
    });

    test('decode: 24 GB hold Llama 3 8B and 7 conversations of 8,192 tokens, not 8', () => {
      const capacity = (w, d) => ({ memoryBytesPerGpu: d.memoryBytes });
      const seven = llamaOnL4(7, 8192, capacity);
      assert.equal(seven.maxBatch, 7);
      assert.equal(seven.fits, true);
      const eight = llamaOnL4(8, 8192, capacity);
      assert.equal(eight.maxBatch, 7);
      assert.equal(eight.fits, false);
      assert.equal(llamaOnL4(8, 8192, () => ({})).fits, null);
      const noKv = llamaOnL4(8, 0, capacity);
      assert.equal(noKv.fits, true);
      assert.equal(noKv.maxBatch, null);
    });

    test('caseArgs: four conversations on an L4 give ≈ 59 tokens/s, and values vary the case', () => {
      const args = rl.caseArgs({ id: 'four-conversations', function: 'decode' });
      assert.equal(args.batch, 4);
      // the lesson's 1.07 GB, not the 1,073,741,824 bytes that 8,192 tokens hold: 16.06 + 4 × 1.07 ≈ 20.3 GB
      assert.equal(args.kvBytesPerSequence, 1.07e9);
      assert.equal(args.weightBytes, 16.06e9);
      const d = rl.decode(args);
      assert.equal(d.bytesPerStep, 16.06e9 + 4 * 1.07e9);
      assert.ok(Math.abs(d.tokensPerSecond - 59) <= 0.5, `got ${d.tokensPerSecond}`);
      assert.equal(d.bound, 'memory');
      assert.equal(d.fits, true);
      const h100 = rl.decode(rl.caseArgs({ id: 'four-conversations', function: 'decode', values: { gpu: 'h100-sxm', format: 'int4' } }));
      assert.ok(h100.tokensPerSecond > 10 * d.tokensPerSecond);
      assert.deepEqual(rl.caseArgs({ id: 'c01-last-layer', function: 'matmul' }), { n: 32, k: 2048, m: 500, dtype: 'fp16' });
      assert.equal(rl.lessonCase({ id: 'four-conversations' }).values.kvTokens, 8192);
      assert.deepEqual(rl.cases().map((c) => c.id).filter((id) => id === 'four-conversations'), ['four-conversations']);
      assert.deepEqual(codeOf(() => rl.lessonCase({ id: 'c99' })), ['unknown_case', 'id']);
      assert.deepEqual(codeOf(() => rl.caseArgs({ id: 'four-conversations', function: 'nope' })), ['unknown_function', 'function']);
      assert.deepEqual(codeOf(() => rl.caseArgs({ id: 'four-conversations', function: 'decode', values: { gpux: 't4' } })),
        ['unknown_argument', 'values.gpux']);
    });

    test('the module stays usable after 10,000 errors', () => {
      for (let i = 0; i < 10000; i++) {
        assert.throws(() => rl.decode({ weightBytes: -i, kvBytesPerSequence: 0, batch: 1, bytesPerSecond: 1 }), rl.RooflineError);
      }
      assert.equal(rl.matmul({ n: 2, k: 3, m: 2, dtype: 'fp32' }).macs, 12);
    });
  });
}
