// The servers the children need: PostgreSQL (embedded unless DATABASE_URL is set,
// then migrated) and Temporal (the dev server unless TEMPORAL_ADDRESS is set, then
// given the search attributes). Those this start runs are started again if they die.
import { join } from 'node:path';
import type { Config } from '../../config.ts';
import { startEmbeddedPostgres } from '../../platform/db/embedded-postgres.ts';
import { migrate } from '../../platform/db/migrate.ts';
import type { Logger } from '../../platform/log.ts';
import { pidAlive, tail } from '../../platform/process/detached.ts';
import { watchServer } from '../../platform/process/server-watch.ts';
import { connectTemporal } from '../../platform/temporal/connection.ts';
import { temporalEndpoint } from '../../platform/temporal/connection-options.ts';
import { startTemporalDevServer, type DevServerOptions } from '../../platform/temporal/dev-server.ts';
import { ensureSearchAttributes } from '../../platform/temporal/search-attributes.ts';
import { progress, seconds, type Supervision } from './supervision.ts';

export interface ServerOptions {
  postgres: Parameters<typeof startEmbeddedPostgres>[0];
  temporal: DevServerOptions;
}

export function serverOptions(config: Config, log: Logger): ServerOptions {
  return {
    postgres: { dataDir: config.dataDir, port: config.database.embeddedPort, database: 'crawl', log },
    temporal: {
      cliPath: config.temporal.cliPath,
      dataDir: config.dataDir,
      port: config.temporal.devPort,
      uiPort: config.temporal.devUiPort,
      httpPort: config.temporal.devHttpPort,
      metricsPort: config.temporal.devMetricsPort,
      namespace: config.temporal.namespace,
      persist: true,
      log,
    },
  };
}

/** The database URL, its migrations applied. */
export async function startDatabase(config: Config, log: Logger, options: ServerOptions, supervision: Supervision): Promise<string> {
  let databaseUrl = config.database.url;
  if (databaseUrl) {
    progress('PostgreSQL: using DATABASE_URL');
  } else {
    const t = Date.now();
    const pg = (supervision.pg = await startEmbeddedPostgres(options.postgres));
    supervision.checkpoint();
    databaseUrl = pg.url;
    const how = pg.adopted ? 'adopted the embedded server an earlier start left running' : 'embedded server';
    progress(`PostgreSQL: ${how} on 127.0.0.1:${config.database.embeddedPort}, data in ${config.dataDir}/postgres (${seconds(t)})`);
  }
  const applied = await supervision.step(migrate(databaseUrl, log));
  progress(applied.length ? `migrations applied: ${applied.join(', ')}` : 'migrations: up to date');
  return databaseUrl;
}

/** Temporal's address and UI, its search attributes registered. */
export async function startTemporal(
  config: Config,
  log: Logger,
  options: ServerOptions,
  supervision: Supervision,
): Promise<{ address: string; uiUrl: string | undefined }> {
  let address = config.temporal.address;
  let uiUrl = config.temporal.uiUrl;
  if (address) {
    progress(`Temporal: using TEMPORAL_ADDRESS=${address}${config.temporal.tls ? ' over TLS' : ''}`);
  } else {
    const t = Date.now();
    const server = (supervision.temporalServer = await startTemporalDevServer(options.temporal));
    supervision.checkpoint();
    address = server.address;
    uiUrl ??= server.uiUrl;
    const how = server.adopted ? 'adopted the dev server an earlier start left running' : 'dev server';
    progress(`Temporal: ${how} on ${address}, history in ${config.dataDir}/temporal.db (${seconds(t)})`);
  }
  const server = supervision.temporalServer;
  const connection = await connectTemporal(temporalEndpoint(address, config.temporal), log).catch((err: Error) => {
    if (!server) throw err;
    const state = pidAlive(server.pid) ? 'is running but does not answer' : 'has exited';
    throw new Error(
      `${err.message}; the dev server (pid ${server.pid}) ${state}; last lines of ${config.dataDir}/temporal.log:\n${tail(join(config.dataDir, 'temporal.log'))}`,
    );
  });
  const added = await supervision.step(ensureSearchAttributes(connection, config.temporal.namespace, log).finally(() => connection.close()));
  if (added.length) progress(`Temporal: registered search attributes ${added.join(', ')}`);
  return { address, uiUrl };
}

/** PostgreSQL and the Temporal dev server, when this start runs them, are started again if they die. */
export function watchServers(options: ServerOptions, supervision: Supervision): void {
  const giveUp = (why: string) => {
    progress(`${why}; stopping everything`);
    void supervision.shutdown(1);
  };
  if (supervision.pg?.pid !== undefined) {
    supervision.serverWatches.push(
      watchServer({
        name: 'PostgreSQL',
        isAlive: () => supervision.pg?.pid !== undefined && pidAlive(supervision.pg.pid),
        restart: async () => {
          supervision.pg = await startEmbeddedPostgres(options.postgres);
        },
        report: progress,
        giveUp,
      }),
    );
  }
  if (supervision.temporalServer) {
    supervision.serverWatches.push(
      watchServer({
        name: 'the Temporal dev server',
        isAlive: () => supervision.temporalServer !== undefined && pidAlive(supervision.temporalServer.pid),
        restart: async () => {
          supervision.temporalServer = await startTemporalDevServer(options.temporal);
        },
        report: progress,
        giveUp,
      }),
    );
  }
}
