// Retry policies that more than one workflow uses, across layers or features;
// each workflow's own policies live beside it. Every one is bounded: an activity
// that keeps failing fails its step instead of retrying forever. Workflow code
// imports this file, so it imports nothing but types.
import type { RetryPolicy } from '@temporalio/common';

/**
 * Database work of the job engine (a crawl's plan and finish, the worker-side settings,
 * webhook delivery rounds): about 30 minutes of attempts (1 s doubling to 1 minute) ride
 * out a database restart or failover.
 */
export const DATABASE_RETRY: RetryPolicy = {
  initialInterval: '1s',
  backoffCoefficient: 2,
  maximumInterval: '1 minute',
  maximumAttempts: 35,
};

/**
 * The steps of a workflow that runs engine jobs as its children (an extract, a monitor
 * check): 20 attempts, 1 s doubling to 1 minute, about 14 minutes in all. A step that
 * calls a model takes fewer attempts of the same backoff.
 */
export const JOB_PARENT_RETRY: RetryPolicy = {
  initialInterval: '1s',
  backoffCoefficient: 2,
  maximumInterval: '1 minute',
  maximumAttempts: 20,
};

/**
 * A webhook an activity sends itself (an extract's events, a monitor check's): 12 attempts,
 * 2 s doubling to 5 minutes, about 24 minutes in all; docs/api/extract.md and
 * docs/api/monitor.md state it.
 */
export const WEBHOOK_SEND_RETRY: RetryPolicy = {
  initialInterval: '2s',
  backoffCoefficient: 2,
  maximumInterval: '5 minutes',
  maximumAttempts: 12,
};
