// The host budget's pure parts: the budget key, which answers throttle, Retry-After,
// the AIMD steps and the backoff that host_release applies in PostgreSQL, the
// notices a batch sends its workflow, robots.txt's Crawl-delay and the details line.
import { describe, expect, it } from 'vitest';
import { budgetKey, hostOutcome, isThrottled, throttledFailure } from '../../../src/jobs/politeness/host-answer.ts';
import { backoffJitter, backoffMs, nextHostRate, THROTTLED_MIN_INTERVAL_MS, type HostRate } from '../../../src/jobs/politeness/host-rate.ts';
import { retryAfterMs } from '../../../src/jobs/politeness/retry-after.ts';
import { throttleNotices } from '../../../src/jobs/politeness/throttle-notices.ts';
import { parseRobots } from '../../../src/jobs/frontier/robots.ts';
import { jobDetails } from '../../../src/jobs/job-details.ts';
import { JobRunState } from '../../../src/jobs/job-run-state.ts';

const NOW = Date.parse('2026-12-07T05:00:00Z');
const LIMITS = { maxConcurrency: 16, backoffBaseMs: 1000, backoffMaxMs: 60_000 };
const RULES = { retryAfterCapMs: 60_000, slowMs: 5000 };

describe('the budget key', () => {
  it('is the host with its port, lower case; subdomains are hosts of their own', () => {
    expect(budgetKey('https://WWW.Example.com/a?b')).toBe('www.example.com');
    expect(budgetKey('http://127.0.0.1:8080/x')).toBe('127.0.0.1:8080');
    expect(budgetKey('https://example.com:443/')).toBe('example.com');
    expect(budgetKey('https://cdn.example.com/')).not.toBe(budgetKey('https://example.com/'));
  });
});

describe('Retry-After', () => {
  it('reads delay-seconds and HTTP dates (all three forms), capped, a past date as no wait', () => {
    expect(retryAfterMs('2', NOW, 60_000)).toBe(2000);
    expect(retryAfterMs(' 0 ', NOW, 60_000)).toBe(0);
    expect(retryAfterMs('86400', NOW, 60_000)).toBe(60_000);
    expect(retryAfterMs('Mon, 07 Dec 2026 05:00:30 GMT', NOW, 60_000)).toBe(30_000);
    expect(retryAfterMs('Monday, 07-Dec-26 05:00:10 GMT', NOW, 60_000)).toBe(10_000);
    expect(retryAfterMs('Mon Dec  7 05:00:05 2026', NOW, 60_000)).toBe(5000 + new Date(NOW).getTimezoneOffset() * 60_000);
    expect(retryAfterMs('Mon, 07 Dec 2026 04:00:00 GMT', NOW, 60_000)).toBe(0);
    expect(retryAfterMs('Mon, 07 Dec 2027 05:00:00 GMT', NOW, 60_000)).toBe(60_000);
    expect(retryAfterMs(['3', '9'], NOW, 60_000)).toBe(3000);
  });

  it('is undefined when absent or malformed, so the host backs off on its own', () => {
    for (const bad of [undefined, '', '-1', '1.5', 'soon', '2 seconds', '12345678901234567890'.repeat(4), '99999999999999999999999 GMT']) {
      expect(retryAfterMs(bad, NOW, 60_000), String(bad)).toBeUndefined();
    }
  });
});

describe('what an answer says of its host', () => {
  it('429 and 503 throttle, with their Retry-After; a Cloudflare challenge does not', () => {
    expect(hostOutcome({ status: 429, headers: { 'retry-after': '2' }, latencyMs: 5 }, RULES, NOW)).toEqual({
      kind: 'throttled',
      status: 429,
      retryAfterMs: 2000,
    });
    expect(hostOutcome({ status: 503, headers: {}, latencyMs: 5 }, RULES, NOW)).toEqual({ kind: 'throttled', status: 503 });
    expect(isThrottled(503, { 'cf-mitigated': 'challenge' })).toBe(false);
    expect(isThrottled(403, {})).toBe(false);
    expect(hostOutcome({ status: 500, headers: {}, latencyMs: 5 }, RULES, NOW)).toEqual({ kind: 'ok' });
  });

  it('a slow answer is the host slowing down, whatever its status', () => {
    expect(hostOutcome({ status: 200, headers: {}, latencyMs: 5001 }, RULES, NOW)).toEqual({ kind: 'slow' });
    expect(hostOutcome({ status: 200, headers: {}, latencyMs: 5000 }, RULES, NOW)).toEqual({ kind: 'ok' });
  });

  it('a page given up says why and which setting bounds it', () => {
    expect(throttledFailure(429, 7)).toBe(
      'The site kept answering HTTP 429 (Too Many Requests): throttled 7 times, the page was given up (HOST_THROTTLE_MAX_RETRIES)',
    );
  });
});

