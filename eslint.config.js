// ESLint (flat config) with typescript-eslint: run by `npm test` (npm run lint) so house rules hold in CI.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['node_modules/', 'cdk.out/', '.data/', 'dist/', 'coverage/', 'console/vendor/', 'examples/generated/', '.tmp/', '.tmp-*/', '.cache/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      // `_`-prefixed names are deliberately unused (callback positions, destructuring rests).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
    },
  },
  { files: ['console/**/*.js'], languageOptions: { globals: globals.browser } },
  { files: ['**/*.mjs', '**/*.cjs', 'bin/**/*.ts', '*.js'], languageOptions: { globals: globals.node } },
  { files: ['**/*.cjs'], languageOptions: { sourceType: 'commonjs' } },
  {
    // Tests build loose JSON bodies and fixtures on purpose; `any` there is what a client sees.
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // Heterogeneous registries and contract generics: each entry has its own input type, and the
    // route's contract types the handler where it is used. `unknown` would erase that inference.
    files: ['functions/http/contracts/contract.ts', 'functions/http/pipeline/api.ts', 'functions/core/scrapers/registry.ts', 'functions/core/scrapers/specs.ts', 'functions/core/runs/find-scraper.ts', 'functions/core/runs/scraper-catalog.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
