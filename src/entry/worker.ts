// The worker process: one Temporal worker per resource class (control, browser,
// webhooks) running every feature's workflows and activities, and the features'
// background services (the crawl start reconciler).
import { createActivities } from '../../activities/index.ts';
import { checkChromiumStarts } from '../platform/browser/chromium-launch.ts';
// This process starts Chromium: its /metrics reports their processes and memory.
import '../platform/browser/chromium-metrics.ts';
import { FEATURES } from '../features/index.ts';
import { connectTemporal, temporalClient } from '../platform/temporal/connection.ts';
import { ensureSearchAttributes } from '../platform/temporal/search-attributes.ts';
import { connectWorkerTemporal } from '../platform/temporal/worker-connection.ts';
import { createWorkers } from '../platform/temporal/worker-registry.ts';
import { setHeapGrowth } from '../platform/process/heap-growth.ts';
import { installSdkRuntime } from '../platform/temporal/sdk-runtime.ts';
import { startOpsServer } from '../platform/process/ops-server.ts';
import { serviceReadiness } from '../platform/process/readiness.ts';
import { pollingCheck } from '../platform/temporal/polling-check.ts';
import { sdkMetricsEndpoint } from '../platform/metrics/sdk-metrics.ts';
import { metricsText } from '../platform/metrics/exposition.ts';
import { serveSharedGauges } from '../platform/metrics/shared-gauges.ts';
import { bootService, onShutdown, runMain } from './process-helpers.ts';

runMain('worker', async () => {
  const { config, log, endpoint, db } = await bootService('worker');
  setHeapGrowth(config.worker.heapGrowthPercent);
  // Before any task is polled: a Chromium that cannot start sandboxed stops the worker with one line.
  const browser = await checkChromiumStarts(config.chromium);
  if (!config.chromium.sandbox) log.warn('Chromium runs without its sandbox (CHROMIUM_SANDBOX=false): a page exploiting Chromium runs unconfined');
  const sdkMetrics = config.ops.workerPort ? await sdkMetricsEndpoint() : undefined;
  serveSharedGauges(db);
  installSdkRuntime(log, config.logLevel, sdkMetrics);
  const clientConnection = await connectTemporal(endpoint, log);
  await ensureSearchAttributes(clientConnection, config.temporal.namespace, log);
  const temporal = temporalClient(clientConnection, config.temporal.namespace, log);
  const serviceDeps = { db, config, log, temporal };
  for (const feature of FEATURES) await feature.onWorkerStart?.(serviceDeps);
  const connection = await connectWorkerTemporal(endpoint);
  const workers = await createWorkers(connection, config, await createActivities({ db, config, log, temporal }));
  const services = FEATURES.flatMap((feature) => feature.workerServices?.(serviceDeps) ?? []);
  const readiness = serviceReadiness(
    { db, temporal: connection },
    { workers: pollingCheck(() => workers.map((worker) => ({ taskQueue: worker.options.taskQueue, state: worker.getState() }))) },
  );
  const ops = await startOpsServer({ bind: config.ops.bind, port: config.ops.workerPort, log, readiness, metrics: () => metricsText(sdkMetrics) });

  onShutdown((why) => {
    log.info('worker draining', { why, graceMs: config.worker.shutdownGraceMs });
    for (const worker of workers) worker.shutdown();
  });

  log.info('worker ready', {
    taskQueue: config.temporal.taskQueue,
    browserTaskQueue: config.temporal.browserTaskQueue,
    scrapeTaskQueue: config.temporal.scrapeTaskQueue,
    scrapeSlots: config.worker.scrapeSlots,
    webhookTaskQueue: config.temporal.webhookTaskQueue,
    browserSlots: config.worker.browserSlots,
    chromium: { sandbox: config.chromium.sandbox, uid: browser.user?.uid ?? process.getuid?.() },
    namespace: config.temporal.namespace,
    address: endpoint.address,
    tls: endpoint.tls !== undefined,
  });
  await Promise.all(workers.map((worker) => worker.run()));
  await Promise.all(services.map((s) => s.stop()));
  await ops?.close();
  await connection.close();
  await clientConnection.close();
  await db.$disconnect();
  log.info('worker stopped');
});
