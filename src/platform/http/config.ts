// The gateway's sections of the settings (src/config.ts composes them all).
import { boundedInt, int, nonNegativeInt, positiveInt, str } from '../config/env.ts';
import type { IdempotencySettings } from './idempotency.ts';

export function gatewayConfig() {
  const host = str('HOST') ?? '0.0.0.0';
  const port = int('PORT', 3002);
  return {
    host,
    port,
    /**
     * The base of every link the API hands out (crawl `url` and `next`, session `cdpUrl` and live
     * views). Never taken from the request's Host or X-Forwarded-* headers, which the client picks.
     * Unset: the address `npm start` prints for the gateway.
     */
    publicBaseUrl: str('PUBLIC_BASE_URL') ?? `http://${host === '0.0.0.0' ? 'localhost' : host}:${port}`,
    bodyLimit: str('BODY_LIMIT') ?? '10mb',
    /**
     * How long an API request may wait on PostgreSQL or Temporal not answering, from its arrival, before
     * it is answered 503 SERVICE_UNAVAILABLE (a scrape: its own timeout). Longer than a clear request takes on a busy machine.
     */
    requestDeadlineMs: boundedInt('REQUEST_DEADLINE_MS', 10_000, 3_000, 600_000, 'milliseconds from 3000 (its checks begin 1500 before it) to 600000'),
    /** Per API key, shared by all gateway replicas (a row per key); perMinute 0 turns it off. */
    rateLimit: {
      perMinute: nonNegativeInt('API_KEY_RATE_LIMIT_PER_MINUTE', 600),
      burst: positiveInt('API_KEY_RATE_LIMIT_BURST', 100),
    },
  };
}

export type GatewaySettings = ReturnType<typeof gatewayConfig>;

export function idempotencyConfig(): IdempotencySettings {
  return {
    /** How long an x-idempotency-key of a team answers repeats with its first request's answer. */
    windowHours: positiveInt('IDEMPOTENCY_KEY_WINDOW_HOURS', 24),
  };
}

export function activityLogConfig() {
  return {
    /** Rows older than this are deleted by the scheduled purge (the activity listing shows the past 24 h). */
    retentionHours: positiveInt('ACTIVITY_LOG_RETENTION_HOURS', 24),
  };
}

export type ActivityLogSettings = ReturnType<typeof activityLogConfig>;
