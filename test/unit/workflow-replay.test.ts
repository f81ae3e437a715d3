// Determinism guard: recorded histories of crawlWorkflow must replay against the
// current workflow code. A change that breaks this needs patched() (see README).
// Record a new fixture with: RECORD_HISTORY=<file> npm test -- --project integration test/integration/crawl.test.ts
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from '@temporalio/worker';
import { describe, expect, it } from 'vitest';
import { WORKFLOWS_PATH } from '../../src/temporal/workflows-path.ts';

const DIR = join(import.meta.dirname, '..', 'fixtures', 'histories');
const files = readdirSync(DIR).filter((f) => f.endsWith('.json'));

describe('crawlWorkflow replay', () => {
  it('has recorded histories to replay', () => {
    expect(files.length).toBeGreaterThan(0);
  });

  for (const file of files) {
    it(`replays ${file}`, { timeout: 60_000 }, async () => {
      const history = JSON.parse(readFileSync(join(DIR, file), 'utf8'));
      await Worker.runReplayHistory({ workflowsPath: WORKFLOWS_PATH }, history, file);
    });
  }
});
