// Lint rules for the whole repository. Formatting is Prettier's (`npm run format`); these
// rules are about correctness: promises that are awaited, types that are checked.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * The server's layers (ARCHITECTURE.md): each folder of server/ may import only the folders
 * listed for it, all of them below it, so the imports read top to bottom.
 */
/** What the entry points (the CLI and the server's start-up) stand on: every other layer. */
const UNDER_START = [
  'dashboard',
  'ops',
  'docs',
  'webhooks',
  'api',
  'http',
  'quota',
  'billing',
  'mail',
  'accounts',
  'generate',
  'ingest',
  'domain',
  'platform',
];
const LAYERS = {
  cli: ['start', ...UNDER_START],
  start: UNDER_START,
  dashboard: ['billing', 'mail', 'accounts', 'domain', 'platform'],
  ops: ['api', 'domain', 'platform'],
  docs: ['platform'],
  webhooks: ['api', 'mail', 'accounts', 'domain', 'platform'],
  api: ['http', 'quota', 'accounts', 'domain', 'platform'],
  http: ['platform'],
  quota: ['accounts', 'platform'],
  billing: ['mail', 'accounts', 'platform'],
  mail: ['accounts', 'platform'],
  accounts: ['platform'],
  generate: ['ingest', 'domain', 'platform'],
  ingest: ['domain', 'platform'],
  domain: ['platform'],
  platform: [],
};
const layerRules = Object.entries(LAYERS).map(([layer, allowed]) => {
  const forbidden = Object.keys(LAYERS).filter((other) => other !== layer && !allowed.includes(other));
  return {
    files: [`server/${layer}/**/*.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: `^(\\.\\./)+(${forbidden.join('|')})/`,
              message: allowed.length
                ? `server/${layer}/ may import only ${allowed.join(', ')} (ARCHITECTURE.md, "Layers").`
                : `server/${layer}/ imports nothing else of server/ (ARCHITECTURE.md, "Layers").`,
            },
          ],
        },
      ],
    },
  };
});

export default tseslint.config(
  {
    ignores: ['**/dist/**', '**/node_modules/**', 'prisma/generated/**', 'test-artifacts/**', 'coverage/**', '.mboa-data/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // A promise nobody awaits loses its error, and on the request path a count.
      '@typescript-eslint/no-floating-promises': 'error',
      // Express 4 takes async handlers that catch their own errors and call next(err).
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false, attributes: false, variables: false } }],
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false }],
      eqeqeq: ['error', 'always', { null: 'ignore' }],
    },
  },
  ...layerRules,
  {
    // Small files: no source file over 350 lines (generated files aside).
    files: ['server/**/*.ts', 'contract/**/*.ts', 'sdk/src/**/*.ts'],
    ignores: ['sdk/src/generated/**'],
    rules: { 'max-lines': ['error', { max: 350 }] },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    files: ['scripts/**/*.mjs', 'eslint.config.js'],
    languageOptions: { globals: globals.node },
  },
  {
    // Served to browsers as they are: the dashboard's and the docs page's scripts.
    files: ['server/**/assets/**/*.js'],
    languageOptions: { globals: { ...globals.browser, SwaggerUIBundle: 'readonly' } },
  },
  {
    files: ['**/*.test.ts', 'test/**/*.ts', 'sdk/test/**/*.ts'],
    rules: {
      // Tests read parsed JSON bodies; `any` there is the honest type.
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  prettier,
);
