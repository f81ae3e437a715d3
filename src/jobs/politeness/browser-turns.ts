// The host budget around Chromium's pages: a page takes its host's turn right
// before it navigates (after its team slot) and ends it when its slot goes, with
// the status it got (and its Retry-After). A throttled page's host pauses
// (host-rate.ts), and the page goes back to its job's queue, to be loaded again
// once the host's pause has passed. A single scrape's page has no queue to go
// back to: it is loaded again in its own batch (its next turn waits for the
// pause), as long as the pause ends within the scrape's timeout, counted from
// its first load.
import type { SlotLease } from '../../page/page-slots.ts';
import type { HostTurn } from './host-gate.ts';
import { throttledFailure } from './host-answer.ts';
import { countThrottledOut } from './host-metrics.ts';
import { takeTurn, type PoliteRequests } from './polite-requests.ts';

/** A map of throttled answers per page (the worker's BoundedMap). */
export interface ThrottleTries {
  get(key: string): number | undefined;
  set(key: string, tries: number): void;
  delete(key: string): void;
}

export interface BrowserTurnOptions {
  timeoutMs: number;
  maxRetries: number;
  /** Throttled answers per page so far, kept by the caller across its batches (keys: `giveBack`'s). */
  tries: ThrottleTries;
  /** The key a page's throttled answers are counted under; undefined when the page cannot go back to a queue (a single scrape's). */
  retryKey(target: { key: string }): string | undefined;
}

export interface BrowserTurns {
  /** The page's team slot (`slot`), then its host turn; releasing the lease ends both. */
  around(target: { url: string; key: string }, signal: AbortSignal, slot: () => Promise<SlotLease>): Promise<SlotLease>;
  /**
   * What the page's status means: undefined when it is the page, 'retry' to queue it again, 'again' to
   * load it again in this batch (a single scrape's), or its failure past the retries or the timeout.
   */
  answered(
    target: { key: string },
    answer: { status: number; loadMs: number; retryAfter?: string },
  ): Promise<undefined | 'retry' | 'again' | { failed: string }>;
}

export function browserTurns(p: PoliteRequests, o: BrowserTurnOptions): BrowserTurns {
  const turns = new Map<string, HostTurn>();
  /** Pages of this batch with no queue to go back to: their throttled answers and when their first load started (epoch ms). */
  const inBatch = new Map<string, { tries: number; firstAt: number }>();
  return {
    async around(target, signal, slot) {
      if (o.retryKey(target) === undefined && !inBatch.has(target.key)) inBatch.set(target.key, { tries: 0, firstAt: Date.now() });
      const lease = await slot();
      let turn: HostTurn;
      try {
        turn = await takeTurn(p, target.url, o.timeoutMs, signal);
      } catch (err) {
        await lease.release();
        throw err;
      }
      turns.set(target.key, turn);
      return {
        // As on the HTTP path, a page's queue duration is its wait for the team's limit (metadata.concurrencyQueueDurationMs).
        waitedMs: lease.waitedMs,
        release: async () => {
          if (turns.get(target.key) === turn) turns.delete(target.key);
          try {
            await turn.end(undefined);
          } finally {
            await lease.release();
          }
        },
      };
    },
    async answered(target, { status, loadMs, retryAfter }) {
      const turn = turns.get(target.key);
      if (!turn) return undefined;
      const outcome = await turn.end({ status, headers: { 'retry-after': retryAfter }, latencyMs: loadMs });
      if (outcome.kind !== 'throttled') return undefined;
      const key = o.retryKey(target);
      if (key === undefined) return againInBatch(inBatch.get(target.key), status, outcome.pausedUntil);
      const tries = (o.tries.get(key) ?? 0) + 1;
      if (tries <= o.maxRetries) {
        o.tries.set(key, tries);
        return 'retry';
      }
      o.tries.delete(key);
      countThrottledOut();
      return { failed: throttledFailure(status, tries) };
    },
  };

  /** Loaded again once the host's pause has passed, if that is before the scrape's timeout runs out; else failed. */
  function againInBatch(page: { tries: number; firstAt: number } | undefined, status: number, pausedUntil: number | undefined) {
    const tries = page ? ++page.tries : 1;
    const deadline = (page?.firstAt ?? Date.now()) + o.timeoutMs;
    if (tries > o.maxRetries) {
      countThrottledOut();
      return { failed: throttledFailure(status, tries) };
    }
    if ((pausedUntil ?? Date.now()) >= deadline) {
      countThrottledOut();
      return { failed: throttledFailure(status, tries, o.timeoutMs) };
    }
    return 'again' as const;
  }
}
