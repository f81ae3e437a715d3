// ESLint checks what Prettier does not: likely bugs and dead code. Formatting is
// Prettier's alone (eslint-config-prettier turns off every rule that would fight it).
// test/unit/layout/lint.test.ts runs it in `npm test`.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['src/generated/**', 'node_modules/**', '.tools/**', '.data/**', 'test/fixtures/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2024, sourceType: 'module', globals: { ...globals.node } },
    rules: {
      // `const { secret: _secret, ...rest } = x` is how a field is left out; an express error handler needs its fourth argument.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
      // A variable a closure reads before it is assigned (a stop handler, a page's close event) would be in its TDZ as a const.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      // Stripping control characters that PostgreSQL or HTTP refuse is deliberate wherever a pattern names them.
      'no-control-regex': 'off',
    },
  },
  {
    files: ['test/**'],
    // Tests read the API's JSON answers and check them with assertions, not types.
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // Code that runs inside pages (src/page/in-page/in-page-script.ts): a script holding one
    // function, which sees the browser's globals and nothing of Node's or of the service's.
    files: ['src/page/in-page/*.js'],
    languageOptions: {
      sourceType: 'script',
      globals: { ...Object.fromEntries(Object.keys(globals.node).map((name) => [name, 'off'])), ...globals.browser },
    },
    // The file's function is used by being read, not called.
    rules: { '@typescript-eslint/no-unused-vars': ['error', { vars: 'local', argsIgnorePattern: '^_' }] },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  prettier,
);
