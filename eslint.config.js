// ESLint (flat config) with typescript-eslint: run by `npm test` (npm run lint) so house rules hold in CI.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['node_modules/', 'cdk.out/', '.data/', 'dist/', 'coverage/', 'console/vendor/', 'examples/generated/', '.tmp/'] },
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
  { files: ['scripts/**/*.mjs', 'bin/**/*.ts', '*.js', '*.mjs'], languageOptions: { globals: globals.node } },
);
