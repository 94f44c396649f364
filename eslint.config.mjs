// ESLint for the project's JavaScript (checked in CI by .ci/lint): the recommended rules, with the
// globals of where each file runs. The tools are test dependencies (tests/package.json), so they
// are loaded from there.
import { createRequire } from 'node:module';

const require = createRequire(new URL('./tests/package.json', import.meta.url));
const js = require('@eslint/js');
const globals = require('globals');

export default [
  {
    ignores: ['build*/**', '**/node_modules/**', 'tests/sites/*/docs/**', 'tests/sites/*/.vitepress/cache/**',
      'tests/sites/**/site/**', 'tests/sites/**/dist/**', 'wasm/roofline.d.ts'],
  },
  js.configs.recommended,
  {
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: 'module',
      // the page and the module run in browsers and workers; the build, the tests and the tools in Node
      globals: { ...globals.browser, ...globals.worker, ...globals.node },
    },
    rules: {
      'no-unused-vars': ['error', { args: 'none', caughtErrors: 'none', ignoreRestSiblings: true, varsIgnorePattern: '^_$' }],
    },
  },
  {
    // the module's classic pieces, joined into one script by the build (wasm/CMakeLists.txt): each
    // defines what another uses
    files: ['wasm/api.js', 'wasm/inflate.js'],
    languageOptions: { sourceType: 'script' },
  },
  {
    // a documentation site's theme scripts (tests/sites/, quoted whole in docs/embedding.md): their
    // top-level variables are globals the theme reads
    files: ['tests/sites/**/overrides/**/*.js'],
    languageOptions: { sourceType: 'script' },
    rules: { 'no-unused-vars': ['error', { vars: 'local' }] },
  },
];
