// Uses every function of the roofline-lab package's API, the classic script's global, and the
// <roofline-calculator> element's attributes and event, as a TypeScript reader would.
// tests/ts/types.test.mjs compiles it with `tsc --noEmit --strict` against the installed
// package, and checks that every function of the Roofline interface is called here.
import createRoofline, { RooflineError } from 'roofline-lab';
import type { Roofline, Dtype, FunctionName, ErrorCode, CheckResult, Measurement, PrecisionLadderResult, Link } from 'roofline-lab';
import createClassic from 'roofline-lab/classic';
import { setCalculatorAttributes } from 'roofline-lab/calculator';
import type { RooflineChangeDetail, CalculatorKind, RooflineCalculatorElement } from 'roofline-lab/calculator';

export async function everyFunction(): Promise<number> {
  const rl: Roofline = await createRoofline();
  const dtype: Dtype = 'fp16';
  const names: FunctionName[] = rl.functions().map((f) => f.name);
  const codes: ErrorCode[] = rl.errorCodes();
  const bytesPerElement: number = rl.dtypes()[0].bytesPerElement;
  const gpuId: string = rl.gpus()[0].id;
  const ridge: number = rl.device({ gpu: rl.gpu({ id: 't4' }).id, dtype: 'bf16' }).ridgeFlopsPerByte;
  const model = rl.model({ id: rl.models()[0].id });
  const weights = rl.modelWeights({ model: model.id, format: rl.formats()[0].id });
  const measured: Measurement = rl.measurements()[0];
  const below: boolean = measured.fractionOfCeiling < 1 && measured.gpu === rl.gpu({ id: measured.gpu }).id;
  const c = rl.lessonCase({ id: rl.cases()[0].id });
  const args = rl.caseArgs({ id: c.id, function: 'decode', values: { batch: 8 } });
  const ex = rl.exercise({ id: 7, seed: 0 });
  const checked: CheckResult = rl.checkExercise({ id: ex.id, seed: 0, answers: { batch: 226 } });
  const q = rl.question({ id: 4 });
  const qChecked = rl.checkQuestion({ id: q.id, answers: { bound: 'memory', tokens: 19 } });
  const product: number[][] = rl.multiply({ a: [[2, 1, 3], [1, 0, 2]], b: [[50, 200], [120, 100], [15, 50]] }).c;
  const mm = rl.matmul({ n: 32, k: 2048, m: 500, dtype });
  const t = rl.timeAtPeak({ flops: mm.flops, peakFlopsPerSecond: 65e12 });
  const roof = rl.roofline({ peakFlopsPerSecond: 65e12, bytesPerSecond: 320e9, flopsPerByte: mm.flopsPerByte });
  const clocks = rl.clocks({ flops: 137438953472, bytes: 100663296, peakFlopsPerSecond: 65e12, bytesPerSecond: 320e9 });
  const util = rl.utilization({ achievedFlopsPerSecond: 9.84e12, peakFlopsPerSecond: 65e12 });
  const tput = rl.throughput({ flopsPerItem: 8.2e9, itemsPerSecond: 1200, peakFlopsPerSecond: 65e12 });
  const work = rl.totalWork({ flopsPerItem: 8.2e9, items: 1e7, itemsPerSecond: 1200 });
  const cost = rl.rentalCost({ pricePerHourUsd: 0.53, gpus: 2, hours: 720 });
  const stage = rl.stageIntensity({ model: 'resnet50', stage: 'stage4', batch: 32 });
  const grew = rl.compareGpus({ from: 't4', to: 'h100-sxm', dtype });
  const load = rl.dailyLoad({ items: 1e7, gpus: 2, itemsPerSecond: 1200 });
  const needed = rl.gpusNeeded({ demandItemsPerSecond: 500, itemsPerSecond: 100 });
  const rate = rl.perSecond({ seconds: 0.05 });
  const screen = rl.framePixels({ width: 1920, height: 1080, framesPerSecond: 60 });
  const dense = rl.denseLayer({ batch: 32, inputs: 2048, outputs: 500, dtype });
  const minBatch = rl.minBatchForRidge({ inputs: 4096, outputs: 4096, dtype, ridgeFlopsPerByte: ridge });
  const decode = rl.decode({ weightBytes: weights.bytes, kvBytesPerSequence: 1.07e9, batch: 4, bytesPerSecond: 300e9 });
  const kv = rl.kvCacheBytes({ layers: 32, kvHeads: 8, headDim: 128, tokens: 8192, dtype: 'bf16' });
  const mine = rl.modelFromConfig({ config: '{"model_type": "llama"}', kvDtype: 'fp8', batch: 8, tokens: 4096 });
  const moe: number | null = mine.expertsTouched;
  const mineKv = rl.kvCacheBytes({ model: mine, tokens: 8192, dtype: 'int8' }).bytesPerToken;
  const mineStep = rl.decode({ model: mine, batch: 8, bytesPerSecond: 3.35e12, tokens: 4096 }).residentBytesPerGpu;
  const inside = rl.step({ model: 'llama3-8b', gpu: 'h100-sxm', phase: 'decode', batch: 1, context: 8192, flashAttention: true });
  const attentionShare: number = inside.totals.attentionShare + inside.operators[0].seconds;
  const link: Link = rl.links()[0];
  const tp = rl.step({ model: 'llama3.1-70b', gpu: 'h100-sxm', phase: 'decode', batch: 1, context: 8192, gpus: 8, link: link.id });
  const onLink: number = tp.operators.filter((o) => o.bound === 'link').length + (tp.totals.communicationSeconds ?? 0);
  const tpDecode: number | null = rl.decode({ model: 'llama3.1-70b', batch: 1, bytesPerSecond: 3.35e12, gpus: 8, linkBytesPerSecond: 450e9, linkLatencySeconds: 8e-6 }).communicationSeconds;
  const perMillion = rl.costPerMillionTokens({ pricePerHourUsd: 6.88, tokensPerSecond: mineStep, gpus: 2 }).usdPerMillionTokens;
  const perToken = rl.flopsPerToken({ params: 8.03e9 });
  const prefill = rl.prefill({ params: 8.03e9, tokens: 2000, weightBytes: 16.06e9, peakFlopsPerSecond: 121e12, bytesPerSecond: 300e9 });
  const tile = rl.tile({ rows: 64, cols: 64, dtype });
  const conv = rl.convAsMatmul({ inputHeight: 224, inputWidth: 224, inChannels: 3, kernelHeight: 7, kernelWidth: 7, filters: 64, stride: 2, padding: 3 });
  const resized = rl.resolutionScale({ fromSide: 224, toSide: 160 });
  const ew = rl.elementwise({ elements: 1000, dtype, flopsPerElement: 1 });
  const fusion = rl.fusion({ elements: 802816, dtype });
  const quant = rl.quantizedWeights({ params: 8.03e9, dtype: 'int4', groupSize: 64, scaleDtype: 'fp16' });
  const ladder: PrecisionLadderResult[] = rl.precisionLadder({ params: 8.03e9, bytesPerSecond: 300e9, model: 'llama3-8b' });
  const int4Ceiling: number = ladder[2].tokensPerSecond;
  const spec = rl.speculative({ model: 'llama3-8b', tokens: 8192, draft: 'llama3.2-1b', gamma: 4, acceptance: 0.8, bytesPerSecond: 300e9, peakFlopsPerSecond: 121e12 });
  const breakEven: number | null = spec.breakEvenAcceptance;
  const cached = rl.prefixCache({ params: 8.03e9, promptTokens: 2000, cachedShare: 0.9, weightBytes: 16.06e9, peakFlopsPerSecond: 121e12, bytesPerSecond: 300e9 });
  const fromHost = rl.prefixCache({ params: 8.03e9, promptTokens: 2000, cachedShare: 0.9, weightBytes: 16.06e9, peakFlopsPerSecond: 121e12, bytesPerSecond: 300e9, kvBytesPerToken: 131072, hostBytesPerSecond: 32e9, overlap: false });
  const loadSeconds: number = fromHost.loadSeconds;
  const speedup = rl.precisionSpeedup({ bytesBefore: 16.06e9, bytesAfter: 8.03e9, peakBeforeFlopsPerSecond: 65e12, peakAfterFlopsPerSecond: 130e12 });
  const sparse = rl.denseFromSparsity({ flopsPerSecond: 1979e12 });
  const training = rl.trainingFlops({ params: 8.03e9, tokens: 15e12 });
  const cnn = rl.cnnTrainingFlops({ forwardFlops: 8.2e9, examples: 1840211, epochs: 8 });
  try {
    rl.matmul({ n: -1, k: 1, m: 1, dtype });
  } catch (e) {
    if (e instanceof RooflineError) {
      const code: ErrorCode = e.code;
      const field: string = e.field;
      void code; void field;
    }
  }
  const classic: Roofline = await createClassic();
  const global: Roofline = await globalThis.createRoofline();
  return [names.length, codes.length, bytesPerElement, gpuId.length, weights.bytes, Object.keys(args).length,
    checked.correct, qChecked.correct, product.length, t.seconds, roof.attainableFlopsPerSecond, clocks.seconds, util.fraction,
    tput.ceilingItemsPerSecond, work.flops, cost.usd, stage.weightsOnlyFlopsPerByte, grew.peakRatio, load.load, needed.gpus, rate.perSecond, screen.pixelsPerSecond, dense.flops, minBatch.batch, decode.tokensPerSecond, kv.bytes, moe ?? 0, mineKv, perMillion, attentionShare, onLink, tpDecode ?? 0,
    perToken.flops, prefill.seconds, tile.flopsPerByte, conv.flops, resized.flopsFraction, ew.flopsPerByte, fusion.savedBytes, quant.bytes, int4Ceiling, spec.speedup, breakEven ?? 0, cached.timeToFirstTokenSeconds, loadSeconds,
    speedup.memoryBoundSpeedup, sparse.flopsPerSecond, training.flops, cnn.flops,
    classic.functions().length, global.functions().length].reduce((a, b) => a + b, 0);
}

export function theElement(): void {
  const el: RooflineCalculatorElement = document.createElement('roofline-calculator');
  const kind: CalculatorKind = 'decode';
  setCalculatorAttributes(el, { kind, lang: 'es', eager: true, 'url-state': false, 'link-terms': true });
  const exercise = document.createElement('roofline-calculator');
  setCalculatorAttributes(exercise, { kind: 'exercise', exercise: 7 });
  setCalculatorAttributes(el, { kind, model: 'mixtral-8x7b', gpu: 'h100-sxm', format: 'bf16', dtype: 'bf16', values: 'batch=32 tokens=8192' });
  el.addEventListener('roofline-change', (e) => {
    const detail: RooflineChangeDetail = e.detail;
    const ok: boolean = detail.ok;
    const batch: number | string | undefined = detail.values.batch;
    const which: CalculatorKind = detail.kind;
    const gpu: string | undefined = detail.selects.gpu;
    void ok; void batch; void which; void gpu;
  });
  document.body.append(el, exercise);
}
