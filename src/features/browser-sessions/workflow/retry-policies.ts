// Retry policies of the browser session workflow's activities. Every one is
// bounded: an activity that keeps failing ends the session `error`, never retries
// forever. Workflow code imports this file.
import type { RetryPolicy } from '@temporalio/common';

/**
 * Picking a host and recording the end: database work only. Ten attempts, 1 s doubling to
 * 10 s between them, wait 65 s in all: enough to ride out a PostgreSQL restart, and short
 * enough that a start which cannot pick a host has failed while POST /v2/browser still waits
 * for it (120 s), so the caller is told why instead of timing out.
 */
export const SESSION_CONTROL_RETRY: RetryPolicy = {
  initialInterval: '1s',
  backoffCoefficient: 2,
  maximumInterval: '10s',
  maximumAttempts: 10,
  nonRetryableErrorTypes: ['NoBrowserHost'],
};

/** Launch, watch, execute, close: a launch or an execute run twice is worse than one reported failure. */
export const HOST_ONCE: RetryPolicy = { maximumAttempts: 1 };
