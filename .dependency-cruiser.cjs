/**
 * The import rules of the layers (DESIGN §2; docs/architecture.md), checked by `npm run lint`:
 *
 *   stacks ──► infra manifests ◄── platform (db, config, clock, log, calendar, providers)
 *   local runtime ──► functions (edge) ──► domain fronts (<domain>/index.ts)
 *   domain internals ──► entity modules ──► platform          wiring (deps, wiring) ──► domain + platform
 *
 * A domain is a folder of packages/core/src that is not platform. Another domain, the functions package, the
 * local runtime, scripts and tests may use a domain only through its front, `index.ts`.
 */
const PLATFORM = '(db|config|providers|calendar|testing)';
const PLATFORM_FILES = '(clock|deadline|log|metrics|errors|deps|wiring|index)\\.ts';
const FRONT = '^packages/core/src/[^/]+/index\\.ts$';

module.exports = {
  forbidden: [
    {
      name: 'no-import-loop',
      severity: 'error',
      comment: 'Import loops (type-only imports included) tie files that should stand apart.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'domain-through-its-front',
      severity: 'error',
      comment: "A domain uses another domain only through that domain's index.ts.",
      from: { path: '^packages/core/src/([^/]+)/' },
      to: {
        path: '^packages/core/src/[^/]+/',
        pathNot: ['^packages/core/src/$1/', FRONT, `^packages/core/src/${PLATFORM}/`],
      },
    },
    {
      name: 'platform-not-domain',
      severity: 'error',
      comment: 'Platform modules (db, config, providers, calendar, clock, log, metrics, errors) know no domain.',
      from: {
        path: [`^packages/core/src/${PLATFORM}/`, '^packages/core/src/(clock|deadline|log|metrics|errors)\\.ts$'],
        pathNot: '^packages/core/src/testing/',
      },
      to: { path: '^packages/core/src/[^/]+/', pathNot: `^packages/core/src/${PLATFORM}/` },
    },
    {
      name: 'core-knows-no-edge',
      severity: 'error',
      comment: 'The domain has no HTTP, no Lambda and no local runtime.',
      from: { path: '^packages/core/' },
      to: { path: ['^packages/(functions|local|admin)/', '^stacks/', '^node_modules/(@middy|aws-lambda|@types/aws-lambda)'] },
    },
    {
      name: 'core-knows-no-routes',
      severity: 'error',
      comment:
        'The domain never reads the edge manifests (routes, edge, permissions, deploy...): what it needs of them, such as ' +
        "a throttle rule's shape, it declares itself and the edge passes the values. The platform may read the three " +
        'manifests it is built from: infra/settings.ts, infra/table.ts and infra/metrics.ts (the names the metrics emitter ' +
        'counts, which the dashboard graphs).',
      from: { path: '^packages/core/' },
      to: { path: '^infra/', pathNot: '^infra/(settings|table|metrics)\\.ts$' },
    },
    {
      name: 'domain-knows-no-manifest',
      severity: 'error',
      comment: 'A domain reads no infra manifest at all; settings come through Deps, keys through the db platform.',
      from: { path: '^packages/core/src/[^/]+/', pathNot: `^packages/core/src/${PLATFORM}/` },
      to: { path: '^infra/' },
    },
    {
      name: 'domain-uses-ports',
      severity: 'error',
      comment:
        'A domain asks Deps for a provider through its port (providers/ports.ts) and never imports an adapter ' +
        '(zarinpal, kavenegar, cafebazaar, openai, model): a provider code the domain must tell apart is an error kind ' +
        'of the port. cafebazaarPurchaseData.ts is no adapter (no I/O: the signed purchase format and its key, which ' +
        'the settings parse too).',
      from: { path: '^packages/core/src/[^/]+/', pathNot: `^packages/core/src/${PLATFORM}/` },
      to: { path: '^packages/core/src/providers/', pathNot: '^packages/core/src/providers/(ports|cafebazaarPurchaseData)\\.ts$' },
    },
    {
      name: 'edge-uses-fronts',
      severity: 'error',
      comment: 'Functions, the local runtime, scripts and tests reach the domain only through its fronts.',
      from: { path: '^(packages/(functions|local)/|scripts/|tests/|stacks/)' },
      to: {
        path: '^packages/core/src/',
        pathNot: [
          FRONT,
          `^packages/core/src/${PLATFORM_FILES}$`,
          '^packages/core/src/(db|testing)/index\\.ts$',
          '^packages/core/src/providers/(model|openai)\\.ts$',
        ],
      },
    },
    {
      name: 'functions-not-local',
      severity: 'error',
      comment: 'A Lambda never depends on the local runtime.',
      from: { path: '^packages/functions/' },
      to: { path: '^packages/local/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|\\.sst|dist|cdk\\.out)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
    moduleSystems: ['es6', 'cjs'],
  },
};
