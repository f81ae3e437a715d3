// Retry policies of the crawl workflow's activities. Every one is bounded: an
// activity that keeps failing ends the crawl `failed` with its last error,
// instead of retrying forever. Workflow code imports this file.
import type { RetryPolicy } from '@temporalio/common';
import { DATABASE_RETRY } from '../platform/temporal/retry-policies.ts';

/** Plan, finish and the worker-side settings: database work only, and a crawl that is gone stays gone. */
export const CONTROL_RETRY: RetryPolicy = { ...DATABASE_RETRY, nonRetryableErrorTypes: ['CrawlNotFound'] };

/**
 * A scrape batch. A page's own failure never fails its batch (it is stored as a failed page),
 * so a batch fails only when its worker stops, a heartbeat is missed or the database refuses a
 * write; eight attempts (2 s doubling to 1 minute between them) outlast a rolling deploy.
 */
export const BATCH_RETRY: RetryPolicy = {
  initialInterval: '2s',
  backoffCoefficient: 2,
  maximumInterval: '1 minute',
  maximumAttempts: 8,
  nonRetryableErrorTypes: ['CrawlNotFound'],
};
