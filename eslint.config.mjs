// Lint rules that explain themselves: each restriction says why it exists.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: { globals: globals.node },
  },
  {
    // The command's entry is CommonJS (bin/package.json): a hook process starts faster that way.
    files: ['packages/warden/bin/**/*.js'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // The web console runs in the browser: its modules see the browser's globals, not Node's.
    files: ['packages/warden/web/**/*.js'],
    languageOptions: { globals: globals.browser },
  },
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // The engine is pure: facts and the clock come in as arguments.
    files: ['packages/engine/src/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.object.name='Date'][callee.property.name='now']",
          message: 'time is an input: take `at` as an argument instead of reading the clock',
        },
        {
          selector: "NewExpression[callee.name='Date'][arguments.length=0]",
          message: 'time is an input: take `at` as an argument instead of reading the clock',
        },
        {
          selector: "CallExpression[callee.object.name='Math'][callee.property.name='random']",
          message: 'resolution is deterministic: no randomness in the engine',
        },
        {
          selector: "MemberExpression[object.name='process']",
          message: 'the engine reads no environment: pass facts in as arguments',
        },
      ],
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                'node:*',
                'fs',
                'path',
                'os',
                'child_process',
                'net',
                'http',
                'https',
                'crypto',
              ],
              message: 'the engine does no IO: stores and adapters live in the warden package',
            },
          ],
        },
      ],
    },
  },
);
