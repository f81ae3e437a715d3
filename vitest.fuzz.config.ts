import { defineConfig } from 'vitest/config';

// `npm run fuzz`: the full HTTP route fuzzer, on the integration project's servers
// (test/support/global-setup.ts). `npm test` runs the same requests in-process and a
// small seeded HTTP pass instead (see test/fuzz/fuzz-routes.test.ts).
export default defineConfig({
  test: {
    name: 'fuzz',
    include: ['test/fuzz/**/*.test.ts'],
    pool: 'forks',
    globalSetup: ['test/support/global-setup.ts'],
    setupFiles: ['test/support/quiet-runtime.ts'],
    hookTimeout: 180_000,
  },
});
