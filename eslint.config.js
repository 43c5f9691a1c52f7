import fs from 'node:fs';
import js from '@eslint/js';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Every folder under src/client/features is a feature: a new one is fenced in the day it appears. */
const features = fs
  .readdirSync(new URL('./src/client/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/** Rooms (CONVENTIONS.md): who may import whom. */
const restrict = (patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });
const noServer = {
  group: ['\\#server/*', '**/server/**'],
  message: 'Only src/server may import server code.',
};
const noClient = {
  group: ['\\#client/*', '**/client/**'],
  message: 'Only src/client may import client code.',
};
const noNode = {
  group: ['node:*'],
  message: 'This room runs in the browser too: no Node built-ins.',
};

export default tseslint.config(
  { ignores: ['dist', 'data', 'node_modules', 'test-results', 'playwright-report'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': ['error', { allow: ['warn', 'error', 'info', 'log'] }],
    },
  },
  {
    // No import cycles. The node resolver follows package.json "imports" (#shared/*, #server/*,
    // #client/*, #test-support/*) and relative paths; imports name their .ts/.tsx files, so no
    // TypeScript resolver is needed. The rule skips `import type` edges by design (they vanish at
    // run time), so a cycle closed only by types is not reported here.
    files: ['**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [
        createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.json'] }),
      ],
      'import-x/extensions': ['.ts', '.tsx', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    files: ['src/client/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    files: ['src/shared/**'],
    rules: restrict([
      noServer,
      noClient,
      noNode,
      { group: ['react', 'react-dom'], message: 'src/shared is framework-free.' },
    ]),
  },
  { files: ['src/server/**'], rules: restrict([noClient]) },
  { files: ['src/client/**'], rules: restrict([noServer, noNode]) },
  {
    files: ['src/client/lib/**', 'src/client/ui/**'],
    rules: restrict([
      noServer,
      noNode,
      {
        group: ['\\#client/features/*', '\\#client/app/*', '**/features/**', '**/app/**'],
        message: 'lib and ui sit below features and pages.',
      },
    ]),
  },
  ...features.map((feature) => ({
    files: [`src/client/features/${feature}/**`],
    rules: restrict([
      noServer,
      noNode,
      { group: ['\\#client/app/*', '**/app/**'], message: 'Features never import pages.' },
      {
        group: features
          .filter((f) => f !== feature)
          .flatMap((f) => [`\\#client/features/${f}/*`, `../${f}/*`, `../../${f}/*`]),
        message: 'Features never import each other; share through src/client/lib.',
      },
    ]),
  })),
  {
    // Test and benchmark helpers live under tests/ (tests/support); only tests may import them.
    files: ['src/**'],
    ignores: ['src/**/*.test.ts', 'src/**/*.test.tsx'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...[
          'ImportDeclaration',
          'ImportExpression',
          'ExportAllDeclaration',
          'ExportNamedDeclaration',
        ].map((node) => ({
          selector: `${node}[source.value=/^#test-support\\/|(^|\\/)tests\\//]`,
          message: 'Production code never imports test helpers (tests/).',
        })),
      ],
    },
  },
  {
    files: ['src/server/db/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
