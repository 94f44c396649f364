// The npm package as the build leaves it (build-wasm/npm/roofline-lab-<version>.tgz, the version
// read from CMakeLists.txt), installed offline into a folder, the way a documentation site
// takes it as a dependency.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { execFileSync } from 'node:child_process';
import { ROOT } from '../web/helpers.mjs';

export const BUILD_WASM = resolve(ROOT, process.env.BUILD_WASM_DIR || 'build-wasm');

export function projectVersion() {
  const m = /project\(\s*roofline_lab\s+VERSION\s+(\d+\.\d+\.\d+)/.exec(readFileSync(join(ROOT, 'CMakeLists.txt'), 'utf8'));
  if (!m) throw new Error('CMakeLists.txt: no project(roofline_lab VERSION x.y.z)');
  return m[1];
}

export function tarball() {
  const path = join(BUILD_WASM, 'npm', `roofline-lab-${projectVersion()}.tgz`);
  if (!existsSync(path)) throw new Error(`${path} is missing: build it with cmake --build build-wasm (target npm_package)`);
  return path;
}

/**
 * Installs the tarball into `dir` (which has its own package.json) with no network: npm must not
 * need the registry for a package without dependencies. Returns the installed package's folder.
 */
export function installPackage(dir) {
  rmSync(join(dir, 'node_modules', 'roofline-lab'), { recursive: true, force: true });
  execFileSync('npm', ['install', '--offline', '--no-save', '--no-package-lock', '--no-audit', '--no-fund',
    '--loglevel=error', tarball()], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  const pkg = join(dir, 'node_modules', 'roofline-lab');
  if (!existsSync(join(pkg, 'package.json'))) throw new Error(`npm install left no ${pkg}`);
  return pkg;
}
