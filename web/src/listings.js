// The lesson's two Python programs, as programs of this page's own beside what they print. The
// figures in a program's text are the catalog's (the module's GPUs, model and lesson cases,
// written into the code as a reader would type them), and its printed output is computed by the
// module, never typed: the roofline program prints what rl.clocks / rl.prefill give for the
// lesson's five operations, the matmul program what rl.multiply and rl.matmul give.
import { h } from './dom.js';
import { t, catalogName } from './i18n.js';
import { caseArgs, caseValues } from './catalog.js';
import { LISTING, listingRow } from './tables.js';

/** A number as Python source would write it: small integers as they are, others in e notation. */
function py(x) {
  if (Number.isInteger(x) && Math.abs(x) < 1e5) return String(x);
  // an exponent that is a multiple of 3, as one types tera and giga
  const e = Math.floor(Math.log10(Math.abs(x)) / 3) * 3;
  return `${Number((x / 10 ** e).toPrecision(12))}e${e}`;
}

/** Pads like Python's f-string field widths: left for text, right for numbers. */
const left = (s, n) => String(s).padEnd(n);
const right = (s, n) => String(s).padStart(n);

function listing(id, code, output, lang) {
  return h('figure', { class: 'listing', id: `listing-${id}`, 'data-listing': id },
    h('figcaption', {}, t(`listing.${id}.caption`, lang)),
    h('div', { class: 'listing-pair' },
      h('div', {}, h('p', { class: 'listing-label' }, t('listing.code', lang)), h('pre', { tabindex: 0, 'aria-label': t('listing.code', lang) }, h('code', { lang: 'en', translate: 'no' }, code))),
      h('div', {}, h('p', { class: 'listing-label' }, t('listing.output', lang)), h('pre', { class: 'output', tabindex: 0, 'aria-label': t('listing.output', lang), 'data-output': id }, output))));
}

/** The roofline program: each operation's intensity, its two clocks in ms, and which one wins. */
export function rooflineListing(rl, lang) {
  const rows = LISTING.map((row) => ({ row, c: listingRow(rl, row), v: caseValues(rl, row.case), name: catalogName('case', row.case, lang) }));
  const width = Math.max(...rows.map((r) => r.name.length)) + 2;
  const gpuIds = [...new Set(rows.map((r) => r.v.gpu))];
  const gpuLines = gpuIds.map((id) => {
    const d = rl.device({ gpu: id, dtype: 'fp16' });
    return `${id.toUpperCase()} = (${py(d.peakFlopsPerSecond)}, ${py(d.bytesPerSecond)})`;
  });
  const llama = caseArgs(rl, LISTING.find((r) => r.kind === 'token').case, 'decode');
  const prompt = caseArgs(rl, LISTING.find((r) => r.kind === 'prefill').case, 'prefill');
  const call = ({ row, v }) => {
    const gpu = v.gpu.toUpperCase();
    if (row.kind === 'token') return `clocks(2 * PARAMS, WEIGHTS, *${gpu})`;
    if (row.kind === 'prefill') return `clocks(2 * PARAMS * ${py(prompt.tokens)}, WEIGHTS, *${gpu})`;
    const m = caseArgs(rl, row.case, 'matmul');
    return `clocks(*product(${m.n}, ${m.k}, ${m.m}), *${gpu})`;
  };
  const code = [
    `def clocks(flops, moved, peak, bandwidth):`,
    `    """${t('listing.roofline.doc', lang)}"""`,
    `    compute_ms = flops / peak * 1e3`,
    `    memory_ms = moved / bandwidth * 1e3`,
    `    wins = "compute" if compute_ms >= memory_ms else "memory"`,
    `    return flops / moved, compute_ms, memory_ms, wins`,
    ``,
    `def product(n, k, m, size=2):        # ${t('listing.roofline.fp16', lang)}`,
    `    return 2 * n * k * m, size * (n * k + k * m + n * m)`,
    ``,
    ...gpuLines.map((l) => `${l}   # FLOPS, bytes/s`),
    `PARAMS = ${py(llama.flopsPerToken / 2)}; WEIGHTS = ${py(llama.weightBytes)}   # ${t('listing.roofline.llama', lang)}`,
    ``,
    `for name, (per_byte, c_ms, m_ms, wins) in [`,
    ...rows.map((r) => `    ("${r.name}", ${call(r)}),`),
    `]:`,
    `    print(f"{name:${width}}{per_byte:9.1f}{c_ms:11.4f}{m_ms:11.4f}  {wins}")`,
  ].join('\n');
  const output = rows.map(({ name, c }) => left(name, width)
    + right(c.flopsPerByte.toFixed(1), 9) + right((c.computeSeconds * 1e3).toFixed(4), 11)
    + right((c.memorySeconds * 1e3).toFixed(4), 11) + `  ${c.bound}`).join('\n');
  return listing('roofline', code, output, lang);
}

/** The three-loop matmul counting its MACs: the purchases, then three shapes where MACs = n·m·k. */
export function matmulListing(rl, lang, a, b, shapes) {
  const r = rl.multiply({ a, b });
  const rowsText = (m) => `[${m.map((row) => `[${row.join(', ')}]`).join(',\n' + ' '.repeat(12))}]`;
  const code = [
    `def matmul(A, B):`,
    `    n, k, m = len(A), len(B), len(B[0])`,
    `    assert len(A[0]) == k, "${t('listing.matmul.inner', lang)}"`,
    `    C = [[0] * m for _ in range(n)]`,
    `    macs = 0`,
    `    for i in range(n):          # ${t('listing.matmul.rows', lang)}`,
    `        for j in range(m):      # ${t('listing.matmul.cols', lang)}`,
    `            for t in range(k):  # ${t('listing.matmul.dot', lang)}`,
    `                C[i][j] += A[i][t] * B[t][j]`,
    `                macs += 1`,
    `    return C, macs`,
    ``,
    `A = ${rowsText(a)}`,
    `B = ${rowsText(b)}`,
    `C, macs = matmul(A, B)`,
    `print("C =", C)`,
    `print("MACs =", macs, "  FLOPs =", 2 * macs)`,
    ``,
    `for n, k, m in [${shapes.map((s) => `(${s.join(', ')})`).join(', ')}]:`,
    `    ones = lambda rows, cols: [[1] * cols for _ in range(rows)]`,
    `    _, macs = matmul(ones(n, k), ones(k, m))`,
    `    print(f"({n} x {k}) . ({k} x {m}): MACs = {macs:5}  n*m*k = {n * m * k}")`,
  ].join('\n');
  const lines = [`C = [${r.c.map((row) => `[${row.join(', ')}]`).join(', ')}]`, `MACs = ${r.macs}   FLOPs = ${r.flops}`];
  for (const [n, k, m] of shapes) {
    const mm = rl.matmul({ n, k, m, dtype: 'fp16' });
    lines.push(`(${n} x ${k}) . (${k} x ${m}): MACs = ${right(mm.macs, 5)}  n*m*k = ${mm.macs}`);
  }
  return listing('matmul', code, lines.join('\n'), lang);
}
