// Delivers the webhook outbox of one job (a crawl, or an agent run: an
// OutboxSource says whose events they are and what the job's state is). One
// long-running activity per round: it polls the outbox, sends what is due (the
// started event before anything else, the final event after everything else),
// records every attempt and schedules the next one, heartbeating all along. A
// killed worker loses nothing: an attempt whose outcome was not recorded is
// simply made again, with the same webhookId.
import { Context, sleep } from '@temporalio/activity';
import { Prisma } from '../../generated/prisma/client.ts';
import type { WebhookRetryPolicy } from './retry-policy.ts';
import { sendWebhook } from './send-webhook.ts';
import { heartbeatWhile } from '../../platform/temporal/heartbeat-while.ts';
import type { ActivityDeps } from '../../platform/temporal/activity-deps.ts';
import type { WebhookDeliverySettings } from './config.ts';
import type { AddressPolicy } from '../../platform/net/address-policy.ts';
import { addressPolicyOf } from '../../platform/net/service-endpoints.ts';
import { recordAttempt, type PendingEvent } from './outbox-attempt.ts';

export interface DeliverWebhooksResult {
  /** The job has ended and no event of it is pending: nothing more will ever be sent. */
  drained: boolean;
  delivered: number;
  failed: number;
}

/** What delivery needs to know of the job that owns the events, now. */
export interface OutboxOwner {
  /** The job may still write events (a crawl scraping, an agent processing). */
  running: boolean;
  signingSecret: string | null;
  /** Bodies leave the database once delivered or given up. */
  zeroDataRetention: boolean;
}

/** Whose outbox rows these are: a policy of the job kind, the delivery is shared. */
export interface OutboxSource {
  /** The outbox column naming the owner. */
  column: 'crawlId' | 'agentId';
  /** The event sent before any other. */
  startedType: string;
  /** The job's last events: sent after every other, and their presence means the job wrote its last. */
  terminalTypes: readonly string[];
  /** Events between those go one at a time, in the order they were written (an agent's steps), instead of WEBHOOK_CONCURRENCY at once (a crawl's pages). */
  inOrder?: boolean;
  /** The job, or null once it was purged (its outbox went with it). */
  owner(id: string): Promise<OutboxOwner | null>;
}

/**
 * A job that ended without writing its final event (cancelled, then terminated by hand)
 * is drained once a round has seen it so for this long. Counted from what the round saw,
 * not from the row's completedAt: a crawl cancelled before its workflow started (a gateway
 * killed mid-start) is marked ended long before the workflow the reconciler starts writes
 * its crawl.completed, and a cancelled crawl writes it only once its batches stopped (a
 * batch on a dead worker takes its heartbeat timeout, 60 s by default). Shorter than a
 * round, which starts counting afresh.
 */
const FINAL_EVENT_GRACE_MS = 5 * 60_000;

/** Picks what may be sent now, in the order the receiver must see them. */
export function dueInOrder(
  source: Pick<OutboxSource, 'startedType' | 'terminalTypes' | 'inOrder'>,
  pending: PendingEvent[],
  now: Date,
  limit: number,
): PendingEvent[] {
  const started = pending.find((e) => e.type === source.startedType);
  if (started) return started.nextAttemptAt <= now ? [started] : [];
  const middle = pending.filter((e) => !source.terminalTypes.includes(e.type));
  if (middle.length > 0) {
    if (source.inOrder) {
      const first = [...middle].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())[0]!;
      return first.nextAttemptAt <= now ? [first] : [];
    }
    return middle.filter((e) => e.nextAttemptAt <= now).slice(0, limit);
  }
  return pending.filter((e) => e.nextAttemptAt <= now).slice(0, 1);
}

/** One kind of job's outbox delivery, with the deployment's policies: what every step of a round reads. */
interface Delivery extends ActivityDeps<WebhookDeliverySettings> {
  source: OutboxSource;
  policy: WebhookRetryPolicy;
  addressPolicy: AddressPolicy;
  /** The outbox column naming the owner, for raw SQL. */
  ownerColumn: Prisma.Sql;
}

type Totals = Omit<DeliverWebhooksResult, 'drained'>;

