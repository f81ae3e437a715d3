// The browser host process: runs sessions' Chromiums, their sandboxed executes and
// the CDP relay, apart from the crawl worker (which runs the session workflows),
// so a worker restart never touches a session's browser.
import { checkChromiumStarts } from '../platform/browser/chromium-launch.ts';
// This process starts Chromium: its /metrics reports their processes and memory.
import '../platform/browser/chromium-metrics.ts';
import { createBrowserHost } from '../features/browser-sessions/host/browser-host.ts';
import { connectWorkerTemporal } from '../platform/temporal/worker-connection.ts';
import { installSdkRuntime } from '../platform/temporal/sdk-runtime.ts';
import { startOpsServer } from '../platform/process/ops-server.ts';
import { serviceReadiness } from '../platform/process/readiness.ts';
import { pollingCheck } from '../platform/temporal/polling-check.ts';
import { sdkMetricsEndpoint } from '../platform/metrics/sdk-metrics.ts';
import { metricsText } from '../platform/metrics/exposition.ts';
import { bootService, onShutdown, runMain } from './process-helpers.ts';

runMain('browser-host', async () => {
  const { config, log, endpoint, db } = await bootService('browser-host');
  await checkChromiumStarts(config.chromium);
  const sdkMetrics = config.ops.browserHostPort ? await sdkMetricsEndpoint() : undefined;
  installSdkRuntime(log, config.logLevel, sdkMetrics);
  const connection = await connectWorkerTemporal(endpoint);
  const host = await createBrowserHost({ db, config, log, connection });
  const readiness = serviceReadiness({ db, temporal: connection }, { workers: pollingCheck(() => [{ taskQueue: host.taskQueue, state: host.workerState() }]) });
  const ops = await startOpsServer({ bind: config.ops.bind, port: config.ops.browserHostPort, log, readiness, metrics: () => metricsText(sdkMetrics) });
  onShutdown((why) => {
    log.info('browser host stopping', { why });
    void host.stop();
  });
  log.info('browser host ready', { hostId: host.hostId, taskQueue: host.taskQueue, relayUrl: host.relayUrl });
  await host.run();
  await host.stop();
  await ops?.close();
  await connection.close();
  await db.$disconnect();
  log.info('browser host stopped');
});
