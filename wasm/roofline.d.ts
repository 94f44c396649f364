// Types of the Roofline Lab JavaScript API (docs/api.md). Every quantity is in base units:
// FLOPs (a count), FLOP/s (a rate), bytes, bytes/s, seconds, FLOPs per byte.
//
// wasm/roofline.d.ts is written from wasm/roofline.d.ts.in and the core's API table
// (core/src/api/table_*.cpp, as rl.functions() returns it) by `node wasm/dts.mjs build-wasm/site`: edit
// those two, not it. The table gives each function's line in the Roofline interface and each
// result type whose name ends in "Result"; the template, every other type (tests/node/
// api-table.test.mjs checks them against the table and the functions' results with tsc).
// `name?:` marks an optional argument, or a result field that may be absent; `| null` a field that
// is present but may be null.

export type Dtype = 'fp32' | 'tf32' | 'fp16' | 'bf16' | 'fp8' | 'int8' | 'int4';
export type Bound = 'memory' | 'compute';
export type ErrorCode =
  | 'missing_field' | 'not_a_number' | 'not_finite' | 'not_positive' | 'negative' | 'not_integer'
  | 'too_large' | 'out_of_range' | 'shape_mismatch' | 'ragged_matrix' | 'unknown_dtype'
  | 'unknown_gpu' | 'unknown_model' | 'unknown_format' | 'unknown_case' | 'unknown_link'
  | 'unsupported_dtype'
  | 'never_crosses_ridge' | 'unknown_function' | 'unknown_argument' | 'invalid_config' | 'unknown_architecture'
  | 'invalid_json' | 'internal_error';
/** What an argument must be (functions()[i].args[j].kind). */
export type ArgKind =
  | 'count' | 'countOrZero' | 'positive' | 'nonNegative' | 'fraction' | 'number' | 'dtype' | 'gpu' | 'model'
  | 'modelRef' | 'config' | 'format' | 'stage' | 'case' | 'function' | 'caseValues' | 'answers' | 'matrix'
  | 'phase' | 'flag' | 'link' | 'draftRef';
/** The name of an API function ('decode', 'matmul', ...). */
export type FunctionName = Exclude<keyof Roofline, 'RooflineError'>;
/** A model: a catalog id, or what modelFromConfig returned. */
export type ModelRef = string | ConfigModel;
/** Named values of a lesson case: numbers in base units, or ids (gpu, model, format, dtype). */
export type CaseValues = { [name: string]: number | string };

export declare class RooflineError extends Error {
  readonly name: 'RooflineError';
  readonly code: ErrorCode;
  /** The argument at fault, or '' when the error is about the call as a whole. */
  readonly field: string;
  /** Every bad argument of the call, this one first: all are reported at once. */
  readonly errors: ReadonlyArray<{ readonly code: ErrorCode; readonly field: string; readonly message: string }>;
}

// ---- the API table ------------------------------------------------------------------------

export interface FunctionArg {
  name: string; kind: ArgKind;
  /** Its TypeScript type in the Roofline interface ('number', 'Dtype', 'ModelRef', ...). */
  type: string;
  unit: string; optional: boolean;
  /** What it stands for when left out, as JavaScript ('1', "'bf16'"); null where none is documented. */
  default: string | null;
}
export interface ResultField {
  /** '*' for caseArgs: an object whose keys are whatever arguments the case gives. */
  name: string;
  /** Its TypeScript type ('number', 'Bound', 'number | null', 'Stage[]'): `| null` where it may be null. */
  type: string;
  /** The field may be absent. */
  optional: boolean;
  /** What it is ('' where the table does not say). */
  doc: string;
}
export interface FunctionInfo {
  name: FunctionName;
  /** What it does ('' where the table does not say). */
  doc: string;
  args: FunctionArg[]; returns: 'object' | 'list';
  /** The name of its result type (of each item, for lists): 'DecodeResult', 'Gpu', 'ErrorCode'. */
  resultType: string;
  /** The fields of the result (of each item, for lists); [] for errorCodes, a list of strings. */
  result: ResultField[];
}

// ---- catalog --------------------------------------------------------------------------------

