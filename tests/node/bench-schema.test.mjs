// The benchmark's report format, roofline-bench/1, is one JSON Schema file
// (bench/roofline-bench.schema.json), read here and by the C++ check (tests/bench/
// check_bench_json.cpp, through tests/bench/json_schema.hpp): every shipped report conforms, and a
// report broken one field at a time is refused at that field.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { root } from './helpers.mjs';

const schema = JSON.parse(readFileSync(join(root, 'bench/roofline-bench.schema.json'), 'utf8'));
const KNOWN = new Set(['$schema', '$id', 'title', 'description', 'type', 'const', 'enum', 'required', 'properties',
  'additionalProperties', 'items', 'minItems', 'minLength', 'minimum', 'exclusiveMinimum', 'anyOf', '$ref', '$defs']);

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
function hasType(v, t) {
  switch (t) {
    case 'object': return v !== null && typeof v === 'object' && !Array.isArray(v);
    case 'array': return Array.isArray(v);
    case 'string': return typeof v === 'string';
    case 'boolean': return typeof v === 'boolean';
    case 'null': return v === null;
    case 'number': return typeof v === 'number' && Number.isFinite(v);
    case 'integer': return Number.isInteger(v);
    default: throw new Error(`schema: unknown type ${t}`);
  }
}

/** Every way `v` breaks schema `s`, as "pointer: what" (the subset json_schema.hpp implements). */
function errors(s, v, at = '', out = []) {
  for (const key of Object.keys(s)) if (!KNOWN.has(key)) throw new Error(`schema: unsupported keyword ${key}`);
  const where = at || '(the report)';
  if (s.$ref) {
    const name = s.$ref.replace('#/$defs/', '');
    if (!s.$ref.startsWith('#/$defs/') || !schema.$defs[name]) throw new Error(`schema: unsupported $ref ${s.$ref}`);
    errors(schema.$defs[name], v, at, out);
  }
  if (s.anyOf) {
    if (!s.anyOf.some((option) => errors(option, v, at).length === 0)) out.push(`${where}: matches none of its allowed shapes`);
    return out;
  }
  if (s.type) {
    const types = [].concat(s.type);
    if (!types.some((t) => hasType(v, t))) {
      out.push(`${where}: must be ${types.join(' or ')}`);
      return out;
    }
  }
  if ('const' in s && !same(v, s.const)) out.push(`${where}: must be ${JSON.stringify(s.const)}`);
  if (s.enum && !s.enum.some((e) => same(v, e))) out.push(`${where}: must be one of ${JSON.stringify(s.enum)}`);
  if (typeof v === 'number') {
    if ('minimum' in s && !(v >= s.minimum)) out.push(`${where}: must be at least ${s.minimum}`);
    if ('exclusiveMinimum' in s && !(v > s.exclusiveMinimum)) out.push(`${where}: must be more than ${s.exclusiveMinimum}`);
  }
  if (typeof v === 'string' && 'minLength' in s && v.length < s.minLength) out.push(`${where}: must have at least ${s.minLength} characters`);
  if (Array.isArray(v)) {
    if ('minItems' in s && v.length < s.minItems) out.push(`${where}: must have at least ${s.minItems} items`);
    if (s.items) v.forEach((x, i) => errors(s.items, x, `${at}/${i}`, out));
  }
  if (hasType(v, 'object')) {
    for (const r of s.required || []) if (!(r in v)) out.push(`${where}: lacks ${r}`);
    for (const [key, x] of Object.entries(v)) {
      const path = `${at}/${key}`;
      if (s.properties && key in s.properties) errors(s.properties[key], x, path, out);
      else if (s.additionalProperties === false) out.push(`${path}: not a field of the schema`);
      else if (s.additionalProperties) errors(s.additionalProperties, x, path, out);
    }
  }
  return out;
}

const RESULTS = join(root, 'docs/results');
const reports = readdirSync(RESULTS).filter((f) => f.endsWith('.json')).sort();

test('every report in docs/results/ conforms to the schema file', () => {
  assert.ok(reports.length >= 4, 'the shipped reports');
  for (const f of reports) assert.deepEqual(errors(schema, JSON.parse(readFileSync(join(RESULTS, f), 'utf8'))), [], f);
});

test('a report broken one field at a time is refused at that field', () => {
  const good = JSON.parse(readFileSync(join(RESULTS, reports[reports.length - 1]), 'utf8'));
  const broken = [
    [(r) => { r.backend = 'tpu'; }, '/backend: must be one of ["cpu","cuda"]'],
    [(r) => { r.allVerified = false; }, '/allVerified: must be true'],
    [(r) => { r.schema = 'roofline-bench/2'; }, '/schema: must be "roofline-bench/1"'],
    [(r) => { delete r.kernels; }, '(the report): lacks kernels'],
    [(r) => { r.kernels = []; }, '/kernels: must have at least 1 items'],
    [(r) => { r.kernels[0].bytes = -1; }, '/kernels/0/bytes: must be more than 0'],
    [(r) => { r.kernels[0].repetitions = 2.5; }, '/kernels/0/repetitions: must be integer'],
    [(r) => { r.kernels[0].predicted.measured.bound = 'link'; }, '/kernels/0/predicted/measured: matches none of its allowed shapes'],
    [(r) => { r.machine.threads = 2; }, '/machine/threads: must be string'],
    [(r) => { r.ceilings.measured.peakFlopsPerSecond.fp32 = 0; }, '/ceilings/measured/peakFlopsPerSecond/fp32: must be more than 0'],
    [(r) => { r.ceilings.datasheet = 'none'; }, '/ceilings/datasheet: matches none of its allowed shapes'],
    [(r) => { r.ratios[0].met = 'yes'; }, '/ratios/0/met: must be boolean'],
  ];
  for (const [breakIt, said] of broken) {
    const r = structuredClone(good);
    breakIt(r);
    assert.deepEqual(errors(schema, r), [said]);
  }
});

test('the schema uses only the keywords both checks implement, and every $ref resolves', () => {
  // errors() throws on any other keyword or reference: walk the whole schema with it
  const walk = (s) => {
    if (Array.isArray(s)) s.forEach(walk);
    else if (s && typeof s === 'object') {
      for (const key of Object.keys(s)) if (!['properties', '$defs'].includes(key) && !KNOWN.has(key)) assert.fail(`unsupported keyword ${key}`);
      if (s.$ref) assert.ok(schema.$defs[s.$ref.replace('#/$defs/', '')], s.$ref);
      for (const [key, x] of Object.entries(s)) {
        if (key === 'properties' || key === '$defs') Object.values(x).forEach(walk);
        else if (typeof x === 'object') walk(x);
      }
    }
  };
  walk(schema);
});
