// One PostgreSQL LISTEN connection per gateway process, fanned out to the job
// watchers it serves: a stored page is read once per notification however many
// clients watch the job, and nothing is polled. The connection is opened for the
// first watcher and closed with the last. Notifications sent while it was away
// are lost, so after a reconnect every watcher is told to catch up from the tables.
import pg from 'pg';
import type { Db } from '../../platform/db/prisma.ts';
import type { Logger } from '../../platform/log.ts';
import { JOB_EVENTS_CHANNEL, parseJobEvent } from '../../jobs/job-events.ts';

export interface JobListener {
  /** A page of the job was stored (successful pages only; failed ones are not documents). */
  page(pageId: bigint, document: unknown): void;
  ended(): void;
  /** Events may have been missed: catch up from the tables. */
  gap(): void;
}

const RECONNECT_MS = 1_000;

export function createJobFeed(deps: { db: Db; databaseUrl: string; log: Logger }) {
  const listeners = new Map<string, Set<JobListener>>();
  let client: pg.Client | undefined;
  let connecting: Promise<void> | undefined;

  const count = () => [...listeners.values()].reduce((n, s) => n + s.size, 0);

  async function onPage(jobId: string, pageId: bigint): Promise<void> {
    const page = await deps.db.crawlPage.findUnique({ where: { id: pageId }, select: { crawlId: true, success: true, document: true } });
    if (!page?.success || page.crawlId !== jobId) return;
    for (const l of listeners.get(jobId) ?? []) l.page(pageId, page.document);
  }

  function connect(): Promise<void> {
    connecting ??= (async () => {
      const c = new pg.Client({ connectionString: deps.databaseUrl });
      c.on('notification', (msg) => {
        const event = msg.payload === undefined ? undefined : parseJobEvent(msg.payload);
        if (!event || !listeners.has(event.jobId)) return;
        if ('ended' in event) {
          for (const l of listeners.get(event.jobId) ?? []) l.ended();
          return;
        }
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
      // Every watcher left while this connected.
      if (count() === 0) {
        client = undefined;
        connecting = undefined;
        await c.end();
      }
    })().catch((err: unknown) => {
      connecting = undefined;
      throw err;
    });
    return connecting;
  }

  return {
    /** Listens for the job's events; resolves once notifications are flowing. Returns the unsubscribe function. */
    async subscribe(jobId: string, listener: JobListener): Promise<() => void> {
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
        if (count() === 0 && client) {
          const c = client;
          client = undefined;
          connecting = undefined;
          c.end().catch(() => undefined);
        }
      };
    },
  };
}

export type JobFeed = ReturnType<typeof createJobFeed>;