/** integer: arithmetic in this format is on integers, its rate in OPS (TOPS), not FLOPS. */
export interface DtypeInfo { id: Dtype; name: string; bytesPerElement: number; bits: number; integer: boolean }
export interface PeakFlopsPerSecond { fp32?: number; tf32?: number; fp16?: number; bf16?: number; fp8?: number; int8?: number }
/** What kind of part a device is (the page groups its selects by it). */
export type DeviceKind = 'datacenter-gpu' | 'consumer-gpu' | 'unified-memory' | 'cpu' | 'tpu';
export interface Gpu {
  id: string; name: string; year: number; kind: DeviceKind;
  /** One of the lesson's own entries (listed first; exercises draw from these only). */
  lesson: boolean;
  /** Capacity in bytes (decimal: 16 GB = 16e9). */
  memoryBytes: number;
  bytesPerSecond: number;
  /** Unified memory: the share of memoryBytes the GPU may use by default. */
  gpuMemoryShare?: number;
  /** What the GPU may hold: memoryBytes × gpuMemoryShare (all of it where no share is given). */
  usableMemoryBytes: number;
  /** Dense peaks; a missing key means the GPU has no peak at that precision. int8 is in ops/s. */
  peakFlopsPerSecond: PeakFlopsPerSecond;
  pricePerHourUsd?: number;
  /** Its link between GPUs, an id of links(), where the catalog has one. */
  link?: string;
  source: string;
}
/** A link between GPUs (links()): what one GPU sends each way per second, and the latency of an all-reduce. */
export interface Link { id: string; name: string; bytesPerSecond: number; latencySeconds: number; source: string }
/** A part of a CNN: MACs per example, weights, and how many times each weight is used (MACs ÷ weights). */
export interface Stage { id: string; name: string; macs: number; weights: number; usesPerWeight: number }
export interface Model {
  id: string; name: string; kind: 'llm' | 'cnn'; params: number;
  /** The weight format it is served in (an id of formats()); bitsPerWeight and weightBytes are in it. */
  format: string;
  /** Parameters that stay in BF16 under a format that keeps a BF16 share (INT4). */
  keptParams: number;
  bitsPerWeight: number; weightBytes: number;
  /** The dtype of its activations and KV cache, where it is a plain one. */
  dtype?: Dtype;
  layers?: number; kvHeads?: number; headDim?: number; macsPerExample?: number; flopsPerExample?: number;
  /** The rounded figure the lesson works with (ResNet-50: 4.1 GMACs, 8.2 GFLOPs). */
  workingMacsPerExample?: number; workingFlopsPerExample?: number;
  stages?: Stage[];
  lesson: boolean;
  /** From its architecture (a model with a config): what one token multiplies (not the input
   * lookup), the input table, and its BF16 KV cache per token. */
  activeParams?: number; embeddingParams?: number; kvBytesPerToken?: number;
  architecture?: Architecture;
  /** The publisher's counts its architecture reproduces, and whether the active one includes the input table. */
  publishedParams?: number; publishedActiveParams?: number;
  activeConvention?: 'with-input-embedding' | 'without-input-embedding';
  source: string;
}
export interface ArchitectureAttention {
  kind: 'gqa' | 'mla'; heads: number; kvHeads: number; headDim: number; vHeadDim: number;
  qLoraRank: number; kvLoraRank: number; qkNopeHeadDim: number; qkRopeHeadDim: number;
  qkvBias: boolean; oBias: boolean; qkNorm: boolean; sinks: boolean;
  /** Tokens a sliding-window layer attends to (0: none), and how many layers slide. */
  slidingWindow: number; slidingLayers: number;
}
export interface ArchitectureMoe {
  experts: number; expertsPerToken: number; expertIntermediateSize: number; sharedExperts: number;
  sharedIntermediateSize: number; routerBias: boolean; expertBias: boolean; moeLayers: number;
}
/** One kind of operator of a step (rl.step), summed over its instances (`count`: one per layer …). */
export interface StepOperator {
  /** 'embedding', 'q_proj', 'k_proj', 'v_proj', 'o_proj' (MLA: 'q_a_proj', 'q_b_proj', 'kv_a_proj', 'kv_b_proj'),
   * 'attn_scores', 'attn_softmax', 'attn_values' (':sliding' for sliding-window layers), 'gate_proj', 'up_proj',
   * 'down_proj', 'router', 'experts', 'shared_experts', 'norm', 'lm_head'; on several GPUs 'allreduce'. */
  id: string;
  group: 'attention' | 'mlp' | 'other' | 'communication';
  count: number;
  flops: number; weightBytes: number; kvReadBytes: number; kvWriteBytes: number; activationBytes: number;
  /** The sum of the four. */
  bytes: number;
  /** 'link' for the all-reduces: their floor is the link's, not a roofline's. */
  flopsPerByte: number; bound: Bound | 'link';
  /** Its floor on the device: the larger of flops ÷ peak and bytes ÷ bandwidth (the link's time for 'allreduce'). */
  seconds: number;
  /** Of the step's summed floors. */
  share: number;
}
export interface StepTotals {
  /** Tokens the step processes: batch (decode), batch × context (prefill). */
  tokens: number;
  flops: number; bytes: number; weightBytes: number; kvReadBytes: number; kvWriteBytes: number; activationBytes: number;
  /** The operators' floors added: they run one after another. */
  seconds: number;
  /** The whole step as one kernel, for comparison: max(flops ÷ peak, bytes ÷ bandwidth), plus communicationSeconds. */
  rooflineSeconds: number; rooflineBound: Bound;
  /** Of `seconds`, attention over the context's (attn_scores, attn_softmax, attn_values). */
  attentionShare: number;
  /** What one GPU sends to the others in the step's all-reduces (0 on one GPU). */
  linkBytes: number;
  /** The all-reduces' time: 0 on one GPU, null on several where no link is known (not counted). */
  communicationSeconds: number | null;
}
/** A decoder-only transformer as modelFromConfig reads it from a config.json (all counts). */
export interface Architecture {
  family: string; layers: number; hiddenSize: number; vocabSize: number; tiedEmbeddings: boolean;
  attention: ArchitectureAttention;
  intermediateSize: number; gatedMlp: boolean; mlpBias: boolean;
  moe: ArchitectureMoe | null;
  normsPerLayer: number;
  /** Resident parameters off a text token's path (Gemma 3's vision tower). */
  visionParams: number;
  maxContext: number;
  /** Multi-token-prediction modules (num_nextn_predict_layers): rl.speculative's draft 'mtp'. */
  mtpLayers: number;
}
/** modelFromConfig's result: pass it as `model` to modelWeights, kvCacheBytes and decode. */
export interface ConfigModel {
  architecture: Architecture;
  params: number; embeddingParams: number; outputParams: number; activeParams: number; visionParams: number;
  format: string;
  /** Weight bytes held (the capacity) and read by one decode step of `batch` (the bandwidth). */
  residentBytes: number; batch: number; bytesReadPerStep: number;
  /** Routed experts per MoE layer that `batch` tokens touch, E·(1 − (1 − k/E)^b); null for a dense model. */
  expertsTouched: number | null;
  kvDtype: Dtype; kvBytesPerToken: number; tokens: number; kvBytesPerSequence: number;
  /** 2 × activeParams plus attention over `tokens` earlier tokens. */
  flopsPerToken: number; attentionFlopsPerToken: number;
}
/** A published decode rate measured on a real system, with its conditions (rl.measurements). */
export interface Measurement {
  id: string; name: string;
  /** The catalog model, weight format and device of the run. */
  model: string; format: string; gpu: string;
  /** Devices the model ran on, and the sequences decoded together. */
  gpus: number; batch: number;
  /** Tokens each sequence generated in the run. */
  generatedTokens: number;
  /** Measured, all sequences together. */
  tokensPerSecond: number;
  engine: string;
  /** When it was measured or published: "YYYY-MM". */
  date: string;
  /** Where it is published, and the table, row, column and conditions there. */
  url: string; source: string;
  /** The lesson's ceiling for the same run: batch × bandwidth × gpus ÷ the weights' bytes. */
  ceilingTokensPerSecond: number;
  /** tokensPerSecond ÷ ceilingTokensPerSecond: below 1. */
  fractionOfCeiling: number;
}

