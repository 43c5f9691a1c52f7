import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
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

/**
 * The server's rooms. Infrastructure (these folders, and the top-level files every module may
 * use) imports no domain. Every other folder under src/server is a domain, read from the
 * folders, and imports only the domains listed for it below; a new folder imports none until it
 * is listed here. The table is checked to have no cycle, so imports between domains go one way.
 */
const serverInfrastructure = [
  'db',
  'http',
  'security',
  'storage',
  'site',
  'live',
  'chain',
  'plugins',
  'metrics',
  'tracing',
];
const serverBaseFiles = ['cli-command.ts', 'clock.ts', 'config.ts', 'deps.ts', 'http-error.ts'];
const serverDomainImports = {
  accounts: [],
  // The me read tells a member the decision on their appeal (suspensions/appeals.ts).
  // Signing in with a wallet checks its message as a wallet link does (wallet/siws-checks.ts).
  // Raid mode's sign-up challenge (raid/challenge.ts).
  auth: ['accounts', 'raid', 'suspensions', 'wallet'],
  // Appeals are heard in the order of standing (memes/standing.ts).
  suspensions: ['accounts', 'memes'],
  shop: ['accounts'],
  // The board shows a member's holder badge (holders/service.ts).
  game: ['accounts', 'holders', 'shop'],
  // Standing (memes/standing.ts) counts a proven wallet.
  // A meme's card shows its author's holder badge (holders/service.ts).
  memes: ['accounts', 'alerts', 'game', 'holders', 'wallet'],
  uploads: ['alerts', 'memes'],
  // Moderators' alerts: an outbox anyone may write to; it imports no domain.
  alerts: [],
  // Raid mode (decision 027): the switch, its trigger, its console page and the CLI's commands.
  raid: ['accounts', 'alerts', 'console', 'memes'],
  ops: ['memes'],
  prize: ['accounts', 'alerts', 'game', 'suspensions', 'wallet'],
  wallet: ['accounts'],
  // A holder is a proven wallet and a read of the chain (docs/decisions/029-holders-at-home.md).
  holders: ['accounts', 'wallet'],
  supply: [],
  // A member's page gathers what each domain shows of the member.
  members: ['accounts', 'game', 'holders', 'memes', 'prize', 'suspensions', 'wallet'],
  burns: ['prize'],
  // A rehearsal's demo week (issue 42): members, wallets and runs through their domains' rules.
  rehearsal: ['accounts', 'game', 'prize', 'wallet'],
  console: ['accounts', 'game', 'memes', 'prize', 'suspensions', 'wallet'],
  // The operator CLI (main.ts, registry.ts and its own commands): it gathers every domain's
  // cli-commands.ts, as app.ts gathers their routes.
  cli: [
    'accounts',
    'burns',
    'console',
    'game',
    'memes',
    'prize',
    'raid',
    'rehearsal',
    'shop',
    'suspensions',
  ],
};

function assertAcyclic(graph) {
  const state = new Map();
  const visit = (node, trail) => {
    if (state.get(node) === 'done') return;
    if (state.get(node) === 'open') {
      throw new Error(
        `eslint.config.js: server domains import in a cycle: ${[...trail, node].join(' -> ')}`,
      );
    }
    state.set(node, 'open');
    for (const next of graph[node] ?? []) visit(next, [...trail, node]);
    state.set(node, 'done');
  };
  for (const node of Object.keys(graph)) visit(node, []);
}
assertAcyclic(serverDomainImports);

const serverDomains = fs
  .readdirSync(new URL('./src/server', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && !serverInfrastructure.includes(entry.name))
  .map((entry) => entry.name);
const serverZones = [
  ...[...serverInfrastructure, ...serverBaseFiles].map((room) => ({
    target: `src/server/${room}`,
    from: serverDomains.map((domain) => `src/server/${domain}`),
    message: 'Server infrastructure imports no domain.',
  })),
  ...serverDomains.map((domain) => {
    const allowed = serverDomainImports[domain] ?? [];
    return {
      target: `src/server/${domain}`,
      from: serverDomains
        .filter((other) => other !== domain && !allowed.includes(other))
        .map((other) => `src/server/${other}`),
      message: `${allowed.length ? `${domain} may import only ${allowed.join(', ')}` : `${domain} imports no other domain`} (serverDomainImports in eslint.config.js).`,
    };
  }),
].filter((zone) => zone.from.length > 0);

/** Rooms (CONVENTIONS.md): who may import whom. */
// better-sqlite3 has two majors installed, one per Node (src/server/db/sqlite.ts picks).
const noSqliteDriver = {
  group: ['better-sqlite3', 'better-sqlite3-node22'],
  message: 'Open SQLite through src/server/db/sqlite.ts: it loads the driver this Node can run.',
};
const restrict = (patterns) => ({
  'no-restricted-imports': ['error', { patterns: [...patterns, noSqliteDriver] }],
});
const noServer = {
  group: ['\\#server/*', '**/server/**'],
  message: 'Only src/server may import server code.',
};
const noClient = {
  group: ['\\#client/*', '**/client/**'],
  message: 'Only src/client may import client code.',
};
// Loaded only when OTEL_EXPORTER_OTLP_ENDPOINT is set (docs/decisions/026): one file imports it.
const noTracingSdk = {
  group: ['@opentelemetry/*', '@fastify/otel'],
  message:
    'Only src/server/tracing/open-telemetry.ts imports OpenTelemetry, and only when tracing is on.',
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
  { files: ['**/*.{ts,tsx}'], rules: restrict([]) },
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
  { files: ['src/server/**'], rules: restrict([noClient, noTracingSdk]) },
  { files: ['src/server/tracing/open-telemetry.ts'], rules: restrict([noClient]) },
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
    // Domain direction on the server. Tests are left out: a suite may set up any domain it needs.
    files: ['src/server/**/*.ts'],
    ignores: ['src/server/**/*.test.ts'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        { basePath: fileURLToPath(new URL('.', import.meta.url)), zones: serverZones },
      ],
    },
  },
  {
    files: ['src/server/db/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
