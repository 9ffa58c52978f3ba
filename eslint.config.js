// ESLint flat config: typescript-eslint with type information (projectService).
const { builtinModules } = require('node:module');
const js = require('@eslint/js');
const tseslint = require('typescript-eslint');

/** Node built-ins, with and without the `node:` prefix; workflow code must not import them. */
const nodeBuiltins = [...new Set(builtinModules.flatMap((name) => [name, `${name}/*`]))];

const WORKFLOW_SANDBOX_MESSAGE =
  'Workflow code runs in the deterministic Temporal sandbox: no Node built-ins (do that work in an activity).';
const ACTIVITY_IMPORT_MESSAGE =
  'Workflows may import activities only as types (`import type`), then call them through proxyActivities.';

module.exports = tseslint.config(
  {
    ignores: ['node_modules/', 'dist/', 'coverage/', '.tools/', '.data/', 'schemas/', 'data/', 'test/.tmp/'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: __dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
      // Style: reported, but not failing the build. Correctness rules above stay errors.
      '@typescript-eslint/no-unused-vars': ['warn', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'warn',
      'prefer-const': 'warn',
    },
  },
  {
    files: ['**/*.spec.ts', '**/*.e2e-spec.ts', 'test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['workflows/**/*.ts'],
    rules: {
      'no-restricted-imports': 'off',
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: nodeBuiltins
            .filter((name) => !name.endsWith('/*'))
            .map((name) => ({ name, message: WORKFLOW_SANDBOX_MESSAGE })),
          patterns: [
            { group: ['node:*'], message: WORKFLOW_SANDBOX_MESSAGE },
            { group: nodeBuiltins.filter((name) => name.endsWith('/*')), message: WORKFLOW_SANDBOX_MESSAGE },
            {
              group: ['**/activities', '**/activities/**', 'activities', 'activities/**'],
              allowTypeImports: true,
              message: ACTIVITY_IMPORT_MESSAGE,
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.js'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: {
        require: 'readonly',
        module: 'writable',
        exports: 'writable',
        __dirname: 'readonly',
        process: 'readonly',
      },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
