// Webhook delivery's section of the settings (src/config.ts composes them all).
import { int } from '../../platform/config/env.ts';
import type { EndpointSettings } from '../../platform/net/service-endpoints.ts';
import type { TemporalSettings } from '../../platform/temporal/config.ts';

export function webhooksConfig() {
  return {
    /** Per-attempt limit: a receiver must answer within this. */
    timeoutMs: int('WEBHOOK_TIMEOUT_MS', 10_000),
    /** First retry after about this long; each later one waits twice as long (±20 % jitter). */
    retryInitialMs: int('WEBHOOK_RETRY_INITIAL_MS', 5_000),
    /** Longest wait between two attempts of one event. */
    retryMaxIntervalMs: int('WEBHOOK_RETRY_MAX_INTERVAL_MS', 3_600_000),
    /** An event not delivered this long after it was written is given up (recorded as failed). */
    giveUpAfterHours: int('WEBHOOK_GIVE_UP_AFTER_HOURS', 24),
    /** Deliveries in flight at once per crawl. */
    concurrency: int('WEBHOOK_CONCURRENCY', 8),
    /** How often a crawl's delivery loop looks for new events. */
    pollIntervalMs: int('WEBHOOK_POLL_INTERVAL_MS', 500),
  };
}

export type WebhookSettings = ReturnType<typeof webhooksConfig>;

/** What delivering webhooks reads: its section, the task queue it runs on and the address guard's settings. */
export type WebhookDeliverySettings = EndpointSettings & {
  webhooks: WebhookSettings;
  temporal: Pick<TemporalSettings, 'webhookTaskQueue'>;
  crawl: { heartbeatTimeoutMs: number };
};
