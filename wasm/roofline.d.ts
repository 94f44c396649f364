// Types of the Roofline Lab JavaScript API (docs/api.md). Every quantity is in base units:
// FLOPs (a count), FLOP/s (a rate), bytes, bytes/s, seconds, FLOPs per byte.

export type Dtype = 'fp32' | 'tf32' | 'fp16' | 'bf16' | 'fp8' | 'int8' | 'int4';
export type Bound = 'memory' | 'compute';
export type ErrorCode =
  | 'missing_field' | 'not_a_number' | 'not_finite' | 'not_positive' | 'negative' | 'not_integer'
  | 'too_large' | 'out_of_range' | 'shape_mismatch' | 'ragged_matrix' | 'unknown_dtype'
  | 'unknown_gpu' | 'unknown_model' | 'unsupported_dtype' | 'never_crosses_ridge'
  | 'unknown_function' | 'internal_error';

export declare class RooflineError extends Error {
  readonly name: 'RooflineError';
  readonly code: ErrorCode;
  /** The argument at fault, or '' when the error is about the call as a whole. */
  readonly field: string;
}

export interface DtypeInfo { id: Dtype; name: string; bytesPerElement: number; bits: number }
export interface PeakFlopsPerSecond { fp32?: number; tf32?: number; fp16?: number; bf16?: number; fp8?: number; int8?: number }
export interface Gpu {
  id: string; name: string; year: number;
  /** Capacity in bytes (decimal: 16 GB = 16e9). */
  memoryBytes: number;
  bytesPerSecond: number;
  /** Dense peaks; a missing key means the GPU has no peak at that precision. int8 is in ops/s. */
  peakFlopsPerSecond: PeakFlopsPerSecond;
  pricePerHourUsd?: number;
  source: string;
}
export interface Stage { id: string; name: string; macs: number; weights: number }
export interface Model {
  id: string; name: string; kind: 'llm' | 'cnn'; params: number; bitsPerWeight: number; weightBytes: number;
  dtype?: Dtype; layers?: number; kvHeads?: number; headDim?: number; macsPerExample?: number; flopsPerExample?: number;
  stages?: Stage[]; source: string;
}
export interface MatmulResult { rows: number; cols: number; outputElements: number; macs: number; flops: number; bytes: number; flopsPerByte: number }
export interface RooflineResult {
  ridgeFlopsPerByte: number; memoryFlopsPerSecond: number; attainableFlopsPerSecond: number;
  fractionOfPeak: number; intensityOverRidge: number; bound: Bound;
}
export interface ClocksResult { computeSeconds: number; memorySeconds: number; seconds: number; flopsPerByte: number; ridgeFlopsPerByte: number; bound: Bound }
export interface DenseLayerResult {
  macs: number; flops: number; bytes: number; weightBytes: number; flopsPerByte: number;
  weightsOnlyFlopsPerByte: number; limitFlopsPerByte: number;
}
export interface DecodeResult { bytesPerStep: number; stepSeconds: number; tokensPerSecondPerSequence: number; tokensPerSecond: number }
export interface ConvResult {
  outputHeight: number; outputWidth: number; rows: number; inner: number; cols: number;
  windowElements: number; weights: number; macs: number; flops: number;
}
export interface QuantizedWeightsResult { bytes: number; quantizedBytes: number; scaleBytes: number; keptBytes: number; bitsPerWeight: number }

export interface Roofline {
  RooflineError: typeof RooflineError;
  errorCodes(): ErrorCode[];
  dtypes(): DtypeInfo[];
  gpus(): Gpu[];
  gpu(args: { id: string }): Gpu;
  models(): Model[];
  model(args: { id: string }): Model;
  multiply(args: { a: number[][]; b: number[][] }): { c: number[][]; rows: number; cols: number; inner: number; macs: number; flops: number };
  matmul(args: { n: number; k: number; m: number; dtype: Dtype }): MatmulResult;
  timeAtPeak(args: { flops: number; peakFlopsPerSecond: number }): { seconds: number; perSecond: number };
  roofline(args: { peakFlopsPerSecond: number; bytesPerSecond: number; flopsPerByte: number }): RooflineResult;
  clocks(args: { flops: number; bytes: number; peakFlopsPerSecond: number; bytesPerSecond: number }): ClocksResult;
  utilization(args: { achievedFlopsPerSecond: number; peakFlopsPerSecond: number }): { fraction: number; possible: boolean };
  throughput(args: { flopsPerItem: number; itemsPerSecond: number; peakFlopsPerSecond: number }): {
    achievedFlopsPerSecond: number; fraction: number; possible: boolean; secondsPerItemAtPeak: number; ceilingItemsPerSecond: number;
  };
  totalWork(args: { flopsPerItem: number; items: number; itemsPerSecond?: number }): { flops: number; seconds: number };
  rentalCost(args: { pricePerHourUsd: number; gpus: number; hours: number }): { usd: number };
  denseLayer(args: { batch: number; inputs: number; outputs: number; dtype: Dtype }): DenseLayerResult;
  minBatchForRidge(args: { inputs: number; outputs: number; dtype: Dtype; ridgeFlopsPerByte: number }): number;
  decode(args: { weightBytes: number; kvBytesPerSequence: number; batch: number; bytesPerSecond: number; gpus?: number }): DecodeResult;
  kvCacheBytes(args: { layers: number; kvHeads: number; headDim: number; tokens: number; dtype: Dtype }): number;
  flopsPerToken(args: { params: number }): number;
  prefill(args: { params: number; tokens: number; weightBytes: number; peakFlopsPerSecond: number; bytesPerSecond: number; gpus?: number }): ClocksResult & { flops: number };
  tile(args: { rows: number; cols: number; dtype: Dtype }): { flopsPerByte: number };
  convAsMatmul(args: {
    inputHeight: number; inputWidth: number; inChannels: number; kernelHeight: number; kernelWidth: number;
    filters: number; stride?: number; padding?: number;
  }): ConvResult;
  elementwise(args: { elements: number; dtype: Dtype; flopsPerElement?: number }): { flops: number; bytes: number; flopsPerByte: number };
  fusion(args: { elements: number; dtype: Dtype }): { unfusedBytes: number; fusedBytes: number; savedBytes: number; unfusedTransfers: number; fusedTransfers: number };
  quantizedWeights(args: {
    params: number; dtype: Dtype; groupSize?: number; scaleDtype?: Dtype; keptParams?: number; keptDtype?: Dtype;
  }): QuantizedWeightsResult;
  precisionSpeedup(args: { bytesBefore: number; bytesAfter: number; peakBeforeFlopsPerSecond: number; peakAfterFlopsPerSecond: number }): { memoryBoundSpeedup: number; computeBoundSpeedup: number };
  denseFromSparsity(args: { flopsPerSecond: number }): number;
  trainingFlops(args: { params: number; tokens: number }): number;
  cnnTrainingFlops(args: { forwardFlops: number; examples: number; epochs?: number }): number;
}

/** Loads the module (nothing is fetched: the wasm is inlined) and resolves to the API. */
export declare function createRoofline(options?: object): Promise<Roofline>;
export default createRoofline;
