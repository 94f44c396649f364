// Every kind of <roofline-calculator>, once. The element, the page, the build (which bundles each
// kind's module and prerenders the snippets), the prerenderer and the tests read this list.
//   kind:    the element's kind attribute; its module is web/src/kind-<kind>.js and exports
//            `<kind>Kind` (the build bundles it from this list: no other list to edit);
//   first:   in the served page's first script (the others come with its later parts, more.js);
//   section: the id of its own section on the lesson's page (page.js places the sections in this
//            order, the lesson's other sections around them); none: not on the page by itself;
//   snippet: the build prerenders it alone, in every language (site/snippets/<kind>.<lang>.html);
//   changes: what the page-cost check and benchmark change (tests/perf/page.mjs): a field (or a
//            cell of byhand's matrices) and the two valid values they alternate between.
// A kind is four files: its module, its line here, its texts (web/i18n/ui-<kind>.json) and its
// tests (tests/web/kinds/<kind>.test.mjs); tests/web/kinds.test.mjs fails if one is missing
// (docs/translating.md, "A new calculator").
export const KINDS = [
  { kind: 'matmul', first: true, section: 'matmul', snippet: true, changes: { field: 'n', values: ['1000', '2000'] } }, // not a catalog figure: values the page-cost check types
  { kind: 'byhand', section: 'byhand', changes: { cell: 'a', values: ['7', '2'] } }, // not a catalog figure: values the page-cost check types
  { kind: 'utilization', section: 'flops', snippet: true, changes: { field: 'rate', values: ['1200', '3000'] } }, // not a catalog figure: values the page-cost check types
  { kind: 'roofline', section: 'roofline', snippet: true, changes: { field: 'intensity', values: ['10', '100'] } }, // not a catalog figure: values the page-cost check types
  { kind: 'decode', section: 'decode', snippet: true, changes: { field: 'batch', values: ['1', '64'] } }, // not a catalog figure: values the page-cost check types
  { kind: 'step', section: 'step', snippet: true, changes: { field: 'context', values: ['1024', '8192'] } }, // not a catalog figure: values the page-cost check types
  { kind: 'batching', section: 'batching', snippet: true, changes: { field: 'batch', values: ['1', '64'] } }, // not a catalog figure: values the page-cost check types
  { kind: 'speculative', section: 'speculative', snippet: true, changes: { field: 'gamma', values: ['2', '4'] } }, // not a catalog figure: values the page-cost check types
  { kind: 'clocks', section: 'clocks', snippet: true, changes: { field: 'tokens', values: ['1000', '2000'] } }, // not a catalog figure: values the page-cost check types
  { kind: 'tile', section: 'tile', snippet: true, changes: { field: 'tile', values: ['16', '64'] } }, // not a catalog figure: values the page-cost check types
  { kind: 'quant', section: 'quant', snippet: true, changes: { field: 'params', values: ['8.03', '70'] } }, // not a catalog figure: values the page-cost check types
  // the device panel, in the roofline section
  { kind: 'device' },
];

/** Every kind's name, in the registry's order. */
export const KIND_NAMES = KINDS.map((k) => k.kind);

/** The kinds the build prerenders alone (snippets). */
export const SNIPPET_KINDS = KINDS.filter((k) => k.snippet).map((k) => k.kind);

/** The kinds with a section of their own on the lesson's page. */
export const PAGE_KINDS = KINDS.filter((k) => k.section).map((k) => k.kind);

/** What the page-cost check changes in each kind with a section: { kind: { field | cell, values } }. */
export const KIND_CHANGES = Object.fromEntries(KINDS.filter((k) => k.section).map((k) => [k.kind, k.changes]));

/** The name of the object a kind's module exports. */
export const kindExport = (kind) => `${kind}Kind`;
