// The worker process: runs the crawl workflows, their activities and their webhook deliveries.
import { Client } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime } from '@temporalio/worker';
import { connectTemporal } from '../temporal/connection.ts';
import { ensurePurgeSchedule } from '../temporal/purge-schedule.ts';
import { ensureSearchAttributes } from '../temporal/search-attributes.ts';
import { createWorkers } from '../temporal/workers.ts';
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
  const workers = await createWorkers(connection, { db, config, log });

  onShutdown((why) => {
    log.info('worker draining', { why, graceMs: config.worker.shutdownGraceMs });
    for (const worker of workers) worker.shutdown();
  });

  log.info('worker ready', {
    taskQueue: config.temporal.taskQueue,
    webhookTaskQueue: config.temporal.webhookTaskQueue,
    namespace: config.temporal.namespace,
    address,
  });
  await Promise.all(workers.map((worker) => worker.run()));
  await connection.close();
  await db.$disconnect();
  log.info('worker stopped');
});
