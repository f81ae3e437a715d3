import { defineConfig } from 'vitest/config';

// `npm run fuzz`: the full HTTP route fuzzer, on the integration project's servers
// (test/support/global-setup.ts). `npm test` runs the same requests in-process and a
// small seeded HTTP pass instead (see test/fuzz/fuzz-routes.test.ts). It also runs
// the property tests of the unit project with every sample of their full counts,
// where `npm test` draws a quarter of them (test/support/property-runs.ts).
export default defineConfig({
  test: {
    name: 'fuzz',
    include: ['test/fuzz/**/*.test.ts', 'test/unit/**/*.property.test.ts'],
    env: { PROPERTY_RUNS: 'full' },
    pool: 'forks',
    globalSetup: ['test/support/global-setup.ts'],
    setupFiles: ['test/support/quiet-runtime.ts'],
    hookTimeout: 180_000,
  },
});
