// The gateway process: the /v2 HTTP API. Stateless; run as many as load needs.
import type { Server } from 'node:http';
import { FEATURES } from '../features/index.ts';
import { createApp } from '../platform/http/app.ts';
import { attachWebSockets } from '../platform/http/websockets.ts';
import { createTemporalClient } from '../platform/temporal/connection.ts';
import { startOpsServer } from '../platform/process/ops-server.ts';
import { keepIdleConnections } from '../platform/http/idle-connections.ts';
import { serviceReadiness } from '../platform/process/readiness.ts';
import { metricsText } from '../platform/metrics/exposition.ts';
import { bootService, onShutdown, runMain } from './process-helpers.ts';

runMain('gateway', async () => {
  const { config, log, endpoint, db } = await bootService('gateway');
  const temporal = await createTemporalClient(config, endpoint, log);
  const deps = { db, temporal, config, log };
  const app = createApp(deps, FEATURES);

  const server: Server = await new Promise((resolve, reject) => {
    const s = keepIdleConnections(app.listen(config.gateway.port, config.gateway.host, () => resolve(s)));
    s.once('error', (err: NodeJS.ErrnoException) =>
      reject(err.code === 'EADDRINUSE' ? new Error(`port ${config.gateway.port} is already in use; set PORT to another one`) : err),
    );
  });
  const websockets = attachWebSockets(server, deps, FEATURES);
  const ops = await startOpsServer({
    bind: config.ops.bind,
    port: config.ops.gatewayPort,
    log,
    readiness: serviceReadiness({ db, temporal }),
    metrics: () => metricsText(),
  });
  log.info('gateway listening', { host: config.gateway.host, port: config.gateway.port });

  await new Promise<void>((resolve) =>
    onShutdown((why) => {
      log.info('gateway stopping', { why });
      // Stop accepting, let in-flight requests finish, then drop idle keep-alives.
      server.close(() => resolve());
      server.closeIdleConnections();
      websockets.close();
      setTimeout(() => server.closeAllConnections(), 10_000).unref();
    }),
  );
  await ops?.close();
  await temporal.connection.close();
  await db.$disconnect();
  log.info('gateway stopped');
});
