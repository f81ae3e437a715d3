import { defineConfig } from 'vitest/config';

// Two projects: unit tests need nothing; integration tests share one Temporal dev
// server and one PostgreSQL started by test/support/global-setup.ts on free ports
// with temporary data directories (never .data/).
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          pool: 'forks',
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          sequence: { groupOrder: 1 },
          pool: 'forks',
          globalSetup: ['test/support/global-setup.ts'],
          setupFiles: ['test/support/quiet-runtime.ts'],
          testTimeout: 180_000,
          hookTimeout: 180_000,
          fileParallelism: true,
          maxWorkers: 2,
        },
      },
    ],
  },
});
