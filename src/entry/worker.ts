// The worker process: runs crawlWorkflow and its activities. Applies pending
// migrations first, so a deployment needs no separate migration step.
import { DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { createActivities } from '../../activities/index.ts';
import { loadConfig } from '../config.ts';
import { migrate } from '../db/migrate.ts';
import { createDb } from '../db/prisma.ts';
import { createLogger } from '../log.ts';
import { connectTemporal } from '../temporal/connection.ts';
import { ensureSearchAttributes } from '../temporal/search-attributes.ts';
import { WORKFLOWS_PATH } from '../temporal/workflows-path.ts';
import { exitWithParent, requireSetting, runMain } from './process-helpers.ts';

runMain('worker', async () => {
  const config = loadConfig();
  const log = createLogger(config.logLevel, { process: 'worker' });
  const databaseUrl = requireSetting(config.database.url, 'DATABASE_URL');
  const address = requireSetting(config.temporal.address, 'TEMPORAL_ADDRESS');

  await migrate(databaseUrl, log);
  const db = createDb(databaseUrl);
  // Workflow threads hold "native" memory outside the JS heap; the SDK logs through ours.
  Runtime.install({ logger: new DefaultLogger(config.logLevel === 'debug' ? 'DEBUG' : 'WARN'), shutdownSignals: [] });
  await connectTemporal(address, log).then(async (c) => {
    await ensureSearchAttributes(c, config.temporal.namespace);
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

  let stopping = false;
  const stop = (why: string) => {
    if (stopping) return;
    stopping = true;
    log.info('worker draining', { why, graceMs: config.worker.shutdownGraceMs });
    worker.shutdown();
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => stop(signal));
  exitWithParent(() => stop('parent exited'));

  log.info('worker ready', { taskQueue: config.temporal.taskQueue, namespace: config.temporal.namespace, address });
  await worker.run();
  await connection.close();
  await db.$disconnect();
  log.info('worker stopped');
});
