// The Temporal workers of one worker process, one per resource class, so work of
// one class never waits for a slot of another: the control queue (every workflow but
// single scrapes', and activities that only touch the database), the browser queue
// (scrape batches, at most WORKER_BROWSER_SLOTS at once, each with its Chromium), the
// scrape queue (single scrapes: their workflows, their one-page batches and their few
// control activities, WORKER_SCRAPE_SLOTS activities at once: a rendered page shares
// the warm Chromium) and the webhook queue (delivery loops: network waits only, so
// many at once).
import { Worker, type NativeConnection } from '@temporalio/worker';
import type { FeatureActivities } from '../feature.ts';
import type { TemporalSettings, WorkerSettings } from './config.ts';
import { requestIdActivityInterceptor } from './request-id-activity-interceptor.ts';
import { workflowCodeOptions } from './workflow-code.ts';

const WEBHOOK_LOOPS_PER_WORKER = 200;
// A single scrape's run lasts one page: few are cached at once.
const SCRAPE_WORKFLOWS_CACHED = 50;
// A delivery loop has nothing to finish: cancelled, it stops and another worker takes
// the crawl's outbox over, so a worker's shutdown never waits for one.
const WEBHOOK_SHUTDOWN_GRACE_MS = 2000;

/** The settings the workers read; a crawl batch's heartbeat timeout sets how often heartbeats are sent. */
export interface WorkerRegistryConfig {
  temporal: TemporalSettings;
  worker: WorkerSettings;
  crawl: { heartbeatTimeoutMs: number };
}

/** A quarter of the scrape slots poll for batches another worker scheduled (retries, a busy worker's overflow); the rest take their own eagerly. */
export function scrapePolls(slots: number): number {
  return Math.max(1, Math.floor(slots / 4));
}

export async function createWorkers(connection: NativeConnection, config: WorkerRegistryConfig, activities: Required<FeatureActivities>): Promise<Worker[]> {
  const common = {
    connection,
    namespace: config.temporal.namespace,
    shutdownGraceTime: config.worker.shutdownGraceMs,
    // The SDK sends heartbeats at most every 0.8 × the heartbeat timeout, which leaves a busy
    // worker 20 % of slack before its activity is timed out and retried elsewhere (with its
    // pages fetched twice). Every quarter of the timeout leaves 75 %.
    maxHeartbeatThrottleInterval: Math.max(1000, Math.floor(config.crawl.heartbeatTimeoutMs / 4)),
    interceptors: { activity: [requestIdActivityInterceptor] },
  };
  const workflowCode = await workflowCodeOptions(config.temporal.workflowBundlePath);
  return Promise.all([
    Worker.create({
      ...common,
      taskQueue: config.temporal.taskQueue,
      ...workflowCode,
      activities: activities.control,
      maxConcurrentActivityTaskExecutions: config.worker.controlSlots,
      maxCachedWorkflows: 200,
    }),
    Worker.create({
      ...common,
      taskQueue: config.temporal.browserTaskQueue,
      activities: activities.browser,
      maxConcurrentActivityTaskExecutions: config.worker.browserSlots,
    }),
    // Single scrapes' workflows run here beside their page's batch: the worker that completes
    // the workflow task scheduling the batch is handed the batch in the same answer (eager
    // activity dispatch), which saves the server's dispatch to another queue (25-35 ms of a
    // 140-ms scrape, docs/benchmarks.md). Their control activities come here too.
    Worker.create({
      ...common,
      taskQueue: config.temporal.scrapeTaskQueue,
      ...workflowCode,
      activities: { ...activities.control, ...activities.browser },
      maxConcurrentActivityTaskExecutions: config.worker.scrapeSlots,
      // Each waiting poll holds a slot, and a batch is handed over eagerly only while a slot is
      // free: with as many polls as slots (the SDK's default up to 10) none ever is.
      activityTaskPollerBehavior: { type: 'simple-maximum', maximum: scrapePolls(config.worker.scrapeSlots) },
      maxCachedWorkflows: SCRAPE_WORKFLOWS_CACHED,
    }),
    Worker.create({
      ...common,
      taskQueue: config.temporal.webhookTaskQueue,
      activities: activities.io,
      maxConcurrentActivityTaskExecutions: WEBHOOK_LOOPS_PER_WORKER,
      shutdownGraceTime: WEBHOOK_SHUTDOWN_GRACE_MS,
    }),
  ]);
}
