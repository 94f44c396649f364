// Every kind of <roofline-calculator>, once. The element, the page, the build (which bundles each
// kind's module and prerenders the snippets), the prerenderer and the tests read this list.
//   kind:    the element's kind attribute; its module is web/src/kind-<kind>.js and exports
//            `<kind>Kind` (the build bundles it from this list: no other list to edit);
//   first:   in the served page's first script (the others come with its later parts, more.js);
//   page:    on the lesson's page, in its own section (page.js places the sections);
//   snippet: the build prerenders it alone, in every language (site/snippets/<kind>.<lang>.html).
// Adding a kind: its module, its line here, its texts (web/i18n/ui-<kind>.json) and its tests
// (docs/translating.md, "A new calculator").
export const KINDS = [
  { kind: 'matmul', first: true, page: true, snippet: true },
  { kind: 'byhand', page: true },
  { kind: 'utilization', page: true, snippet: true },
  { kind: 'roofline', page: true, snippet: true },
  { kind: 'decode', page: true, snippet: true },
  { kind: 'step', page: true, snippet: true },
  { kind: 'batching', page: true, snippet: true },
  { kind: 'clocks', page: true, snippet: true },
  { kind: 'tile', page: true, snippet: true },
  { kind: 'quant', page: true, snippet: true },
  // the device panel, in the roofline section
  { kind: 'device' },
];

/** Every kind's name, in the registry's order. */
export const KIND_NAMES = KINDS.map((k) => k.kind);

/** The kinds the build prerenders alone (snippets). */
export const SNIPPET_KINDS = KINDS.filter((k) => k.snippet).map((k) => k.kind);

/** The kinds with a section of their own on the lesson's page. */
export const PAGE_KINDS = KINDS.filter((k) => k.page).map((k) => k.kind);

/** The name of the object a kind's module exports. */
export const kindExport = (kind) => `${kind}Kind`;
