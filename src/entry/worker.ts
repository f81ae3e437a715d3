// The worker process: runs crawlWorkflow and its activities.
import { Client } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { createActivities } from '../../activities/index.ts';
import { connectTemporal } from '../temporal/connection.ts';
import { ensurePurgeSchedule } from '../temporal/purge-schedule.ts';
import { ensureSearchAttributes } from '../temporal/search-attributes.ts';
import { WORKFLOWS_PATH } from '../temporal/workflows-path.ts';
import { bootService, onShutdown, runMain } from './process-helpers.ts';

runMain('worker', async () => {
  const { config, log, address, db } = await bootService('worker');
  // No SDK signal handlers: ours (onShutdown) decide when the worker drains.
  Runtime.install({ logger: new DefaultLogger(config.logLevel === 'debug' ? 'DEBUG' : 'WARN'), shutdownSignals: [] });
  await connectTemporal(address, log).then(async (c) => {
    await ensureSearchAttributes(c, config.temporal.namespace);
    await ensurePurgeSchedule(new Client({ connection: c, namespace: config.temporal.namespace }), config);
    await c.close();
  });
  const connection = await NativeConnection.connect({ address });
  const worker = await Worker.create({
    connection,
    namespace: config.temporal.namespace,
    taskQueue: config.temporal.taskQueue,
    workflowsPath: WORKFLOWS_PATH,
    activities: createActivities({ db, config, log }),
    maxConcurrentActivityTaskExecutions: config.worker.maxConcurrentBrowserBatches,
    maxCachedWorkflows: 200,
    shutdownGraceTime: config.worker.shutdownGraceMs,
  });

  onShutdown((why) => {
    log.info('worker draining', { why, graceMs: config.worker.shutdownGraceMs });
    worker.shutdown();
  });

  log.info('worker ready', { taskQueue: config.temporal.taskQueue, namespace: config.temporal.namespace, address });
  await worker.run();
  await connection.close();
  await db.$disconnect();
  log.info('worker stopped');
});
