// What GET /v2/crawl/{id}/webhooks shows the crawl's owner: every event of the
// crawl's outbox with its state and every attempt made to deliver it. Bodies
// are not shown (they are the page documents the status already serves).
import type { Db } from '../../platform/db/prisma.ts';
import type { WebhookDeliveries } from '../job-responses.ts';

export async function webhookDeliveries(db: Db, crawlId: string): Promise<WebhookDeliveries> {
  const events = await db.webhookEvent.findMany({
    where: { crawlId },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    include: { attemptLog: { orderBy: { attempt: 'asc' } } },
  });
  return {
    success: true as const,
    data: events.map((e) => ({
      webhookId: e.id,
      type: e.type,
      url: e.url,
      state: e.state,
      attempts: e.attempts,
      createdAt: e.createdAt.toISOString(),
      nextAttemptAt: e.state === 'pending' ? e.nextAttemptAt.toISOString() : null,
      finishedAt: e.finishedAt?.toISOString() ?? null,
      lastStatusCode: e.lastStatusCode,
      lastError: e.lastError,
      attemptLog: e.attemptLog.map((a) => ({
        attempt: a.attempt,
        startedAt: a.startedAt.toISOString(),
        durationMs: a.durationMs,
        statusCode: a.statusCode,
        error: a.error,
      })),
    })),
  };
}