export interface WeightFormat {
  id: string; name: string;
  /** Bits of each stored weight, without scales. */
  bits: number;
  /** The weights are converted back to 16 bits before the arithmetic. */
  weightOnly: boolean;
  /** Storage of the quantized part; null for a bit budget (3.5 bits per weight). */
  dtype: Dtype | null;
  /** One scale per this many weights; null: no scales (and scaleDtype is null too). */
  groupSize: number | null;
  scaleDtype: Dtype | null;
  /** The model's keptParams stay in BF16. */
  keepsBf16Share: boolean;
  /** Whose peak the matmuls run at. */
  computeDtype: Dtype;
  source: string;
}
export interface LessonCase { id: string; name: string; values: CaseValues; source: string }
/** Arguments of one function, named as that function takes them (decode: weightBytes, batch, ...). */
export interface CaseArgs { [argument: string]: number | string }

// ---- exercises and check questions ---------------------------------------------------------

/** A known mistake a wrong answer matches: MACs given for FLOPs (or the reverse), GB against
 * GiB, another precision's peak, intensity ≈ batch, INT4 weights without the kept BF16 share;
 * speculative decoding's tokens capped at γ or without the bonus token, one draft step for γ, the
 * draft taken as free; tensor parallelism's one all-reduce per layer, an all-reduce without its
 * latency or without its bytes, the weights not split over the GPUs, a step without its
 * communication. */
