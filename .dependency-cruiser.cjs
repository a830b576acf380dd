/**
 * Dependency rules (DESIGN.md "The shape"): data flows http|workers -> core -> ports <- adapters.
 * The core never imports an adapter, an AWS SDK or a browser driver (not even its types), reaches
 * the network only through the egress guard, and there are no runtime import cycles. Every rule is
 * an error. Run by `npm test` (npm run depcheck); test/unit/architecture/dependency-rules.test.ts
 * proves the rules bite.
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A runtime import cycle makes module init order fragile (and bundles bigger).',
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    {
      name: 'core-not-to-adapters',
      severity: 'error',
      comment: 'The core owns ports; adapters implement them and are wired by a composition root.',
      from: { path: '^functions/core/' },
      to: { path: '^functions/(adapters|local|http|workers)/' },
    },
    {
      name: 'core-not-to-aws-sdk',
      severity: 'error',
      comment: 'The core runs on both runtimes; AWS SDK clients live in functions/adapters/aws.',
      from: { path: '^functions/core/' },
      to: { path: '@aws-sdk/|@smithy/' },
    },
    {
      // Type-only imports count too (tsPreCompilationDeps): a driver type in core is a driver
      // dependency all the same. The core sees Chromium only through ports/browser.ts.
      name: 'core-not-to-browser-driver',
      severity: 'error',
      comment: 'Chromium is reached through the Browser port (ports/browser.ts); puppeteer lives in adapters/browser.',
      from: { path: '^functions/(core|ports)/' },
      to: { path: 'puppeteer|@sparticuz/chromium|devtools-protocol|chromium-bidi' },
    },
    {
      // Every outgoing connection goes through the egress guard (DESIGN.md "Governance is the
      // product"). The guard itself (core/governance) and the two clients built on its vetted
      // addresses (the domain verification probe, the bucket-sync agent) are the only core code
      // that may touch the network stack; the engine, runbooks, runs and the rest use them.
      name: 'core-network-through-governance',
      severity: 'error',
      comment: 'Outside governance, core reaches the network through the egress guard, never node:http/https/net/tls/dgram or undici.',
      from: { path: '^functions/core/', pathNot: '^functions/core/(governance/|domains/verify-probe\\.ts$|sync/guarded-agent\\.ts$)' },
      to: { path: '^(node:)?(http|https|http2|net|tls|dgram)$|(^|/)undici(/|$)' },
    },
    {
      name: 'ports-plain',
      severity: 'error',
      comment: 'Ports are interfaces the core owns, in Gleaner types (core message types included): no adapter, SDK or driver module.',
      from: { path: '^functions/ports/' },
      to: { path: '^functions/(adapters|local|http|workers)/|@aws-sdk/|@smithy/|puppeteer|undici' },
    },
    {
      name: 'routes-plain-data',
      severity: 'error',
      comment: 'functions/routes.ts is plain data read by CDK and the local server: it imports no handler or core code.',
      from: { path: '^functions/routes\\.ts$' },
      to: { path: '^functions/(http|workers|core|adapters)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
    exclude: { path: '^(cdk.out|\\.data|console/vendor)' },
  },
};
