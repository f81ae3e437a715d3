// The host budget around Chromium's pages: a page takes its host's turn right
// before it navigates (after its team slot) and ends it when its slot goes, with
// the status it got. Chromium gives no Retry-After to read here: a throttled
// page's host backs off (host-rate.ts), and the page goes back to its job's
// queue, to be loaded again once the host's pause has passed.
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
  /** What the page's status means: undefined when it is the page, 'retry' to queue it again, or its failure past the retries. */
  answered(target: { key: string }, status: number, loadMs: number): Promise<undefined | 'retry' | { failed: string }>;
}

export function browserTurns(p: PoliteRequests, o: BrowserTurnOptions): BrowserTurns {
  const turns = new Map<string, HostTurn>();
  return {
    async around(target, signal, slot) {
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
    async answered(target, status, loadMs) {
      const turn = turns.get(target.key);
      if (!turn) return undefined;
      const outcome = await turn.end({ status, headers: {}, latencyMs: loadMs });
      if (outcome.kind !== 'throttled') return undefined;
      const key = o.retryKey(target);
      const tries = (key === undefined ? 0 : (o.tries.get(key) ?? 0)) + 1;
      if (key !== undefined && tries <= o.maxRetries) {
        o.tries.set(key, tries);
        return 'retry';
      }
      if (key !== undefined) o.tries.delete(key);
      countThrottledOut();
      return { failed: throttledFailure(status, tries) };
    },
  };
}
