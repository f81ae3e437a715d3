// Which budget a request counts against, and what its answer says of the host.
// Pure, so the rules are tested alone.
import { retryAfterMs } from './retry-after.ts';
import type { HostOutcome } from './host-rate.ts';

/**
 * The budget key: the URL's host (name and port, lower case). Not the registrable domain: a
 * site's subdomains are often other servers (a CDN, an API), and shared hosting puts thousands
 * of unrelated sites under one registrable domain (*.github.io, *.blogspot.com), which one
 * budget would crawl one at a time.
 */
export function budgetKey(url: string): string {
  return new URL(url).host.toLowerCase();
}

/** Statuses a site answers when it wants fewer requests. */
const THROTTLE_STATUSES = new Set([429, 503]);

export interface HostAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  latencyMs: number;
}

export interface AnswerRules {
  /** Longest Retry-After honoured (HOST_RETRY_AFTER_MAX_SECONDS, in ms). */
  retryAfterCapMs: number;
  /** Slower than this, an answer counts as the host slowing down (HOST_SLOW_RESPONSE_MS). */
  slowMs: number;
}

/**
 * A 429 or 503 is throttling, unless it is a bot challenge: Cloudflare marks its challenge pages
 * (`cf-mitigated: challenge`), which a browser may pass, so those go on to Chromium as before.
 */
export function isThrottled(status: number, headers: HostAnswer['headers']): boolean {
  return THROTTLE_STATUSES.has(status) && headers['cf-mitigated'] === undefined;
}

export function hostOutcome(answer: HostAnswer, rules: AnswerRules, now: number): HostOutcome {
  if (isThrottled(answer.status, answer.headers)) {
    const wait = retryAfterMs(answer.headers['retry-after'], now, rules.retryAfterCapMs);
    return { kind: 'throttled', status: answer.status, ...(wait !== undefined && { retryAfterMs: wait }) };
  }
  return answer.latencyMs > rules.slowMs ? { kind: 'slow' } : { kind: 'ok' };
}

/**
 * A page's failure once its host kept throttling it (HOST_THROTTLE_MAX_RETRIES), or, given the
 * scrape's timeout, once its host's pause would outlast it.
 */
export function throttledFailure(status: number, tries: number, timeoutMs?: number): string {
  const answer = `The site kept answering HTTP ${status} (${status === 429 ? 'Too Many Requests' : 'Service Unavailable'}): throttled ${tries} times`;
  return timeoutMs === undefined
    ? `${answer}, the page was given up (HOST_THROTTLE_MAX_RETRIES)`
    : `${answer}, the page was given up: its host's pause outlasts the scrape's timeout of ${timeoutMs} ms`;
}