export type MistakeId =
  | 'macs_for_flops' | 'flops_for_macs' | 'gib_for_gb' | 'other_precision' | 'intensity_is_batch' | 'no_kept_share'
  | 'capped_gamma' | 'no_bonus_token' | 'one_draft_step' | 'draft_free'
  | 'one_per_layer' | 'bandwidth_only' | 'latency_only' | 'not_split' | 'no_communication';
export type PartKind =
  | 'count' | 'macs' | 'flops' | 'seconds' | 'bytes' | 'flopsPerByte' | 'flopsPerSecond' | 'opsPerSecond'
  | 'tokensPerSecond' | 'itemsPerSecond' | 'fraction' | 'tokens' | 'ratio' | 'choice' | 'matrix';
export interface Mistake { id: MistakeId; value: number }
export interface ExercisePart {
  id: string; kind: PartKind;
  /** Numbers in base units; null for choices and matrices. */
  expected: number | null; expectedChoice: string | null; expectedMatrix: number[][] | null; choices: string[];
  /** An answer is right within relativeTolerance × |expected|, or absoluteTolerance, whichever is larger. */
  relativeTolerance: number; absoluteTolerance: number; mistakes: Mistake[];
}
export interface Exercise {
  id: number; level: 'easy' | 'medium' | 'challenge' | 'check';
  /** 0: the lesson's own numbers; any other whole number draws new ones, the same every time. */
  seed: number;
  /** What the statement names: numbers in base units and catalog ids. */
  inputs: CaseValues;
  parts: ExercisePart[];
  /** The step-by-step solution's numbers, by name. */
  solution: CaseValues;
}
/** Part id → a number in base units, a choice id or a matrix (rows); null or absent: unanswered. */
export interface Answers { [part: string]: number | string | number[][] | null }
export interface PartCheck { id: string; answered: boolean; correct: boolean; mistake: MistakeId | null }

// ---- results ------------------------------------------------------------------------------

