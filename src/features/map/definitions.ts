// Names of the map workflow, shared by the gateway, the worker and workflow code
// (which imports this file, so it imports nothing with side effects).
import type { RetryPolicy } from '@temporalio/common';

export function mapWorkflowId(mapId: string): string {
  return `map-${mapId}`;
}

/** A map is short: a few attempts, then the caller hears it failed. */
export const MAP_RETRY: RetryPolicy = { initialInterval: '1s', backoffCoefficient: 2, maximumAttempts: 3, nonRetryableErrorTypes: ['MapNotFound'] };
