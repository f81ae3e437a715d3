// Determinism guard: recorded histories of our workflows must replay against the
// current workflow code. A change that breaks this needs patched() (see docs/patches.md).
// Record new fixtures with: RECORD_HISTORY=<file> npm test -- test/integration/crawl.test.ts
// (a plain crawl) or RECORD_HISTORY_DIR=<dir> npm test -- test/integration/webhooks.test.ts
// (a crawl with a webhook, and its delivery workflow) or RECORD_HISTORY_DIR=<dir> npm test --
// test/integration/crawl-workflow.test.ts (a crawl cancelled while batches run, stub activities).
// crawl-cancelled-before-patch.json was recorded before the 'cancel-waits-for-batches' patch.
// The job workflow ran as type crawlWorkflow before it was named jobWorkflow: the fixtures recorded then say
// crawlWorkflow (workflows/index.ts still registers that name for the runs open at the upgrade), and each of
// them also replays as jobWorkflow, the same function. job-cancelled.json is recorded under the new type
// (RECORD_HISTORY_DIR=<dir> npm test -- test/integration/crawl-workflow.test.ts).
// RECORD_HISTORY_DIR=<dir> npm test -- test/integration/browser-sessions.test.ts records a browser session
// (CDP touches, an execute Update, the destroy signal). RECORD_HISTORY_DIR=<dir> npm test --
// test/integration/browser-session-crash.test.ts records browser-session-host-lost.json: a session whose host was
// killed during an execute, which the session's end cancels ('executes-end-with-session').
// RECORD_HISTORY_DIR=<dir> npm test -- test/integration/crawl-progress.test.ts records crawl-progress.json: a
// crawl with a delay on the 'progress-search-attributes' patch (PagesCrawled/PagesQueued upserts, summaries).
// RECORD_HISTORY_DIR=<dir> npm test -- test/integration/monitors.test.ts records monitor-check.json: a manual monitor
// check (open, commit jobs, a crawl and a batch scrape as child workflows, finish, judge, notify);
// monitor-check-judge-before-end.json, recorded the same way with 'monitor-judge-before-end', ends the check after the judge.
// RECORD_HISTORY_DIR=<dir> npm test -- test/integration/extract.test.ts records extract.json: an extract with a webhook
// (open, started event, commit jobs, a batch scrape and a crawl as child workflows, the model, completed event).
// RECORD_HISTORY_DIR=<dir> npm test -- test/integration/agent.test.ts records agent.json: an agent that searches,
// scrapes and maps (a model step and a tool step each, with summaries and current details), then answers.
// RECORD_HISTORY_DIR=<dir> npm test -- test/integration/agent-sdk.test.ts -t 'webhook events' records agent-with-webhook.json
// (a run that starts its deliveries as a child workflow) and agent-webhooks.json (those deliveries).
// RECORD_HISTORY_DIR=<dir> npm test -- test/integration/single-scrape-workflow.test.ts records
// single-scrape-one-local-activity.json: a single scrape started with its scrapeSettled update, its settings, plan and
// browser demand one local activity ('single-scrape-one-local-activity'). single-scrape.json, recorded the same way
// before that patch, plans in a local activity of its own ('single-scrape-local-plan'). The same command records
// single-scrape-patch-baseline.json: one 'job-patch-baseline' marker for every patch of the job workflow before it.
// crawl-with-webhook-patch-baseline.json is crawl-with-webhook.json recorded (webhooks.test.ts) under that marker.
// RECORD_HISTORY_DIR=<dir> npm test -- test/integration/job-controls.test.ts records crawl-pause-adjust.json: a crawl
// whose batches report progress by signal ('batch-progress-reports'), adjusted by `adjust` updates (one refused by the
// database), paused and resumed twice by signals (local activities recording it, a held pause's timer), across a worker restart.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from '@temporalio/worker';
import { beforeAll, describe, expect, it } from 'vitest';
import { bundleWorkflows } from '../../src/platform/temporal/workflow-code.ts';
import * as workflows from '../../workflows/index.ts';
import { JOB_WORKFLOW_TYPE, LEGACY_JOB_WORKFLOW_TYPE } from '../../src/jobs/job-workflow-options.ts';

const DIR = join(import.meta.dirname, '..', 'fixtures', 'histories');
const files = readdirSync(DIR).filter((f) => f.endsWith('.json'));

interface HistoryJson {
  events: { workflowExecutionStartedEventAttributes?: { workflowType?: { name?: string } } }[];
}
const read = (file: string): HistoryJson => JSON.parse(readFileSync(join(DIR, file), 'utf8'));
const typeOf = (history: HistoryJson) => history.events[0]?.workflowExecutionStartedEventAttributes?.workflowType?.name;
const legacyJobFiles = files.filter((f) => typeOf(read(f)) === LEGACY_JOB_WORKFLOW_TYPE);

describe('workflow replay', () => {
  // One bundle for every history, as a worker has (with the workers' workflow interceptors, which must leave
  // the commands of a run unchanged): bundling costs seconds of CPU, a replay a fraction of one.
  let code: string;
  beforeAll(async () => {
    code = await bundleWorkflows();
  }, 120_000);

  it('has recorded histories to replay', () => {
    expect(files.length).toBeGreaterThan(0);
  });

  for (const file of files) {
    it(`replays ${file}`, { timeout: 60_000 }, async () => {
      await Worker.runReplayHistory({ workflowBundle: { code } }, read(file), file);
    });
  }

  it('registers the job workflow under its old type too, as the same function', () => {
    expect(workflows.crawlWorkflow).toBe(workflows.jobWorkflow);
    expect(workflows.crawlWebhooksWorkflow).toBe(workflows.jobWebhooksWorkflow);
    expect(legacyJobFiles.length).toBeGreaterThan(0);
    expect(files.filter((f) => typeOf(read(f)) === JOB_WORKFLOW_TYPE)).not.toEqual([]);
  });

  for (const file of legacyJobFiles) {
    it(`replays ${file} as ${JOB_WORKFLOW_TYPE}`, { timeout: 60_000 }, async () => {
      const history = read(file);
      history.events[0]!.workflowExecutionStartedEventAttributes!.workflowType!.name = JOB_WORKFLOW_TYPE;
      await Worker.runReplayHistory({ workflowBundle: { code } }, history, `${file} as ${JOB_WORKFLOW_TYPE}`);
    });
  }
});
