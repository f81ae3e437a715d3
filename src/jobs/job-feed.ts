// One PostgreSQL LISTEN connection per gateway process, fanned out to the
// listeners it serves (job watchers, single scrapes waiting for their page): a
// stored page is read once per notification however many clients watch the job,
// and nothing is polled. The connection is opened for the first listener and
// closed with the last (or `lingerMs` after it). Notifications sent while it was away are lost,
// so after a reconnect every listener is told to catch up from the tables.
import pg from 'pg';
import { DEFAULT_DB_LIMITS, poolLimits, type Db, type DbLimits } from '../platform/db/prisma.ts';
import type { Logger } from '../platform/log.ts';
import { JOB_EVENTS_CHANNEL, parseJobEvent } from './job-events.ts';
import { JobListeners, type JobListener } from './job-listeners.ts';

export type { JobListener } from './job-listeners.ts';

const RECONNECT_MS = 1_000;

/** The feed connection's application_name: one per process. */
export const jobFeedConnectionName = () => `crawl-service job feed ${process.pid}`;

interface FeedDeps {
  db: Db;
  databaseUrl: string;
  log: Logger;
  /** How long the connection stays open after its last listener left (0: it closes with it). */
  lingerMs?: number;
  limits?: DbLimits;
}

export function createJobFeed(deps: FeedDeps) {
  const lingerMs = deps.lingerMs ?? 0;
  const listeners = new JobListeners();
  let client: pg.Client | undefined;
  let connecting: Promise<void> | undefined;
  let lingering: NodeJS.Timeout | undefined;

  const onEvent = (payload: string | undefined) => {
    const event = payload === undefined ? undefined : parseJobEvent(payload);
    const pageId = event && listeners.tell(event);
    if (!event || pageId === undefined) return;
    sendDocument(deps.db, listeners, event.jobId, pageId).catch((err: unknown) =>
      deps.log.warn('job feed read failed', { jobId: event.jobId, error: (err as Error).message }),
    );
  };

  const lost = (c: pg.Client, err?: Error) => {
    if (client !== c) return;
    client = undefined;
    connecting = undefined;
    c.end().catch(() => undefined);
    if (listeners.size === 0) return;
    deps.log.warn('job feed connection lost; reconnecting', { error: err?.message });
    setTimeout(() => {
      if (listeners.size === 0) return;
      connect()
        .then(() => listeners.gap())
        .catch(() => lost(c));
    }, RECONNECT_MS);
  };

  function connect(): Promise<void> {
    connecting ??= openFeedClient(deps, onEvent, lost)
      .then((c) => {
        client = c;
        // Every listener left while this connected.
        if (listeners.size === 0) closeIdle();
      })
      .catch((err: unknown) => {
        connecting = undefined;
        throw err;
      });
    return connecting;
  }

  /** Closes the connection once nobody listened for `lingerMs`. */
  const closeIdle = () => {
    const close = () => {
      if (listeners.size > 0 || !client) return;
      const c = client;
      client = undefined;
      connecting = undefined;
      c.end().catch(() => undefined);
    };
    clearTimeout(lingering);
    if (lingerMs === 0) return close();
    lingering = setTimeout(close, lingerMs);
    lingering.unref();
  };

  return {
    /** Listens for the job's events; resolves once notifications are flowing. Returns the unsubscribe function. */
    async subscribe(jobId: string, listener: JobListener): Promise<() => void> {
      clearTimeout(lingering);
      listeners.add(jobId, listener);
      try {
        await connect();
      } catch (err) {
        listeners.remove(jobId, listener);
        throw err;
      }
      return () => {
        listeners.remove(jobId, listener);
        if (listeners.size === 0) closeIdle();
      };
    },
  };
}

/** Opens the LISTEN connection, its events and its loss handed to the feed. */
async function openFeedClient(
  deps: Pick<FeedDeps, 'databaseUrl' | 'limits'>,
  onEvent: (payload: string | undefined) => void,
  onLost: (c: pg.Client, err?: Error) => void,
): Promise<pg.Client> {
  // Named in pg_stat_activity, so an operator (or a test) can tell this process's feed from others'.
  const c = new pg.Client({
    connectionString: deps.databaseUrl,
    application_name: jobFeedConnectionName(),
    ...poolLimits(deps.limits ?? DEFAULT_DB_LIMITS),
  });
  c.on('notification', (msg) => onEvent(msg.payload));
  c.on('error', (err) => onLost(c, err));
  c.on('end', () => onLost(c));
  await c.connect();
  await c.query(`LISTEN ${JOB_EVENTS_CHANNEL}`);
  return c;
}

/** Reads a stored page once and hands its document to the job's listeners that want it. */
async function sendDocument(db: Db, listeners: JobListeners, jobId: string, pageId: bigint): Promise<void> {
  const page = await db.jobPage.findUnique({ where: { id: pageId }, select: { jobId: true, success: true, document: true } });
  if (!page?.success || page.jobId !== jobId) return;
  listeners.page(jobId, pageId, page.document);
}

export type JobFeed = ReturnType<typeof createJobFeed>;
