import { defineConfig } from 'vitest/config';
import LongestFirst from './test/support/longest-first.ts';

// Two projects: unit tests need nothing; integration tests share one Temporal dev
// server and one PostgreSQL started by test/support/global-setup.ts on free ports
// with temporary data directories (never .data/). Both run in one group on four
// workers, longest file first (test/support/longest-first.ts): the short unit
// files fill the gaps at the end instead of running alone before the first
// integration file starts. Four on two cores, because the long integration files
// spend most of their time waiting (process starts, heartbeat timeouts, slow
// fixture pages): with three, a fresh-clone run kept the two cores 64 % busy.
// A file's imports stay loaded for the next file of its worker (isolate: false):
// a fresh module graph per file cost 1.5 s of every file, 3 s of an integration
// file (324 s of a 745-s run). So no file mocks a module (vi.mock would not reach
// one another file loaded first), every file stops what it starts, and
// test/support/fresh-metrics.ts starts each file's counters at zero.
export default defineConfig({
  test: {
    sequence: { sequencer: LongestFirst },
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          pool: 'forks',
          isolate: false,
          setupFiles: ['test/support/fresh-metrics.ts', 'test/support/file-cpu.ts'],
          maxWorkers: 4,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          pool: 'forks',
          isolate: false,
          globalSetup: ['test/support/global-setup.ts'],
          setupFiles: ['test/support/quiet-runtime.ts', 'test/support/fresh-metrics.ts', 'test/support/file-cpu.ts'],
          testTimeout: 180_000,
          hookTimeout: 180_000,
          fileParallelism: true,
          maxWorkers: 4,
        },
      },
    ],
  },
});
