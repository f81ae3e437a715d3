// One watcher of one job over a WebSocket, in the messages the official JS SDK's
// watcher reads: `catchup` (a status snapshot with the documents stored so far),
// then `document` per page as it is stored, then `done` (or `error` for a failed
// job). Live events wait until the catch-up is sent, every page is sent once (by
// id), and before `done` the tables are checked for pages a lost notification hid.
// The /v1 clients' watchers also read the end from the close frame's reason.
import type { WebSocket } from 'ws';
import type { Db } from '../../platform/db/prisma.ts';
import type { Job } from '../../generated/prisma/client.ts';
import { creditsUsedByJob } from '../../platform/usage/credits.ts';
import { crawlCounts, MAX_RESPONSE_BYTES } from '../../jobs/job-status.ts';
import type { JobFeed } from '../../jobs/job-feed.ts';

/** A slow client is sent no more until it has taken this much. */
const MAX_BUFFERED_BYTES = 16 * 1024 * 1024;
const DRAIN_CHECK_MS = 50;

/** A close frame's reason is at most 123 bytes (RFC 6455 5.5: a control frame's payload is 125, 2 are the code). */
const MAX_CLOSE_REASON_BYTES = 123;

interface SessionDeps {
  db: Db;
  feed: JobFeed;
  retentionHours: number;
  /** The end message (`{"type":"done"}`, or `error` with its text cut to fit) is also the close frame's reason, as v1 watchers read it. */
  endInCloseReason?: boolean;
}

/** The close reason that repeats the end message: `{"type":"done"}`, or `{"type":"error","error":...}` within 123 bytes. */
export function endCloseReason(end: { type: 'done' } | { type: 'error'; error: string }): string {
  if (end.type === 'done') return JSON.stringify(end);
  let chars = [...end.error].slice(0, MAX_CLOSE_REASON_BYTES);
  let reason = JSON.stringify({ type: 'error', error: chars.join('') });
  while (Buffer.byteLength(reason) > MAX_CLOSE_REASON_BYTES) {
    chars = chars.slice(0, -1);
    reason = JSON.stringify({ type: 'error', error: `${chars.join('')}…` });
  }
  return reason;
}

/** The first of `rows` (in order) that fit in `maxBytes` together, at least one. */
export function idsWithin(rows: { id: bigint; sizeBytes: number }[], maxBytes: number): bigint[] {
  const ids: bigint[] = [];
  let bytes = 0;
  for (const row of rows) {
    if (ids.length > 0 && bytes + row.sizeBytes > maxBytes) break;
    bytes += row.sizeBytes;
    ids.push(row.id);
  }
  return ids;
}

/** The job's successful, unpurged pages with ids above `after`, at most MAX_RESPONSE_BYTES of them (at least one). */
async function nextChunk(db: Db, crawlId: string, after: bigint): Promise<{ id: bigint; document: unknown }[]> {
  const sizes = await db.jobPage.findMany({
    where: { jobId: crawlId, success: true, purgedAt: null, id: { gt: after } },
    orderBy: { id: 'asc' },
    take: 1000,
    select: { id: true, sizeBytes: true },
  });
  const ids = idsWithin(sizes, MAX_RESPONSE_BYTES);
  if (ids.length === 0) return [];
  return db.jobPage.findMany({ where: { id: { in: ids } }, orderBy: { id: 'asc' }, select: { id: true, document: true } });
}

/** The job's status as the SDK's watcher reads it in `catchup` and `done`. */
async function snapshot(db: Db, row: Job, retentionHours: number) {
  const [{ completed, total }, creditsUsed] = await Promise.all([crawlCounts(db, row.id), creditsUsedByJob(db, row.id)]);
  const expiresAt = row.expiresAt ?? new Date(Date.now() + retentionHours * 3_600_000);
  return { success: true, status: row.status, completed, total, creditsUsed, expiresAt: expiresAt.toISOString() };
}

export async function watchJob(ws: WebSocket, job: Job, deps: SessionDeps): Promise<void> {
  const { db } = deps;
  const sent = new Set<bigint>();
  let chain: Promise<void> = Promise.resolve();
  let caughtUp = false;
  let finished = false;
  const early: (() => Promise<void>)[] = [];
  const closed = () => ws.readyState !== ws.OPEN;

  const serial = (task: () => Promise<void>) => {
    if (!caughtUp) {
      early.push(task);
      return;
    }
    chain = chain.then(() => (closed() || finished ? undefined : task())).catch(() => ws.close(1011, 'internal error'));
  };

  async function send(message: unknown): Promise<void> {
    while (!closed() && ws.bufferedAmount > MAX_BUFFERED_BYTES) await new Promise((r) => setTimeout(r, DRAIN_CHECK_MS));
    if (!closed()) ws.send(JSON.stringify(message));
  }

  /** Sends, as `document` messages, every stored page not sent yet. */
  async function sendMissing(after = 0n): Promise<void> {
    for (let cursor = after; ;) {
      const chunk = await nextChunk(db, job.id, cursor);
      if (chunk.length === 0) return;
      for (const page of chunk) {
        if (sent.has(page.id)) continue;
        sent.add(page.id);
        await send({ type: 'document', data: page.document });
      }
      cursor = chunk[chunk.length - 1].id;
    }
  }

  async function finish(): Promise<void> {
    await sendMissing();
    const row = await db.job.findUniqueOrThrow({ where: { id: job.id } });
    finished = true;
    const end = row.status === 'failed' ? ({ type: 'error', error: row.error ?? 'The job failed' } as const) : ({ type: 'done' } as const);
    await send(end.type === 'done' ? { ...end, data: { ...(await snapshot(db, row, deps.retentionHours)), data: [] } } : end);
    ws.close(1000, deps.endInCloseReason ? endCloseReason(end) : undefined);
  }

  const unsubscribe = await deps.feed.subscribe(job.id, {
    page: (id, document) =>
      serial(async () => {
        if (sent.has(id)) return;
        sent.add(id);
        await send({ type: 'document', data: document });
      }),
    ended: () => serial(finish),
    gap: () => serial(() => sendMissing()),
  });
  ws.once('close', unsubscribe);

  // Subscribed first, read second: a page stored in between is both read here and announced, and sent once.
  const row = await db.job.findUniqueOrThrow({ where: { id: job.id } });
  const first = await nextChunk(db, job.id, 0n);
  first.forEach((p) => sent.add(p.id));
  await send({ type: 'catchup', data: { ...(await snapshot(db, row, deps.retentionHours)), data: first.map((p) => p.document) } });
  caughtUp = true;
  chain = (async () => {
    if (first.length > 0) await sendMissing(first[first.length - 1].id);
  })();
  for (const task of early.splice(0)) serial(task);
  if (row.status !== 'scraping') serial(finish);
}
