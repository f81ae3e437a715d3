// The host budget around a job's page requests: each takes its host's turn
// (host-gate.ts) and ends it with its answer. A throttled answer (429, 503) is
// never the page: the request is made again once the host's pause has passed,
// up to HOST_THROTTLE_MAX_RETRIES times, then the page fails with a clear error.
import { PageGivenUp } from '../../page/http-load.ts';
import { throttledFailure } from './host-answer.ts';
import type { HostGate, HostTurn } from './host-gate.ts';
import { countThrottledOut } from './host-metrics.ts';

export interface PoliteRequests {
  gate: HostGate;
  teamId: string;
  /** The batch attempt (or map) the requests belong to. */
  holderPrefix: string;
  /** HOST_THROTTLE_MAX_RETRIES. */
  maxRetries: number;
  /** robots.txt's Crawl-delay for the URL; undefined when the job ignores robots.txt or the site sets none. */
  crawlDelayMs(url: string): Promise<number | undefined>;
  /** A host of the job is paused until `until` (epoch ms): for the job's current details. */
  onThrottled?(host: string, until: number): void;
}

/** Takes the URL's host turn (waiting for it as long as the host's budget says). */
export async function takeTurn(p: PoliteRequests, url: string, timeoutMs: number, signal?: AbortSignal): Promise<HostTurn> {
  const crawlDelayMs = await p.crawlDelayMs(url).catch(() => undefined);
  return p.gate.take({ url, teamId: p.teamId, holderPrefix: p.holderPrefix, crawlDelayMs, timeoutMs, signal, onThrottled: p.onThrottled });
}

/**
 * `fetch` under its host's turns: a throttled answer is fetched again after its host's pause; past
 * the retries, the page fails (PageGivenUp), so no throttled answer is ever stored as the page.
 */
/** What a fetch answers, as far as the host budget reads it. */
interface Answer {
  status: number;
  headers: Record<string, string>;
}

export async function politely<R extends Answer>(
  p: PoliteRequests,
  url: string,
  opts: { timeoutMs: number; signal?: AbortSignal },
  fetch: () => Promise<R>,
): Promise<R> {
  for (let tries = 1; ; tries++) {
    const turn = await takeTurn(p, url, opts.timeoutMs, opts.signal);
    const started = performance.now();
    let res: R;
    try {
      res = await fetch();
    } catch (err) {
      await turn.end(undefined);
      throw err;
    }
    const outcome = await turn.end({ status: res.status, headers: res.headers, latencyMs: performance.now() - started });
    if (outcome.kind !== 'throttled') return res;
    if (tries > p.maxRetries) {
      countThrottledOut();
      throw new PageGivenUp(throttledFailure(res.status, tries));
    }
  }
}
