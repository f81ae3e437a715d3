// Small pieces every entry point shares: one-line fatal errors instead of stack
// traces, required settings, the start-up of a service process, and shutting
// down on signals or when the supervising `npm start` dies.
import { loadConfig } from '../config.ts';
import { migrate } from '../platform/db/migrate.ts';
import { createDb } from '../platform/db/prisma.ts';
import { createLogger } from '../platform/log.ts';
import { debugLogRequested } from '../platform/log-config.ts';
import { temporalEndpoint } from '../platform/temporal/connection-options.ts';

export function runMain(name: string, main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (err: unknown) => {
      process.stderr.write(`[${name}] cannot continue: ${err instanceof Error ? err.message : String(err)}\n`);
      if (debugLogRequested() && err instanceof Error) process.stderr.write(`${err.stack}\n`);
      process.exit(1);
    },
  );
}

export function requireSetting(value: string | undefined, name: string): string {
  if (!value) throw new Error(`${name} is not set (npm start sets it; when running this process alone, point it at your server)`);
  return value;
}

/**
 * A child of `npm start` must not outlive it: when the supervisor is killed,
 * the child is re-parented, and then shuts down gracefully.
 */
function exitWithParent(onOrphaned: () => void): void {
  if (process.env.SUPERVISED_BY_PID === undefined) return;
  const parent = Number(process.env.SUPERVISED_BY_PID);
  // Log lines go through the supervisor's pipe; once it is gone they have no reader, and a write
  // failing with EPIPE must not crash the drain that follows.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE') throw err;
  });
  const timer = setInterval(() => {
    try {
      process.kill(parent, 0);
    } catch {
      clearInterval(timer);
      onOrphaned();
    }
  }, 1000);
  timer.unref();
}

/**
 * What the gateway and the worker do first: read config (and the Temporal TLS
 * files), require the external services, apply pending migrations (so a
 * deployment needs no migration step).
 */
export async function bootService(name: string) {
  const config = loadConfig();
  const log = createLogger(config.logLevel, { process: name });
  const databaseUrl = requireSetting(config.database.url, 'DATABASE_URL');
  const endpoint = temporalEndpoint(requireSetting(config.temporal.address, 'TEMPORAL_ADDRESS'), config.temporal);
  await migrate(databaseUrl, log);
  return { config, log, endpoint, db: createDb(databaseUrl, undefined, config.database) };
}

/** Calls `stop` once, on SIGINT, SIGTERM, or the death of the supervising `npm start`. */
export function onShutdown(stop: (why: string) => void): void {
  let stopping = false;
  const once = (why: string) => {
    if (stopping) return;
    stopping = true;
    stop(why);
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => once(signal));
  exitWithParent(() => once('parent exited'));
}
