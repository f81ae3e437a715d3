// The Temporal workers of one worker process: the crawl queue (workflows, and
// browser batches limited to what the machine can run) and the webhook queue
// (delivery loops: network waits only, so many at once, and never in a browser
// batch's place).
import { Worker, type NativeConnection } from '@temporalio/worker';
import { createActivities, type ActivityDeps } from '../../activities/index.ts';
import { createWebhookActivities } from '../../activities/webhooks.ts';
import { WORKFLOWS_PATH } from './workflows-path.ts';

const WEBHOOK_LOOPS_PER_WORKER = 200;
// A delivery loop has nothing to finish: cancelled, it stops and another worker takes
// the crawl's outbox over, so a worker's shutdown never waits for one.
const WEBHOOK_SHUTDOWN_GRACE_MS = 2000;

export async function createWorkers(connection: NativeConnection, deps: ActivityDeps): Promise<Worker[]> {
  const { config } = deps;
  const common = {
    connection,
    namespace: config.temporal.namespace,
    shutdownGraceTime: config.worker.shutdownGraceMs,
    // The SDK sends heartbeats at most every 0.8 × the heartbeat timeout, which leaves a busy
    // worker 20 % of slack before its activity is timed out and retried elsewhere (with its
    // pages fetched twice). Every quarter of the timeout leaves 75 %.
    maxHeartbeatThrottleInterval: Math.max(1000, Math.floor(config.crawl.heartbeatTimeoutMs / 4)),
  };
  return Promise.all([
    Worker.create({
      ...common,
      taskQueue: config.temporal.taskQueue,
      workflowsPath: WORKFLOWS_PATH,
      activities: createActivities(deps),
      maxConcurrentActivityTaskExecutions: config.worker.maxConcurrentBrowserBatches,
      maxCachedWorkflows: 200,
    }),
    Worker.create({
      ...common,
      taskQueue: config.temporal.webhookTaskQueue,
      activities: createWebhookActivities(deps),
      maxConcurrentActivityTaskExecutions: WEBHOOK_LOOPS_PER_WORKER,
      shutdownGraceTime: WEBHOOK_SHUTDOWN_GRACE_MS,
    }),
  ]);
}
