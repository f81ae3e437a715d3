// The layout's one-way rules (docs/job-engine.md, "Layers"): data flows
// route -> feature -> Temporal -> activities -> jobs / page -> platform, and a
// feature never reaches into another. `npm test` runs this (test/unit/layout/layout.test.ts).
module.exports = {
  forbidden: [
    {
      name: 'platform-imports-no-layer-above',
      comment: 'The platform is what everything stands on: it imports no feature, no job engine and no page code.',
      severity: 'error',
      from: { path: '^src/platform/' },
      to: { path: '^src/(features|jobs|page|entry)/' },
    },
    {
      name: 'page-imports-no-job-or-feature',
      comment: 'Loading and converting one page knows nothing of jobs, frontiers or endpoints.',
      severity: 'error',
      from: { path: '^src/page/' },
      to: { path: '^src/(features|jobs|entry)/' },
    },
    {
      name: 'jobs-import-no-feature',
      comment: 'The job engine serves every endpoint feature; features bring it a policy, it never imports one.',
      severity: 'error',
      from: { path: '^src/jobs/' },
      to: { path: '^src/(features|entry)/' },
    },
    {
      name: 'features-stay-apart',
      comment: "A feature imports the platform, jobs and page, never another feature's internals.",
      severity: 'error',
      from: { path: '^src/features/([^/]+)/' },
      to: { path: '^src/features/([^/]+)/', pathNot: '^src/features/$1/' },
    },
    {
      name: 'browser-sessions-gateway-apart-from-host',
      comment:
        "Browser sessions by process (docs/architecture.md): the gateway's code reaches a browser host only over the wire, so it imports none of the host's or the sandbox's code; what both sides need is in protocol/ (or shared/).",
      severity: 'error',
      from: { path: '^src/features/browser-sessions/gateway/' },
      to: { path: '^src/features/browser-sessions/(host|sandbox)/' },
    },
    {
      name: 'browser-sessions-host-apart-from-gateway',
      comment: "The browser host and its sandbox import none of the gateway's code; what both sides need is in protocol/ (or shared/).",
      severity: 'error',
      from: { path: '^src/features/browser-sessions/(host|sandbox)/' },
      to: { path: '^src/features/browser-sessions/gateway/' },
    },
    {
      name: 'browser-sessions-protocol-stands-alone',
      comment: "protocol/ and shared/ are imported by every process of a session, so they import no process's code.",
      severity: 'error',
      from: { path: '^src/features/browser-sessions/(protocol|shared)/' },
      to: { path: '^src/features/browser-sessions/(gateway|host|sandbox|workflow)/' },
    },
    {
      name: 'sandbox-runtime-stands-alone',
      comment: 'sandbox/runtime/ is mounted alone into each sandbox: its modules import nothing of the tree outside it.',
      severity: 'error',
      from: { path: '^src/features/browser-sessions/sandbox/runtime/' },
      to: { path: '^(src|activities|workflows)/', pathNot: '^src/features/browser-sessions/sandbox/runtime/' },
    },
    {
      name: 'only-entry-points-see-all-settings',
      comment:
        'src/config.ts composes every section of the settings, features\' included: the platform, the job engine, page code and each feature name only the sections they read (docs/architecture.md, "Settings"); entry points and the feature list load or carry the whole.',
      severity: 'error',
      from: { path: '^src/(platform|jobs|page|features/[^/]+)/' },
      to: { path: '^src/config\\.ts$' },
    },
    {
      name: 'formats-stay-apart',
      comment:
        'A scrape format\'s module (src/page/formats/<format>/) imports no other format\'s module and not the registry: what formats share is in src/page/formats/*.ts or elsewhere in src/page; only the registry imports them all (docs/architecture.md, "Adding a format").',
      severity: 'error',
      from: { path: '^src/page/formats/([^/]+)/' },
      to: { path: '^src/page/formats/', pathNot: '^src/page/formats/($1/|(?!registry[.]ts$)[^/]+[.]ts$)' },
    },
    {
      name: 'no-circular-layers',
      comment: 'Modules that need each other at run time are one module, or one of them is in the wrong place (a cycle of types alone costs nothing).',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true, dependencyTypesNot: ['type-only'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^src/generated/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
