// One delivery attempt of an outbox event, recorded: the attempt's row and the event's new state
// (delivered, failed, or pending with the time of its next attempt) in one transaction.
import type { WebhookEvent } from '../../generated/prisma/client.ts';
import type { Db } from '../../platform/db/prisma.ts';
import { storableText } from '../../platform/db/storable.ts';
import { nextAttemptDelayMs, type WebhookRetryPolicy } from './retry-policy.ts';
import type { WebhookAttemptResult } from './send-webhook.ts';
import { countDelivery, type DeliveryOutcome } from './webhook-metrics.ts';

/** An outbox row without its body: bodies carry whole documents, so only those being sent are read. */
export type PendingEvent = Omit<WebhookEvent, 'body'>;

export type EventState = 'delivered' | 'failed' | 'pending';

export interface AttemptVerdict {
  attempt: number;
  state: EventState;
  /** The event's last error: the attempt's own, or why it was given up. */
  error: string | null;
  /** When the event is tried next (pending), or now. */
  nextAttemptAt: Date;
}

/**
 * What an attempt made at `now` leaves of its event: delivered, failed (a final answer, or a
 * retryable one past the policy's give-up time) or pending until its next attempt.
 */
export function judgeAttempt(
  policy: WebhookRetryPolicy,
  event: Pick<PendingEvent, 'attempts' | 'createdAt'>,
  result: WebhookAttemptResult,
  now: number,
): AttemptVerdict {
  const attempt = event.attempts + 1;
  const expired = now - event.createdAt.getTime() >= policy.giveUpAfterMs;
  const state = result.outcome === 'delivered' ? 'delivered' : result.outcome === 'final' || expired ? 'failed' : 'pending';
  const error =
    state === 'failed' && result.outcome === 'retry'
      ? `Gave up after ${attempt} attempts over ${policy.giveUpAfterMs / 3_600_000} h; last: ${result.error ?? `HTTP ${result.statusCode}`}`
      : (result.error ?? null);
  const nextAttemptAt = new Date(now + (state === 'pending' ? nextAttemptDelayMs(policy, attempt, result.retryAfterMs) : 0));
  return { attempt, state, error, nextAttemptAt };
}

/** How the metrics count an attempt's outcome. */
export function deliveryOutcome(state: EventState, result: WebhookAttemptResult): DeliveryOutcome {
  if (state === 'delivered') return 'delivered';
  if (state === 'pending') return 'retried';
  if (result.outcome === 'retry') return 'gave_up';
  return result.statusCode === undefined ? 'refused' : 'rejected';
}

export interface RecordedAttempt {
  event: PendingEvent;
  startedAt: Date;
  delivery: WebhookAttemptResult;
  /** Bodies leave the database once delivered or given up. */
  zeroDataRetention: boolean;
}

/** Records the attempt and the event's new state in one transaction. */
export async function recordAttempt(
  db: Db,
  policy: WebhookRetryPolicy,
  { event, startedAt, delivery, zeroDataRetention }: RecordedAttempt,
): Promise<EventState> {
  // The error quotes the receiver's answer, which is no more trusted than a page.
  const result = { ...delivery, ...(delivery.error !== undefined && { error: storableText(delivery.error) }) };
  const now = Date.now();
  const { attempt, state, error, nextAttemptAt } = judgeAttempt(policy, event, result, now);
  const [recorded] = await db.$transaction([
    db.webhookAttempt.createMany({
      data: [
        {
          eventId: event.id,
          attempt,
          startedAt,
          durationMs: Math.round(result.durationMs),
          statusCode: result.statusCode ?? null,
          error: result.error ?? null,
        },
      ],
      skipDuplicates: true,
    }),
    db.webhookEvent.update({
      where: { id: event.id },
      data: {
        attempts: attempt,
        state,
        lastStatusCode: result.statusCode ?? null,
        lastError: error,
        nextAttemptAt,
        ...(state !== 'pending' && { finishedAt: new Date(now) }),
        // Zero data retention: the page content leaves the database once it has been handed over.
        ...(state !== 'pending' && zeroDataRetention && { body: null }),
      },
    }),
  ]);
  // Two rounds that read the same event (a timed-out activity still running beside its retry) record one attempt, counted once.
  if (recorded.count > 0) countDelivery(deliveryOutcome(state, result));
  return state;
}
