// The core's layout (issue "The house, rebuilt"): no source over ~500 lines, and its includes go one
// way. A module is a header of core/include/roofline/ and the sources of the same name in core/src/
// (core/src/api/ is one module, "api", with roofline/api.hpp; a module split into files is listed in
// PART_OF); an include of another module is an
// edge. The graph has no cycle, and only the API itself includes roofline/api.hpp: the domain
// (architecture, catalog, ...) and the lowest layers (error, value, json, number_text) never reach
// up to the API that serves them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const MAX_LINES = 500;

function files(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}

const SOURCES = [...files(join(ROOT, 'core', 'src')), ...files(join(ROOT, 'core', 'include'))].filter((f) => /\.(cpp|hpp)$/.test(f));

/** Sources of core/src that belong to a module of another name (a module split into files). */
const PART_OF = {
  architecture_config: 'architecture',
  exercise_draw: 'exercises',
  exercise_parts: 'exercises',
  exercises_serving: 'exercises',
  questions: 'exercises',
  json_read: 'json',
  json_write: 'json',
  text_writer: 'number_text',
};

/** The module a file belongs to: its name without extension; everything under src/api/ is "api". */
function moduleOf(path) {
  const rel = relative(join(ROOT, 'core'), path).split('\\').join('/');
  if (rel.startsWith('src/api/') || rel === 'include/roofline/api.hpp') return 'api';
  const name = basename(rel).replace(/\.(cpp|hpp)$/, '');
  return PART_OF[name] || name;
}

/** The module an include line names, or null for a system header or a generated file. */
function includedModule(from, name) {
  if (name.startsWith('roofline/')) return name === 'roofline/api.hpp' ? 'api' : moduleOf(join(ROOT, 'core', 'include', name));
  if (name === 'catalog_files.hpp') return null; // written by the build (core/catalog/embed.cmake)
  const local = join(dirname(from), name);
  return SOURCES.includes(local) ? moduleOf(local) : null;
}

function graph() {
  const edges = new Map();
  for (const file of SOURCES) {
    const from = moduleOf(file);
    if (!edges.has(from)) edges.set(from, new Set());
    for (const m of readFileSync(file, 'utf8').matchAll(/^#include "([^"]+)"/gm)) {
      const to = includedModule(file, m[1]);
      if (to && to !== from) edges.get(from).add(to);
    }
  }
  return edges;
}

/** A cycle in the graph, as the list of its modules, or null. */
function findCycle(edges) {
  const state = new Map(); // 1: on the path, 2: done
  const path = [];
  const visit = (node) => {
    state.set(node, 1);
    path.push(node);
    for (const next of edges.get(node) || []) {
      if (state.get(next) === 1) return [...path.slice(path.indexOf(next)), next];
      if (!state.has(next)) {
        const found = visit(next);
        if (found) return found;
      }
    }
    path.pop();
    state.set(node, 2);
    return null;
  };
  for (const node of edges.keys()) {
    if (!state.has(node)) {
      const found = visit(node);
      if (found) return found;
    }
  }
  return null;
}

test(`no core source is longer than ${MAX_LINES} lines`, () => {
  const long = SOURCES.map((f) => [relative(ROOT, f), readFileSync(f, 'utf8').split('\n').length - 1]).filter(([, n]) => n > MAX_LINES);
  assert.deepEqual(long, []);
});

test('the core has no include cycle between its modules', () => {
  const edges = graph();
  assert.ok(edges.get('json').has('error'), 'the graph sees includes (json_read.cpp includes error.hpp)');
  assert.equal(findCycle(edges), null);
  // the check itself finds a cycle where there is one
  assert.deepEqual(findCycle(new Map([['a', new Set(['b'])], ['b', new Set(['c'])], ['c', new Set(['a'])]])), ['a', 'b', 'c', 'a']);
});

test('only the API includes the API: the domain and the lowest layers never include upward', () => {
  const upward = [...graph()].filter(([from, to]) => from !== 'api' && to.has('api')).map(([from]) => from);
  assert.deepEqual(upward, []);
  // the lowest layers include nothing of the domain
  const edges = graph();
  assert.deepEqual([...edges.get('number_text')], []);
  assert.deepEqual([...edges.get('value')].sort(), ['number_text']);
  assert.deepEqual([...edges.get('error')].sort(), ['number_text']);
});

test("the module's build scripts follow the code's direction: nothing under wasm/ imports from web/", () => {
  const scripts = files(join(ROOT, 'wasm')).filter((f) => /\.(m?js)$/.test(f) && !f.includes('node_modules'));
  assert.ok(scripts.some((f) => f.endsWith('npm.mjs')), 'wasm/npm.mjs is read');
  const upward = [];
  for (const f of scripts) {
    for (const m of readFileSync(f, 'utf8').matchAll(/^\s*(?:import|export)\b[^'"]*['"]([^'"]+)['"]/gm)) {
      if (m[1].startsWith('.') && relative(ROOT, join(dirname(f), m[1])).split('\\').join('/').startsWith('web/')) {
        upward.push(`${relative(ROOT, f)} imports ${m[1]}`);
      }
    }
  }
  assert.deepEqual(upward, []);
});
