// esbuild, which bundles and minifies the page's scripts (web/build.mjs) and minifies the module's
// classic scripts (wasm/package.mjs): Debian's package `esbuild`, installed by .ci/setup for both
// README commands (the npm one under tests/node_modules serves as well; ESBUILD=path to choose).
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';

const HERE = dirname(fileURLToPath(import.meta.url));

/** The browsers the page claims (docs/building.md#browsers), as esbuild's target. */
export const ESBUILD_TARGET = 'chrome95,firefox100,safari15';

function esbuildPath() {
  const candidates = [process.env.ESBUILD, '/usr/bin/esbuild', join(HERE, '..', 'tests', 'node_modules', '.bin', 'esbuild')];
  for (const c of candidates) if (c && existsSync(c)) return c;
  const found = spawnSync('sh', ['-c', 'command -v esbuild'], { encoding: 'utf8' });
  if (found.status === 0 && found.stdout.trim()) return found.stdout.trim();
  throw new Error('esbuild not found: install Debian\'s package esbuild (bash .ci/setup does), or set ESBUILD');
}

/** esbuild run with `args` (in `cwd`, `input` on its stdin); its output. A warning fails too. */
export function esbuild(args, { cwd, input } = {}) {
  const r = spawnSync(esbuildPath(), [...args, '--log-level=warning', '--charset=utf8'], { cwd, input, encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.status !== 0) throw new Error(`esbuild failed (${r.status}): ${r.stderr || r.error}`);
  if (r.stderr.trim()) throw new Error(`esbuild warned: ${r.stderr}`);
  return r.stdout;
}

/** Whether to minify: ROOFLINE_MINIFY=0 keeps the files readable, for debugging. */
export const MINIFY = process.env.ROOFLINE_MINIFY !== '0';

/** A classic script minified for the page's browsers, its first line (a banner comment) kept. */
export function minifyScript(code) {
  if (!MINIFY) return code;
  const nl = code.indexOf('\n');
  const banner = code.startsWith('/*') && nl > 0 ? code.slice(0, nl + 1) : '';
  return banner + esbuild(['--minify', '--loader=js', `--target=${ESBUILD_TARGET}`], { input: code.slice(banner.length) });
}

/** A style sheet minified. */
export function minifyCss(code) {
  return MINIFY ? esbuild(['--minify', '--loader=css'], { input: code }) : code;
}
