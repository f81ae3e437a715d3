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

export interface JobListener {
  /** A page of the job was stored, with its document (successful pages only; failed ones are not documents). */
  page?(pageId: bigint, document: unknown): void;
  /** A successful page of the job was stored (committed): told at once, without reading it. */
  stored?(pageId: bigint): void;
  ended(): void;
  /** Events may have been missed: catch up from the tables. */
  gap(): void;
}

const RECONNECT_MS = 1_000;

/** The feed connection's application_name: one per process. */
export const jobFeedConnectionName = () => `crawl-service job feed ${process.pid}`;

/** `lingerMs`: how long the connection stays open after its last listener left (0: it closes with it). */
export function createJobFeed(deps: { db: Db; databaseUrl: string; log: Logger; lingerMs?: number; limits?: DbLimits }) {
  const lingerMs = deps.lingerMs ?? 0;
  const listeners = new Map<string, Set<JobListener>>();
  let client: pg.Client | undefined;
  let connecting: Promise<void> | undefined;

  const count = () => [...listeners.values()].reduce((n, s) => n + s.size, 0);

  async function onPage(jobId: string, pageId: bigint): Promise<void> {
    if (![...(listeners.get(jobId) ?? [])].some((l) => l.page)) return;
    const page = await deps.db.crawlPage.findUnique({ where: { id: pageId }, select: { crawlId: true, success: true, document: true } });
    if (!page?.success || page.crawlId !== jobId) return;
    for (const l of listeners.get(jobId) ?? []) l.page?.(pageId, page.document);
  }

  function connect(): Promise<void> {
    connecting ??= (async () => {
      // Named in pg_stat_activity, so an operator (or a test) can tell this process's feed from others'.
      const c = new pg.Client({
        connectionString: deps.databaseUrl,
        application_name: jobFeedConnectionName(),
        ...poolLimits(deps.limits ?? DEFAULT_DB_LIMITS),
      });
      c.on('notification', (msg) => {
        const event = msg.payload === undefined ? undefined : parseJobEvent(msg.payload);
        if (!event || !listeners.has(event.jobId)) return;
        if ('ended' in event) {
          for (const l of listeners.get(event.jobId) ?? []) l.ended();
          return;
        }
        for (const l of listeners.get(event.jobId) ?? []) l.stored?.(event.pageId);
        onPage(event.jobId, event.pageId).catch((err: unknown) => deps.log.warn('job feed read failed', { jobId: event.jobId, error: (err as Error).message }));
      });
      const lost = (err?: Error) => {
        if (client !== c) return;
        client = undefined;
        connecting = undefined;
        c.end().catch(() => undefined);
        if (count() === 0) return;
        deps.log.warn('job feed connection lost; reconnecting', { error: err?.message });
        setTimeout(() => {
          if (count() === 0) return;
          connect()
            .then(() => listeners.forEach((set) => set.forEach((l) => l.gap())))
            .catch(() => lost());
        }, RECONNECT_MS);
      };
      c.on('error', lost);
      c.on('end', () => lost());
      await c.connect();
      await c.query(`LISTEN ${JOB_EVENTS_CHANNEL}`);
      client = c;
      // Every listener left while this connected.
      if (count() === 0) closeIdle();
    })().catch((err: unknown) => {
      connecting = undefined;
      throw err;
    });
    return connecting;
  }

  let lingering: NodeJS.Timeout | undefined;
  /** Closes the connection once nobody listened for `lingerMs`. */
  const closeIdle = () => {
    const close = () => {
      if (count() > 0 || !client) return;
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
      let set = listeners.get(jobId);
      if (!set) listeners.set(jobId, (set = new Set()));
      set.add(listener);
      try {
        await connect();
      } catch (err) {
        set.delete(listener);
        throw err;
      }
      return () => {
        set.delete(listener);
        if (set.size === 0) listeners.delete(jobId);
        if (count() === 0) closeIdle();
      };
    },
  };
}

export type JobFeed = ReturnType<typeof createJobFeed>;
