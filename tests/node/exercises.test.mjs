// The lesson's exercises and check questions through the module (both packages): the core's
// expected answers against the lesson's published ones, each known mistake recognized from its
// own value, and new numbers the same for the same seed.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { siteDir } from './helpers.mjs';

const require = createRequire(import.meta.url);
const packages = {
  'roofline.mjs': async () => (await import(join(siteDir, 'roofline.mjs'))).default(),
  'roofline.js': async () => require(join(siteDir, 'roofline.js'))(),
};

// The lesson's answers, as it writes them (base units; fractions as fractions).
const LESSON = {
  1: { first: 'yes', rows: 3, cols: 2, macs: 24, flops: 48, second: 'no' },
  2: { ab: [[19, 22], [43, 50]], ba: [[23, 34], [31, 46]], macs: 8 },
  3: { macs: 6422528, flops: 12845056, seconds: 0.2e-6 },
  4: { seconds: 0.2e-3, ceiling: 5000, utilization: 0.18 },
  5: { flops: 2.15e9, bytes: 6.3e6, intensity: 341, gpu1: 'compute', gpu2: 'memory' },
  6: { gpu1: 127, gpu2: 209, big: 47 },
  7: { batch: 226 },
  8: { utilization: 0.13, required: 82e12, believe: 'no' },
  9: { whole: 167, stage: 54, batch: 4, why: 'activations' },
  10: { aloneStep: 10.5e-3, busyStep: 14.7e-3, busyTokens: 2700, prefillFlops: 2.8e14, intensity: 4000, ridge: 591, prefillSeconds: 71e-3 },
  // issue 44's figures: α 0.8, γ 2 gives 2.44 tokens; TP 8 of Llama 3.1 70B, 160 all-reduces ≈ 1.29 ms
  11: { expectedTokens: 2.44, cycleSeconds: 70e-3, speedup: 1.87 },
  12: { allReduces: 160, communicationSeconds: 1.29e-3, weightSeconds: 5.2e-3, tokensPerSecond: 154 },
};
const QUESTIONS = {
  1: { formula: 'nmk' }, 2: { which: 'work_speed', seconds: 0.126e-3 }, 3: { against: 'ridge' },
  4: { bound: 'memory', tokens: 19 }, 5: { why: 'weights_once' }, 6: { why: 'peak_is_ideal' }, 7: { faster: 'no' },
};

for (const [label, load] of Object.entries(packages)) {
  describe(label, async () => {
    const rl = await load();

    test('every exercise: the lesson\'s published answers are right, part by part', () => {
      for (const [id, answers] of Object.entries(LESSON)) {
        const r = rl.checkExercise({ id: Number(id), answers });
        assert.equal(r.state, 'correct', `exercise ${id}: ${JSON.stringify(r.parts.filter((p) => !p.correct))}`);
        assert.deepEqual(rl.exercise({ id: Number(id) }).parts.map((p) => p.id), Object.keys(answers), `exercise ${id}: the lesson's order`);
      }
    });

    test('every check question: the lesson\'s answers are right', () => {
      for (const [id, answers] of Object.entries(QUESTIONS)) {
        assert.equal(rl.checkQuestion({ id: Number(id), answers }).state, 'correct', `question ${id}`);
      }
    });

    test('each known mistake is named from its own value', () => {
      const named = (id, part, value, seed = 0) => rl.checkExercise({ id, seed, answers: { [part]: value } }).parts.find((p) => p.id === part).mistake;
      assert.equal(named(1, 'flops', 24), 'macs_for_flops');
      assert.equal(named(2, 'macs', 16), 'flops_for_macs');
      assert.equal(named(3, 'seconds', 12845056 / 8.1e12), 'other_precision');
      assert.equal(named(5, 'bytes', 6e6), 'gib_for_gb');
      assert.equal(named(6, 'gpu1', 2039 / (16.06e9 / 2 ** 30)), 'gib_for_gb');
      assert.equal(named(7, 'batch', 204), 'intensity_is_batch');
      assert.equal(named(8, 'utilization', 0.2516), 'other_precision');
      assert.equal(named(11, 'expectedTokens', 2.00), 'capped_gamma');
      assert.equal(named(11, 'expectedTokens', 1.44), 'no_bonus_token');
      assert.equal(named(11, 'speedup', 2.44), 'draft_free');
      assert.equal(named(12, 'allReduces', 80), 'one_per_layer');
      assert.equal(named(12, 'communicationSeconds', 10.2e-6), 'bandwidth_only');
      assert.equal(named(12, 'weightSeconds', 41.5e-3), 'not_split');
      assert.equal(named(12, 'tokensPerSecond', 193), 'no_communication');
      let seed = 1;
      while (!rl.exercise({ id: 6, seed }).parts.some((p) => p.mistakes.some((m) => m.id === 'no_kept_share'))) seed += 1;
      const part = rl.exercise({ id: 6, seed }).parts.find((p) => p.mistakes.some((m) => m.id === 'no_kept_share'));
      assert.equal(named(6, part.id, part.mistakes.find((m) => m.id === 'no_kept_share').value, seed), 'no_kept_share');
      // a wrong answer that is no known mistake names none
      assert.equal(named(7, 'batch', 300), null);
      assert.equal(rl.checkExercise({ id: 7, answers: { batch: 300 } }).state, 'incorrect');
    });

    test('new numbers: the same seed, the same exercise; its own answers check right', () => {
      for (let id = 1; id <= 12; id += 1) {
        for (const seed of [1, 7, 123456789]) {
          const a = rl.exercise({ id, seed });
          assert.deepEqual(rl.exercise({ id, seed }), a);
          const answers = Object.fromEntries(a.parts.map((p) => [p.id, p.kind === 'choice' ? p.expectedChoice : p.kind === 'matrix' ? p.expectedMatrix : p.expected]));
          assert.equal(rl.checkExercise({ id, seed, answers }).state, 'correct', `exercise ${id} seed ${seed}`);
        }
      }
    });

    test('bad requests are clear errors', () => {
      const code = (fn) => { try { fn(); } catch (e) { return [e.code, e.field]; } return null; };
      assert.deepEqual(code(() => rl.exercise({ id: 13 })), ['out_of_range', 'id']);
      assert.deepEqual(code(() => rl.exercise({ id: 2.5 })), ['not_integer', 'id']);
      assert.deepEqual(code(() => rl.exercise({ id: 1, seed: -1 })), ['negative', 'seed']);
      assert.deepEqual(code(() => rl.checkExercise({ id: 7, answers: { bach: 226 } })), ['unknown_argument', 'answers.bach']);
      assert.deepEqual(code(() => rl.checkExercise({ id: 7, answers: { batch: 'lots' } })), ['not_a_number', 'answers.batch']);
      assert.deepEqual(code(() => rl.question({ id: 8 })), ['out_of_range', 'id']);
    });
  });
}
