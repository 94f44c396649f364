// The TypeScript declarations of <roofline-calculator> (its attributes and its event), written
// by web/build.mjs beside the element as roofline-calculator.d.ts; the npm package ships them as
// roofline-lab/calculator's types (wasm/npm.mjs).
import { KIND_NAMES } from './src/kinds.js';
import { LANGS } from './src/lang.js';

/** The element's TypeScript declarations, with the kinds of the registry and the languages of lang.js. */
export function calculatorTypes() {
  if (!KIND_NAMES.length || KIND_NAMES.some((k) => !/^[a-z][a-z0-9-]*$/.test(k))) throw new Error(`calculator-types.mjs: cannot read the kinds in web/src/kinds.js: ${KIND_NAMES}`);
  const union = [...KIND_NAMES, 'exercise', 'question'].map((k) => `'${k}'`).join(' | ');
  return `// Types of <roofline-calculator> (docs/embedding.md). Importing 'roofline-lab/calculator'
// defines the element; its attributes and its event are typed here.
export type CalculatorKind = ${union};
export type CalculatorLang = ${LANGS.map((l) => `'${l}'`).join(' | ')};

/** The element's attributes; a boolean one is set when present. */
export interface RooflineCalculatorAttributes {
  kind: CalculatorKind;
  /** 1 … 12, with kind="exercise". */
  exercise?: number;
  /** 1 … 7, with kind="question". */
  question?: number;
  lang?: CalculatorLang;
  eager?: boolean;
  'url-state'?: boolean;
  'link-terms'?: boolean;
  /** Colours: 'auto' (the default) follows the host page's declared color-scheme, then the
   *  reader's setting; 'light' and 'dark' pin them. */
  theme?: 'light' | 'dark' | 'auto';
  /** Presets (docs/embedding.md, "Presets"): the choice of the select of that id, where the kind
   *  has one: a catalog id (rl.models(), rl.gpus(), rl.formats(), rl.dtypes()). */
  model?: string;
  gpu?: string;
  format?: string;
  dtype?: string;
  /** Fields as name=value pairs separated by spaces, named as in the URL: 'batch=32 tokens=8192'. */
  values?: string;
}

/** detail of the bubbling, composed 'roofline-change' event sent after every recomputation. */
export interface RooflineChangeDetail {
  kind: CalculatorKind;
  /** The inputs in base units (bytes, FLOP/s, bytes/s), or ids (gpu, dtype ...). */
  values: { [input: string]: number | string };
  /** The selects' choices: catalog ids (model, gpu, format, precision ...), or 'custom'. */
  selects: { [select: string]: string };
  /** false while any field is invalid. */
  ok: boolean;
}

export declare class RooflineCalculatorElement extends HTMLElement {}

/** Sets an element's attributes from a typed object (a boolean attribute: present when true). */
export declare function setCalculatorAttributes(el: RooflineCalculatorElement, attrs: RooflineCalculatorAttributes): void;

declare global {
  interface HTMLElementTagNameMap { 'roofline-calculator': RooflineCalculatorElement }
  interface HTMLElementEventMap { 'roofline-change': CustomEvent<RooflineChangeDetail> }
}
`;
}