export interface CompareGpusResult { peakRatio: number; bandwidthRatio: number; memoryRatio: number }
export interface DeviceResult {
  peakFlopsPerSecond: number; bytesPerSecond: number; memoryBytes: number; ridgeFlopsPerByte: number;
}
export interface ModelWeightsResult {
  bytes: number; params: number; keptParams: number; bitsPerWeight: number; format: string;
  /** Weight bytes one decode step of `batch` reads (the lesson's rule, all of them, for its own
   * figures). */
  bytesReadPerStep: number;
  /** Counted from the architecture, where the model has one. */
  residentBytes?: number; bytesReadPerStepCounted?: number;
}
export interface CostPerMillionTokensResult { usdPerMillionTokens: number; usdPerHour: number; tokensPerHour: number }
export interface StepResult { operators: StepOperator[]; totals: StepTotals }
export interface CheckResult {
  state: 'correct' | 'partial' | 'incorrect' | 'unanswered'; correct: number; parts: PartCheck[];
}
export interface MultiplyResult {
  c: number[][]; rows: number; cols: number; inner: number; macs: number; flops: number;
}
export interface MatmulResult {
  rows: number; cols: number; outputElements: number; macs: number; flops: number; bytes: number;
  flopsPerByte: number;
}
export interface TimeAtPeakResult { seconds: number; perSecond: number }
export interface RooflineResult {
  ridgeFlopsPerByte: number; memoryFlopsPerSecond: number; attainableFlopsPerSecond: number;
  fractionOfPeak: number; intensityOverRidge: number; bound: Bound;
}
export interface ClocksResult {
  computeSeconds: number; memorySeconds: number; seconds: number; flopsPerByte: number;
  ridgeFlopsPerByte: number; bound: Bound;
}
export interface UtilizationResult { fraction: number; possible: boolean }
export interface ThroughputResult {
  achievedFlopsPerSecond: number; peakFlopsPerSecond: number; fraction: number; possible: boolean;
  secondsPerItemAtPeak: number; ceilingItemsPerSecond: number;
}
export interface TotalWorkResult { flops: number; seconds: number }
export interface RentalCostResult { usd: number }
export interface DailyLoadResult { arrivalsPerSecond: number; arrivalsPerSecondPerGpu: number; load: number }
export interface GpusNeededResult { exactGpus: number; gpus: number }
export interface PerSecondResult { perSecond: number }
export interface FramePixelsResult { pixels: number; pixelsPerSecond: number }
export interface DenseLayerResult {
  macs: number; flops: number; bytes: number; weightBytes: number; flopsPerByte: number;
  weightsOnlyFlopsPerByte: number; limitFlopsPerByte: number;
}
export interface StageIntensityResult {
  macs: number; flops: number; weightBytes: number; usesPerWeight: number; weightsOnlyFlopsPerByte: number;
  /** Where the catalog knows the stage's maps: their bytes over the batch, and the intensity
   * counting them. */
  activationBytes?: number; flopsPerByte?: number;
}
export interface MinBatchForRidgeResult { batch: number }
export interface DecodeResult {
  /** What one GPU reads per step: (bytesReadPerStep + batch × kvBytesPerSequence) ÷ gpus. */
  bytesPerStep: number;
  /** bytesPerStep ÷ bytesPerSecond: the memory floor of a step. */
  memorySeconds: number;
  /** batch × flopsPerToken ÷ (gpus × peakFlopsPerSecond): the compute floor; null without a peak. */
  computeSeconds: number | null;
  /** Under tensor parallelism (gpus > 1): 2 × layers all-reduces of batch × hidden activations on
   * the link, each its latency + 2(gpus − 1)/gpus × their bytes ÷ its bandwidth; 0 on one GPU; null
   * with no link given. */
  communicationSeconds: number | null;
  /** The larger floor, plus communicationSeconds (the all-reduces sit between the layers). */
  stepSeconds: number;
  /** Which of the memory and compute floors is the larger ('compute' on a tie). */
  bound: Bound;
  /** 1 ÷ stepSeconds. */
  tokensPerSecondPerSequence: number;
  /** batch ÷ stepSeconds. */
  tokensPerSecond: number;
  /** Weights + batch × KV fit in gpus × memoryBytesPerGpu; null without memoryBytesPerGpu. */
  fits: boolean | null;
  /** The largest batch that fits (0 when the weights alone do not); null without memoryBytesPerGpu
   * or with kvBytesPerSequence 0. */
  maxBatch: number | null;
  /** What one GPU holds: (weightBytes + batch × kvBytesPerSequence) ÷ gpus. */
  residentBytesPerGpu: number;
  /** The inputs as used (from the model where one is given). */
  weightBytes: number; bytesReadPerStep: number; kvBytesPerSequence: number;
}
export interface KvCacheBytesResult { bytes: number; bytesPerToken: number }
export interface FlopsResult { flops: number }
export interface SpeculativeResult {
  /** (1 − α^(γ+1)) ÷ (1 − α): tokens a verification yields per sequence, the target's own bonus
   * token included; γ + 1 at α = 1. */
  expectedTokens: number;
  /** γ draft steps: γ × the larger of the draft's two floors. */
  draftSeconds: number;
  /** One read of the target's weights (and KV) for γ + 1 positions of every sequence. */
  verifySeconds: number; verifyBound: Bound;
  /** draftSeconds + verifySeconds. */
  cycleSeconds: number;
  /** expectedTokens ÷ cycleSeconds, per sequence and for the batch. */
  tokensPerSecondPerSequence: number; tokensPerSecond: number;
  /** One plain decode step of the target at this batch, and its rate. */
  plainStepSeconds: number; plainTokensPerSecondPerSequence: number;
  /** tokensPerSecond ÷ plain decode's. */
  speedup: number;
  /** The α at which speedup is 1 for this γ and these costs; null where even α = 1 does not pay. */
  breakEvenAcceptance: number | null;
  /** The costs as used (from the models where given). */
  weightBytes: number; flopsPerToken: number; kvBytesPerSequence: number;
  /** What a verification reads of the target's weights: more than weightBytes where an MoE's γ + 1
   * tokens per sequence touch more experts. */
  verifyWeightBytes: number; draftWeightBytes: number; draftFlopsPerToken: number;
  draftKvBytesPerSequence: number;
}
export interface PrefillResult {
  computeSeconds: number; memorySeconds: number;
  /** The larger of the two, plus communicationSeconds. */
  seconds: number; flopsPerByte: number; ridgeFlopsPerByte: number; bound: Bound;
  /** 2 × params × tokens, plus attentionFlops. */
  flops: number;
  /** With a model: causal attention, each token attending to itself and every earlier one (a
   * sliding layer to its window), 2·heads·(qk dim + v dim) FLOPs a pair and layer; 0 without. */
  attentionFlops: number;
  /** Under tensor parallelism (gpus > 1) with a link, layers and hiddenSize: 2 × layers all-reduces
   * of tokens × hiddenSize BF16 activations; 0 on one GPU; null otherwise. */
  communicationSeconds: number | null;
}
export interface PrefixCacheResult {
  /** ⌊promptTokens × cachedShare⌋, at most all but one (one token always gives the first output). */
  cachedTokens: number; uncachedTokens: number;
  /** The uncached tokens' prefill (the larger of its two clocks), and the host load: their larger
   * (overlap) or their sum. */
  timeToFirstTokenSeconds: number;
  /** The uncached tokens' clocks. */
  computeSeconds: number; memorySeconds: number; bound: Bound;
  /** The whole prompt's prefill, without the cache. */
  uncachedTimeToFirstTokenSeconds: number;
  /** The cached KV's load from host memory, one GPU's share over its link (0 without a host). */
  loadSeconds: number;
  /** With a model: the uncached tokens' causal attention, to the cached prefix and among
   * themselves. */
  attentionFlops: number;
}
export interface TileResult { flopsPerByte: number }
export interface ResolutionScaleResult { fromPixels: number; toPixels: number; flopsFraction: number }
export interface ConvResult {
  /** The input tensor: channels × height × width (3 × 224 × 224 = 150,528). */
  inputElements: number; outputHeight: number; outputWidth: number; rows: number; inner: number; cols: number;
  windowElements: number; weights: number; macs: number; flops: number;
}
export interface ElementwiseResult { flops: number; bytes: number; flopsPerByte: number }
export interface FusionResult {
  unfusedBytes: number; fusedBytes: number; savedBytes: number; unfusedTransfers: number;
  fusedTransfers: number;
}
export interface QuantizedWeightsResult {
  bytes: number; quantizedBytes: number; scaleBytes: number; keptBytes: number; bitsPerWeight: number;
}
export interface PrecisionLadderResult {
  /** 'bf16', 'int8' or 'int4'. */
  dtype: Dtype;
  /** What the rung holds, as quantizedWeights counts it. */
  bytes: number; quantizedBytes: number; scaleBytes: number; keptBytes: number; bitsPerWeight: number;
  /** What one decode step reads of them. */
  bytesReadPerStep: number;
  /** bytesPerSecond ÷ bytesReadPerStep: the memory ceiling of one conversation. */
  tokensPerSecond: number;
}
export interface PrecisionSpeedupResult { memoryBoundSpeedup: number; computeBoundSpeedup: number }
export interface DenseFromSparsityResult { flopsPerSecond: number }

