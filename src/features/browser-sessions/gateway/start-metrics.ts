// Browser session creations by outcome, counted by the gateway that started them
// (the rest of the sessions' metrics: shared/session-metrics.ts).
import { DomainError } from '../../../platform/domain-error.ts';
import { counter } from '../../../platform/metrics/registry.ts';
import { ScrapeSessionExists } from './session-store.ts';

const starts = counter({
  name: 'browser_session_starts_total',
  help: 'POST /v2/browser by outcome: started (the browser is up), refused (concurrency, credits, a profile in use), no_host (no browser host has room), failed',
  labelNames: ['outcome'],
});

/** How POST /v2/browser ended, from what startSession threw (nothing: started). */
function startOutcome(err: unknown): string {
  if (!(err instanceof DomainError)) return 'failed';
  if (err.code === 'NO_BROWSER_HOST') return 'no_host';
  return err.code === 'SESSION_START_FAILED' ? 'failed' : 'refused';
}

/** Runs POST /v2/browser's start, counting how it ended. */
export async function countedStart<T>(start: () => Promise<T>): Promise<T> {
  try {
    const started = await start();
    starts.inc({ outcome: 'started' });
    return started;
  } catch (err) {
    // A call racing another's opening of a scrape's session starts nothing: it joins that one.
    if (!(err instanceof ScrapeSessionExists)) starts.inc({ outcome: startOutcome(err) });
    throw err;
  }
}
