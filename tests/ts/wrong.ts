// Calls that must NOT compile (tests/ts/types.test.mjs expects one error per marked line).
import createRoofline from 'roofline-lab';
import { setCalculatorAttributes } from 'roofline-lab/calculator';

export async function wrong(): Promise<void> {
  const rl = await createRoofline();
  rl.matmul({ n: '4096', k: 4096, m: 4096, dtype: 'fp16' });  // @expect-error: n is a number
  rl.matmul({ n: 4096, k: 4096, m: 4096, dtype: 'fp12' });  // @expect-error: no such dtype
  rl.decode({ weightBytes: 1e9, kvBytesPerSequence: 0, bytesPerSecond: 3e11 });  // @expect-error: batch is missing
  const flops: string = rl.matmul({ n: 1, k: 1, m: 1, dtype: 'fp32' }).flops;  // @expect-error: flops is a number
  rl.notAFunction();  // @expect-error: not in the API
  const el = document.createElement('roofline-calculator');
  setCalculatorAttributes(el, { kind: 'decod' });  // @expect-error: no such kind
  setCalculatorAttributes(el, { kind: 'decode', lang: 'fr' });  // @expect-error: no such language
  setCalculatorAttributes(el, { kind: 'decode', values: { batch: 32 } });  // @expect-error: values is a string of name=value pairs
  el.addEventListener('roofline-change', (e) => { const ok: string = e.detail.ok; void ok; });  // @expect-error: ok is a boolean
  void flops;
}