describe('AIMD', () => {
  const fresh: HostRate = { concurrency: 16, intervalMs: 0, strikes: 0 };

  it('a throttled answer halves the concurrency, doubles the interval (from 50 ms) and pauses the host for its Retry-After', () => {
    const once = nextHostRate(fresh, { kind: 'throttled', status: 429, retryAfterMs: 2000 }, LIMITS, 1, NOW);
    expect(once).toEqual({ concurrency: 8, intervalMs: THROTTLED_MIN_INTERVAL_MS, strikes: 1, pausedUntil: NOW + 2000 });
    const twice = nextHostRate(once, { kind: 'throttled', status: 429, retryAfterMs: 500 }, LIMITS, 1, NOW);
    // A shorter Retry-After never ends an earlier pause sooner.
    expect(twice).toEqual({ concurrency: 4, intervalMs: 100, strikes: 2, pausedUntil: NOW + 2000 });
  });

  it('without Retry-After the pause backs off exponentially, with jitter, up to the max', () => {
    let rate = fresh;
    const pauses: number[] = [];
    for (let i = 0; i < 9; i++) {
      rate = nextHostRate({ ...rate, pausedUntil: undefined }, { kind: 'throttled', status: 503 }, LIMITS, 1, NOW);
      pauses.push(rate.pausedUntil! - NOW);
    }
    expect(pauses).toEqual([1000, 2000, 4000, 8000, 16_000, 32_000, 60_000, 60_000, 60_000]);
    expect(rate.concurrency).toBe(1);
    expect(rate.intervalMs).toBe(12_800);
    expect(backoffMs(2, LIMITS, 0.5)).toBe(2000);
    expect(backoffMs(2, LIMITS, 1.5)).toBe(6000);
    const jitters = Array.from({ length: 200 }, () => backoffJitter());
    expect(Math.min(...jitters)).toBeGreaterThanOrEqual(0.5);
    expect(Math.max(...jitters)).toBeLessThan(1.5);
    expect(new Set(jitters.map((j) => j.toFixed(3))).size).toBeGreaterThan(100);
  });

  it('climbs back as the host answers: about one more request per round of answers, the interval 5 % shorter each', () => {
    let rate = nextHostRate(fresh, { kind: 'throttled', status: 429 }, LIMITS, 1, NOW);
    rate = nextHostRate(rate, { kind: 'throttled', status: 429 }, LIMITS, 1, NOW);
    expect(rate.concurrency).toBe(4);
    let answers = 0;
    while (rate.concurrency < 8) {
      rate = nextHostRate(rate, { kind: 'ok' }, LIMITS, 1, NOW);
      answers++;
    }
    // From 4 to 8 takes about 4 + 5 + 6 + 7 answers (one round at each step).
    expect(answers).toBeGreaterThanOrEqual(20);
    expect(answers).toBeLessThanOrEqual(26);
    expect(rate.strikes).toBe(0);
    while (rate.concurrency < 16) rate = nextHostRate(rate, { kind: 'ok' }, LIMITS, 1, NOW);
    expect(rate.concurrency).toBe(16);
    expect(rate.intervalMs).toBe(0);
    expect(nextHostRate(rate, { kind: 'ok' }, LIMITS, 1, NOW).concurrency).toBe(16);
  });

  it('a slow answer takes a quarter off, never below one request; no answer changes nothing', () => {
    expect(nextHostRate(fresh, { kind: 'slow' }, LIMITS, 1, NOW).concurrency).toBe(12);
    expect(nextHostRate({ ...fresh, concurrency: 1.2 }, { kind: 'slow' }, LIMITS, 1, NOW).concurrency).toBe(1);
    expect(nextHostRate(fresh, { kind: 'none' }, LIMITS, 1, NOW)).toBe(fresh);
  });
});

describe('throttle notices', () => {
  it('tell each host pause once, and a host at most once a second', async () => {
    const sent: { host: string; until: number }[] = [];
    const notice = throttleNotices((t) => sent.push(t));
    notice('a.test', NOW + 2000);
    notice('a.test', NOW + 2000);
    notice('a.test', NOW + 2500);
    notice('b.test', NOW + 1000);
    expect(sent).toEqual([
      { host: 'a.test', until: NOW + 2000 },
      { host: 'b.test', until: NOW + 1000 },
    ]);
  });
});

describe("robots.txt's Crawl-delay", () => {
  it('belongs to the chosen group, in milliseconds; the largest of repeated lines; malformed ones are ignored', () => {
    const text =
      'User-agent: *\nCrawl-delay: 2\nDisallow: /x\n\nUser-agent: CrawlServiceBot\nCrawl-delay: 0.5\nCrawl-delay: 1.5\nAllow: /\n\nUser-agent: other\nCrawl-delay: soon\n';
    expect(parseRobots('http://a.test/robots.txt', text, 'Mozilla/5.0 (compatible; CrawlServiceBot/1.0)').crawlDelayMs).toBe(1500);
    expect(parseRobots('http://a.test/robots.txt', text, 'SomeoneElse').crawlDelayMs).toBe(2000);
    expect(parseRobots('http://a.test/robots.txt', text, 'other').crawlDelayMs).toBeUndefined();
    expect(parseRobots('http://a.test/robots.txt', null, 'x').crawlDelayMs).toBeUndefined();
  });
});

describe("a job's details", () => {
  it('say which host its pages wait for while the pause lasts', () => {
    const state = new JobRunState({ crawlId: 'c', planned: true } as never, () => ({ historyLength: 1, continueAsNewSuggested: false }));
    state.hostThrottled({ host: 'a.test', until: NOW + 4000 });
    state.hostThrottled({ host: 'b.test', until: NOW + 1000 });
    const progress = state.progress();
    expect(progress.throttled).toEqual({ host: 'a.test', until: NOW + 4000, pauses: 2 });
    expect(jobDetails(progress, NOW)).toMatch(/ · a\.test throttled: its pages wait 4 s for it \(2 pauses so far\)$/);
    expect(jobDetails(progress, NOW + 4000)).not.toMatch(/throttled/);
  });
});
