// One lint configuration for every package: type-aware rules (floating promises) and import cycles.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { importX } from 'eslint-plugin-import-x';

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      '**/.turbo/**',
      '**/*.config.*',
      'eslint.config.js',
      // AssemblyScript (i32, load, store): compiled by asc, outside every TypeScript project.
      'shared/assembly/**',
      // Build steps in plain Node (bundling), outside every TypeScript project as well.
      'shared/build/**',
      'producer/build/**',
      '**/bin/*.js',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { 'import-x': importX },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      // A promise returned unawaited from a try runs its finally (a closed client) too early.
      '@typescript-eslint/return-await': ['error', 'in-try-catch'],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      'import-x/no-cycle': 'error',
      'import-x/no-self-import': 'error',
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '../../*/src/*',
                '**/producer/src/**',
                '**/worker/src/**',
                '**/shared/src/**',
              ],
              message: 'Import other packages through their index (@weak-queens/<name>).',
            },
          ],
        },
      ],
    },
  },
  {
    // The kernel is pure: kernel threads and `wq compute` load it without a Redis client, a
    // queue library or a logger. It imports itself and node: built-ins, nothing else.
    files: ['shared/src/kernel/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(?!\\./|node:)',
              message: 'The kernel imports only ./ files of its own and node: built-ins.',
            },
          ],
        },
      ],
    },
  },
);
