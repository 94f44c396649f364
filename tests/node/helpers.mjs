// Shared by the module tests: where the build put things, and the project's test data.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const siteDir = resolve(root, process.env.SITE_DIR ?? 'build-wasm/site');
export const nativeResults = resolve(root, process.env.NATIVE_RESULTS ?? 'build/oracle-native.json');
export const oracle = JSON.parse(readFileSync(resolve(root, 'tests/lesson/oracle.json'), 'utf8'));
const apiCases = JSON.parse(readFileSync(resolve(root, 'tests/api/valid_args.json'), 'utf8'));
/** One valid argument object per API function. */
export const validArgs = Object.fromEntries(Object.entries(apiCases).filter(([k]) => !k.startsWith('_')));

/** "function.field" names of the arguments that may be left out, from the API table (rl.functions()). */
export function optionalFields(rl) {
  return new Set(rl.functions().flatMap((f) => f.args.filter((a) => a.optional).map((a) => `${f.name}.${a.name}`)));
}

/** Follows "a.b.0" into a value; undefined when absent. */
export function resolvePath(value, path) {
  if (path === null || path === undefined) return value;
  let v = value;
  for (const part of path.split('.')) {
    if (v === undefined || v === null) return undefined;
    v = Array.isArray(v) ? v[Number(part)] : v[part];
  }
  return v;
}

/** Every number inside a value, for "never NaN, never Infinity" checks. */
export function numbersIn(value, out = []) {
  if (typeof value === 'number') out.push(value);
  else if (Array.isArray(value)) value.forEach((v) => numbersIn(v, out));
  else if (value && typeof value === 'object') Object.values(value).forEach((v) => numbersIn(v, out));
  return out;
}

