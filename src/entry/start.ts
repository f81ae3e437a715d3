// `npm start`: the whole service on one machine. Brings up PostgreSQL (embedded
// unless DATABASE_URL is set), applies migrations, the Temporal dev server
// (unless TEMPORAL_ADDRESS is set), then one worker, a browser host and the gateway as child
// processes, restarting either if it dies. Ctrl-C / SIGTERM stops everything in
// reverse order: the gateway stops accepting, the worker drains, servers stop.
// A start that fails or is stopped midway stops what it had already started.
import { loadConfig, type Config } from '../config.ts';
import { createDb } from '../platform/db/prisma.ts';
import { publicBase } from '../platform/http/public-url.ts';
import { createLogger, type Logger } from '../platform/log.ts';
import { withMallocArenas } from '../platform/process/malloc-arenas.ts';
import { ensureDefaultTeam } from '../platform/teams/teams.ts';
import { metricsUrl, pickOpsPorts, supervisedChildren, type OpsPorts } from './start/children.ts';
import { launch } from './start/launch-child.ts';
import { readyBanner } from './start/ready-banner.ts';
import { serverOptions, startDatabase, startTemporal, watchServers, type ServerOptions } from './start/servers.ts';
import { progress, seconds, StartStopped, Supervision } from './start/supervision.ts';
import { runMain } from './process-helpers.ts';

runMain('start', async () => {
  const t0 = Date.now();
  const config = loadConfig();
  const log = createLogger(config.logLevel, { process: 'start' });
  const ports = await pickOpsPorts(config);
  const supervision = new Supervision(supervisedChildren(config, ports), config.worker.shutdownGraceMs + 15_000);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => supervision.onSignal(signal));
  const servers = serverOptions(config, log);
  try {
    await startAll(config, log, servers, ports, supervision, t0);
    supervision.phase = 'running';
    watchServers(servers, supervision);
  } catch (err) {
    supervision.phase = 'stopping';
    await supervision.stopAll();
    if (err instanceof StartStopped) {
      progress('stopped');
      return;
    }
    throw err;
  }
  await new Promise(() => undefined);
});

async function startAll(config: Config, log: Logger, servers: ServerOptions, ports: OpsPorts, supervision: Supervision, t0: number) {
  const databaseUrl = await startDatabase(config, log, servers, supervision);
  const temporal = await startTemporal(config, log, servers, supervision);
  const db = createDb(databaseUrl, 2);
  const team = await supervision.step(ensureDefaultTeam(db, config.defaultTeam).finally(() => db.$disconnect()));

  const childEnv = {
    ...withMallocArenas(process.env),
    DATABASE_URL: databaseUrl,
    TEMPORAL_ADDRESS: temporal.address,
    WORKER_OPS_PORT: String(ports.worker),
    BROWSER_HOST_OPS_PORT: String(ports.browserHost),
    GATEWAY_OPS_PORT: String(ports.gateway),
    SUPERVISED_BY_PID: String(process.pid),
  };
  const t = Date.now();
  await supervision.step(Promise.all(supervision.children.map((s) => launch(s, childEnv, supervision))));
  progress(`worker, browser host and gateway ready (${seconds(t)})`);

  const banner = readyBanner({
    apiBase: publicBase(config),
    temporalUiUrl: temporal.uiUrl,
    metrics: { gateway: metricsUrl(config, ports.gateway), worker: metricsUrl(config, ports.worker), browserHost: metricsUrl(config, ports.browserHost) },
    newKey: team.key,
    readyIn: seconds(t0),
    dataDir: config.dataDir,
  });
  process.stderr.write(banner);
}
