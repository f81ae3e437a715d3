// Webhook deliveries as an operator watches them: every recorded attempt by its
// outcome, and the outbox (events not delivered or given up yet) across crawls.
import { counter } from '../../platform/metrics/registry.ts';
import { sharedGauge } from '../../platform/metrics/shared-gauges.ts';

/**
 * delivered: a 2xx. retried: no 2xx, the event is tried again. gave_up: no 2xx and the event
 * is past WEBHOOK_GIVE_UP_AFTER_HOURS. rejected: the receiver answered a final 4xx.
 * refused: never sent (a private address, an invalid URL or headers).
 */
export type DeliveryOutcome = 'delivered' | 'retried' | 'gave_up' | 'rejected' | 'refused';

const deliveries = counter({
  name: 'webhook_deliveries_total',
  help: 'Webhook delivery attempts recorded by this worker, by outcome (delivered, retried, gave_up, rejected, refused)',
  labelNames: ['outcome'],
});

export function countDelivery(outcome: DeliveryOutcome): void {
  deliveries.inc({ outcome });
}

sharedGauge({
  name: 'webhook_events_pending',
  help: 'Webhook events in the outbox waiting for delivery (pending), across crawls',
  async query(db) {
    const [row] = await db.$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM webhook_event WHERE state = 'pending'`;
    return [{ value: Number(row?.n ?? 0) }];
  },
});

sharedGauge({
  name: 'webhook_oldest_pending_age_seconds',
  help: 'Age of the oldest pending webhook event in seconds; 0 when none is pending',
  async query(db) {
    const [row] = await db.$queryRaw<{ seconds: number | null }[]>`
      SELECT extract(epoch FROM now() - min(created_at))::float8 AS seconds FROM webhook_event WHERE state = 'pending'`;
    return [{ value: Math.max(0, row?.seconds ?? 0) }];
  },
});