// ---- the API --------------------------------------------------------------------------------

/** Every function takes one object of named arguments; a name it does not take throws
 * RooflineError 'unknown_argument' naming it. */
export interface Roofline {
  RooflineError: typeof RooflineError;
  /** The API table: every function, in the core's order. */
  functions(): FunctionInfo[];
  errorCodes(): ErrorCode[];
  dtypes(): DtypeInfo[];
  gpus(): Gpu[];
  gpu(args: { id: string }): Gpu;
  /** How many times `to` has `from`'s peak (in dtype), bandwidth and memory. */
  compareGpus(args: { from: string; to: string; dtype: Dtype }): CompareGpusResult;
  /** The links between GPUs that tensor parallelism's all-reduces cross, slowest first. */
  links(): Link[];
  /** One GPU at one precision: the two roofs, the capacity and the ridge between the roofs. */
  device(args: { gpu: string; dtype: Dtype }): DeviceResult;
  models(): Model[];
  model(args: { id: string }): Model;
  formats(): WeightFormat[];
  measurements(): Measurement[];
  modelWeights(args: { model: ModelRef; format?: string; batch?: number }): ModelWeightsResult;
  modelFromConfig(args: { config: string | object; format?: string; kvDtype?: Dtype; batch?: number; tokens?: number }): ConfigModel;
  costPerMillionTokens(args: { pricePerHourUsd: number; tokensPerSecond: number; gpus?: number }): CostPerMillionTokensResult;
  /** One prefill or decode step operator by operator (docs/api.md, step): each operator's FLOPs,
   * bytes and floor on the GPU at dtype; totals add the operators' floors (they run one after
   * another) beside the whole step as one kernel. On gpus > 1 each GPU's share, and the all-reduces
   * on the link (the GPU's own where no link is given). */
  step(args: { model: ModelRef; format?: string; kvDtype?: Dtype; gpu: string; dtype?: Dtype; phase: 'decode' | 'prefill'; batch: number; context: number; flashAttention?: boolean; gpus?: number; link?: string; linkBytesPerSecond?: number; linkLatencySeconds?: number }): StepResult;
  cases(): LessonCase[];
  lessonCase(args: { id: string }): LessonCase;
  caseArgs(args: { id: string; function: FunctionName; values?: CaseValues }): CaseArgs;
  exercise(args: { id: number; seed?: number }): Exercise;
  checkExercise(args: { id: number; seed?: number; answers: Answers }): CheckResult;
  question(args: { id: number }): Exercise;
  checkQuestion(args: { id: number; answers: Answers }): CheckResult;
  multiply(args: { a: number[][]; b: number[][] }): MultiplyResult;
  matmul(args: { n: number; k: number; m: number; dtype: Dtype }): MatmulResult;
  timeAtPeak(args: { flops: number; peakFlopsPerSecond: number }): TimeAtPeakResult;
  roofline(args: { peakFlopsPerSecond: number; bytesPerSecond: number; flopsPerByte: number }): RooflineResult;
  clocks(args: { flops: number; bytes: number; peakFlopsPerSecond: number; bytesPerSecond: number }): ClocksResult;
  utilization(args: { achievedFlopsPerSecond: number; peakFlopsPerSecond: number }): UtilizationResult;
  throughput(args: { flopsPerItem: number; itemsPerSecond: number; peakFlopsPerSecond: number; gpus?: number }): ThroughputResult;
  totalWork(args: { flopsPerItem: number; items: number; itemsPerSecond?: number }): TotalWorkResult;
  rentalCost(args: { pricePerHourUsd: number; gpus: number; hours: number }): RentalCostResult;
  /** A day's items spread over GPUs against each GPU's measured rate (C01: ≈ 5 % load). */
  dailyLoad(args: { items: number; gpus: number; itemsPerSecond: number }): DailyLoadResult;
  /** GPUs for a demanded rate at a rate per GPU: the next whole GPU. */
  gpusNeeded(args: { demandItemsPerSecond: number; itemsPerSecond: number }): GpusNeededResult;
  /** One item every `seconds`, as a rate (a 50 ms TPOT is 20 tokens/s). */
  perSecond(args: { seconds: number }): PerSecondResult;
  /** A screen's pixels, and per second at a frame rate. */
  framePixels(args: { width: number; height: number; framesPerSecond: number }): FramePixelsResult;
  denseLayer(args: { batch: number; inputs: number; outputs: number; dtype: Dtype }): DenseLayerResult;
  /** A CNN stage over a batch, counting only its weights (ResNet-50's stage 4: ≈ 216 FLOPs/B at
   * batch 4). */
  stageIntensity(args: { model: string; stage: string; batch: number }): StageIntensityResult;
  minBatchForRidge(args: { inputs: number; outputs: number; dtype: Dtype; ridgeFlopsPerByte: number }): MinBatchForRidgeResult;
  /** flopsPerToken and peakFlopsPerSecond go together (one alone: 'missing_field' naming the
   * other). */
  decode(args: { weightBytes?: number; kvBytesPerSequence?: number; batch: number; bytesPerSecond: number; gpus?: number; flopsPerToken?: number; peakFlopsPerSecond?: number; memoryBytesPerGpu?: number; bytesReadPerStep?: number; model?: ModelRef; format?: string; kvDtype?: Dtype; tokens?: number; link?: string; linkBytesPerSecond?: number; linkLatencySeconds?: number }): DecodeResult;
  kvCacheBytes(args: { layers?: number; kvHeads?: number; headDim?: number; tokens: number; dtype: Dtype; model?: ModelRef }): KvCacheBytesResult;
  flopsPerToken(args: { params: number }): FlopsResult;
  /** Speculative decoding on one GPU: a draft model proposes gamma tokens, one decode step each,
   * and the target verifies them in one read of its weights (gamma + 1 positions per sequence). The
   * target as decode takes it (model, or weightBytes and flopsPerToken); the draft a model, or
   * draftWeightBytes and draftFlopsPerToken. */
  speculative(args: { model?: ModelRef; format?: string; weightBytes?: number; flopsPerToken?: number; kvBytesPerSequence?: number; tokens?: number; kvDtype?: Dtype; batch?: number; bytesPerSecond: number; peakFlopsPerSecond: number; draft?: ModelRef | 'mtp'; draftFormat?: string; draftWeightBytes?: number; draftFlopsPerToken?: number; draftKvBytesPerSequence?: number; gamma: number; acceptance: number }): SpeculativeResult;
  prefill(args: { params: number; tokens: number; weightBytes: number; peakFlopsPerSecond: number; bytesPerSecond: number; gpus?: number; model?: ModelRef; layers?: number; hiddenSize?: number; link?: string; linkBytesPerSecond?: number; linkLatencySeconds?: number }): PrefillResult;
  /** Prefix caching: the prompt's first cachedShare of tokens already cached, the rest prefilled. */
  prefixCache(args: { params: number; promptTokens: number; cachedShare: number; weightBytes: number; peakFlopsPerSecond: number; bytesPerSecond: number; gpus?: number; kvBytesPerToken?: number; hostBytesPerSecond?: number; overlap?: boolean; model?: ModelRef }): PrefixCacheResult;
  tile(args: { rows: number; cols: number; dtype: Dtype }): TileResult;
  /** A square image resized: a CNN's FLOPs scale with its area (M08: (160 ÷ 224)² ≈ 51 %). */
  resolutionScale(args: { fromSide: number; toSide: number }): ResolutionScaleResult;
  convAsMatmul(args: { inputHeight: number; inputWidth: number; inChannels: number; kernelHeight: number; kernelWidth: number; filters: number; stride?: number; padding?: number }): ConvResult;
  elementwise(args: { elements: number; dtype: Dtype; flopsPerElement?: number }): ElementwiseResult;
  fusion(args: { elements: number; dtype: Dtype }): FusionResult;
  quantizedWeights(args: { params: number; dtype: Dtype; groupSize?: number; scaleDtype?: Dtype; keptParams?: number; keptDtype?: Dtype }): QuantizedWeightsResult;
  /** The lesson's three precisions side by side at batch 1, KV cache left out: BF16, INT8 (no
   * scales) and INT4 with one scale of scaleDtype per groupSize weights and keptParams kept in
   * BF16. With model (the chosen model, when the fields are its own), a rung's step reads what a
   * step of that model reads in that format (an MoE's active experts, the looked-up rows of the
   * input table), never more than the rung holds. */
  precisionLadder(args: { params: number; bytesPerSecond: number; groupSize?: number; scaleDtype?: Dtype; keptParams?: number; model?: ModelRef }): PrecisionLadderResult[];
  precisionSpeedup(args: { bytesBefore: number; bytesAfter: number; peakBeforeFlopsPerSecond: number; peakAfterFlopsPerSecond: number }): PrecisionSpeedupResult;
  denseFromSparsity(args: { flopsPerSecond: number }): DenseFromSparsityResult;
  trainingFlops(args: { params: number; tokens: number }): FlopsResult;
  cnnTrainingFlops(args: { forwardFlops: number; examples: number; epochs?: number }): FlopsResult;
}

/** Loads the module (nothing is fetched: the wasm is inlined) and resolves to the API. */
export declare function createRoofline(options?: object): Promise<Roofline>;
export default createRoofline;