/** The delivery of one kind of job's outbox: `deliver` runs one round for one job. */
export function createOutboxDelivery({ db, config, log }: ActivityDeps<WebhookDeliverySettings>, source: OutboxSource) {
  const delivery: Delivery = {
    db,
    config,
    log,
    source,
    policy: {
      initialIntervalMs: config.webhooks.retryInitialMs,
      maxIntervalMs: config.webhooks.retryMaxIntervalMs,
      giveUpAfterMs: config.webhooks.giveUpAfterHours * 3_600_000,
    },
    addressPolicy: addressPolicyOf(config),
    ownerColumn: Prisma.raw(source.column === 'crawlId' ? 'crawl_id' : 'agent_id'),
  };
  return {
    /** One round for one job: returns after about `roundMs`, or once the job is drained. */
    async deliver(id: string, roundMs: number): Promise<DeliverWebhooksResult> {
      const totals = { delivered: 0, failed: 0 };
      // A delivery can take its whole timeout; the heartbeat must not wait for it.
      const drained = await heartbeatWhile(
        1000,
        () => deliverRound(delivery, id, Date.now() + roundMs, totals),
        () => totals,
      );
      return { drained, ...totals };
    },
  };
}

/** Whether every event of the job was settled: `no-final-event` when it ended without writing its last one (yet). */
async function drainState({ db, source, ownerColumn }: Delivery, id: string, owner: OutboxOwner | null): Promise<'drained' | 'busy' | 'no-final-event'> {
  // Purged (expired) jobs take their outbox with them.
  if (!owner) return 'drained';
  if (owner.running) return 'busy';
  // One statement, so both counts see the same commit: counted apart, a final event committed
  // between them (a cancelled crawl writes it after its status changed) was seen written but not
  // pending, and the round ended without sending it.
  const [{ pending, final }] = await db.$queryRaw<{ pending: number; final: number }[]>`
    SELECT count(*) FILTER (WHERE state = 'pending')::int AS pending,
           count(*) FILTER (WHERE type = ANY(${[...source.terminalTypes]}::text[]))::int AS final
    FROM webhook_event WHERE ${ownerColumn} = ${id}::uuid`;
  if (pending > 0) return 'busy';
  return final > 0 ? 'drained' : 'no-final-event';
}

/** Sends what is due until the job is drained or the round's time is up. */
async function deliverRound(delivery: Delivery, id: string, until: number, totals: Totals): Promise<boolean> {
  const { db, config, source } = delivery;
  const signal = Context.current().cancellationSignal;
  let finalMissingSince: number | undefined;
  for (;;) {
    const owner = await source.owner(id);
    const pending = owner
      ? await db.webhookEvent.findMany({
          where: { [source.column]: id, state: 'pending' },
          orderBy: [{ nextAttemptAt: 'asc' }, { createdAt: 'asc' }],
          take: 1000,
          omit: { body: true },
        })
      : [];
    const due = dueInOrder(source, pending, new Date(), config.webhooks.concurrency);
    if (owner && due.length > 0) {
      await Promise.all(due.map((event) => sendEvent(delivery, { id, owner, signal }, event, totals)));
      continue;
    }
    const state = await drainState(delivery, id, owner);
    if (state === 'drained') return true;
    finalMissingSince = state === 'no-final-event' ? (finalMissingSince ?? Date.now()) : undefined;
    if (finalMissingSince !== undefined && Date.now() - finalMissingSince > FINAL_EVENT_GRACE_MS) return true;
    if (Date.now() >= until) return false;
    const nextDue = pending.length > 0 ? Math.min(...pending.map((e) => e.nextAttemptAt.getTime())) - Date.now() : Infinity;
    await sleep(Math.max(10, Math.min(nextDue, config.webhooks.pollIntervalMs)));
  }
}

/** Sends one event (its body read now), records the attempt and counts it in the round's totals. */
async function sendEvent(
  { db, config, log, source, policy, addressPolicy }: Delivery,
  job: { id: string; owner: OutboxOwner; signal: AbortSignal },
  event: PendingEvent,
  totals: Totals,
): Promise<void> {
  const { body } = await db.webhookEvent.findUniqueOrThrow({ where: { id: event.id }, select: { body: true } });
  const startedAt = new Date();
  const result = await sendWebhook({
    url: event.url,
    body: body ?? '',
    headers: (event.headers ?? {}) as Record<string, unknown>,
    secret: job.owner.signingSecret,
    timeoutMs: config.webhooks.timeoutMs,
    policy: addressPolicy,
    signal: job.signal,
  });
  const state = await recordAttempt(db, policy, { event, startedAt, delivery: result, zeroDataRetention: job.owner.zeroDataRetention });
  if (state === 'delivered') totals.delivered++;
  if (state === 'failed') {
    totals.failed++;
    log.warn('webhook event failed', {
      [source.column]: job.id,
      webhookId: event.id,
      type: event.type,
      statusCode: result.statusCode,
      error: result.error,
    });
  }
}
