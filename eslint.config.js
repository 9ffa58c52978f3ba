// ESLint flat config: typescript-eslint with type information (projectService).
const { builtinModules } = require('node:module');
const js = require('@eslint/js');
const tseslint = require('typescript-eslint');
const importX = require('eslint-plugin-import-x');

/** Node built-ins, with and without the `node:` prefix; workflow code must not import them. */
const nodeBuiltins = [...new Set(builtinModules.flatMap((name) => [name, `${name}/*`]))];

/**
 * The floors of the code base, lowest first (docs/operations.md, "Lint rules"). A folder imports
 * only from its own floor and the floors below it; what two floors share lives on the lower one.
 * Specs and test support are outside the layering.
 */
const FLOORS = [
  ['src/common'],
  ['src/ndc', 'src/temporal'],
  ['src/ndc-client', 'src/booking', 'src/webhooks'],
  ['activities'],
  ['workflows'],
  ['src/airline', 'src/api', 'src/worker'],
];
/** Apps on the top floor that must not import each other. */
const APPS = ['src/airline', 'src/api', 'src/worker'];

/**
 * The signal, query and update definitions the workflows answer: the contract a lower floor may
 * name (activities signal a workflow with them), as the API does.
 */
const WORKFLOW_CONTRACT = ['./definitions.ts', './webhook-definitions.ts'];

/** `import-x/no-restricted-paths` zones: every floor is forbidden from every higher one, apps from each other. */
function layeringZones() {
  const zones = FLOORS.flatMap((floor, level) =>
    floor.flatMap((target) =>
      FLOORS.slice(level + 1)
        .flat()
        .map((higher) => ({
          target: `./${target}`,
          from: `./${higher}`,
          ...(higher === 'workflows' ? { except: WORKFLOW_CONTRACT } : {}),
          message: `${target} sits below ${higher} (eslint.config.js, FLOORS): move the shared piece down.`,
        })),
    ),
  );
  for (const app of APPS) {
    zones.push({
      target: `./${app}`,
      from: APPS.filter((other) => other !== app).map((other) => `./${other}`),
      message: `${app} is an app of its own: share through a lower floor, not another app.`,
    });
  }
  // Inside the API, `common/` sits below the feature folders.
  zones.push({
    target: './src/api/common',
    from: './src/api',
    except: ['./common'],
    message: 'src/api/common sits below the API feature folders: move the shared piece into common.',
  });
  zones.push({
    target: ['./src', './workflows', './activities'],
    from: ['./test', './scripts', './bench'],
    message: 'Product code never imports tests, scripts or benchmarks.',
  });
  return zones;
}

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
    // No import cycles anywhere, and no import from a higher floor into a lower one.
    files: ['**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [importX.createNodeResolver({ extensions: ['.ts', '.js', '.json'] })],
      'import-x/extensions': ['.ts', '.js'],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': ['error', { basePath: __dirname, zones: layeringZones() }],
    },
  },
  {
    files: ['**/*.spec.ts', '**/*.e2e-spec.ts', 'test/**/*.ts', 'src/ndc/fixtures/**'],
    rules: { 'import-x/no-restricted-paths': 'off' },
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
