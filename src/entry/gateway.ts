// The gateway process: the /v2 HTTP API. Stateless; run as many as load needs.
import type { Server } from 'node:http';
import { loadConfig } from '../config.ts';
import { migrate } from '../db/migrate.ts';
import { createDb } from '../db/prisma.ts';
import { createApp } from '../gateway/app.ts';
import { createLogger } from '../log.ts';
import { createTemporalClient } from '../temporal/connection.ts';
import { exitWithParent, requireSetting, runMain } from './process-helpers.ts';

runMain('gateway', async () => {
  const config = loadConfig();
  const log = createLogger(config.logLevel, { process: 'gateway' });
  const databaseUrl = requireSetting(config.database.url, 'DATABASE_URL');
  const address = requireSetting(config.temporal.address, 'TEMPORAL_ADDRESS');

  await migrate(databaseUrl, log);
  const db = createDb(databaseUrl);
  const temporal = await createTemporalClient(config, address, log);
  const app = createApp({ db, temporal, config, log });

  const server: Server = await new Promise((resolve, reject) => {
    const s = app.listen(config.gateway.port, config.gateway.host, () => resolve(s));
    s.once('error', (err: NodeJS.ErrnoException) =>
      reject(err.code === 'EADDRINUSE' ? new Error(`port ${config.gateway.port} is already in use; set PORT to another one`) : err),
    );
  });
  log.info('gateway listening', { host: config.gateway.host, port: config.gateway.port });

  await new Promise<void>((resolve) => {
    let stopping = false;
    const stop = (why: string) => {
      if (stopping) return;
      stopping = true;
      log.info('gateway stopping', { why });
      // Stop accepting, let in-flight requests finish, then drop idle keep-alives.
      server.close(() => resolve());
      server.closeIdleConnections();
      setTimeout(() => server.closeAllConnections(), 10_000).unref();
    };
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => stop(signal));
    exitWithParent(() => stop('parent exited'));
  });
  await temporal.connection.close();
  await db.$disconnect();
  log.info('gateway stopped');
});
