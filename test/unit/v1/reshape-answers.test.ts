// /v2 answers into v1's (src/features/v1/answers.ts): the differences of
// docs/api/v1.md that live in answers.
import { describe, expect, it } from 'vitest';
import type { JobStatus } from '../../../src/jobs/job-responses.ts';
import {
  NO_CONTENT_WARNING,
  NO_RESULTS_WARNING,
  v1CrawlOptions,
  v1CreditUsage,
  v1Document,
  v1ExtractStatus,
  v1History,
  v1JobStatus,
  v1MapAnswer,
  v1SearchAnswer,
  v1TokenUsage,
} from '../../../src/features/v1/answers.ts';

const metadata = { sourceURL: 'https://a.example/', url: 'https://a.example/', statusCode: 200 };

describe('documents', () => {
  it('the json result goes where the v1 format put it; warnings are added to the page’s own', () => {
    expect(v1Document({ json: { a: 1 }, metadata }, undefined)).toEqual({ json: { a: 1 }, metadata });
    expect(v1Document({ json: { a: 1 }, metadata }, ['extract'])).toEqual({ extract: { a: 1 }, metadata });
    expect(v1Document({ json: { a: 1 }, metadata }, ['json', 'extract'])).toEqual({ json: { a: 1 }, extract: { a: 1 }, metadata });
    expect(v1Document({ markdown: 'x', warning: 'w1', metadata }, undefined, ['w2'])).toEqual({ markdown: 'x', warning: 'w1 w2', metadata });
  });
});

describe('job status (section 6.5)', () => {
  const status: JobStatus = {
    success: true,
    status: 'completed',
    completed: 2,
    total: 2,
    creditsUsed: 2,
    expiresAt: '2026-01-02T00:00:00.000Z',
    createdAt: '2026-01-01T00:00:00.000Z',
    completedAt: '2026-01-01T00:01:00.000Z',
    warning: 'robots.txt blocked 1 page',
    next: 'http://gw.example/v1/crawl/x?skip=100',
    data: [{ markdown: 'x', metadata }],
  };

  it('drops v2’s timestamps and warning, keeps next, and never carries an error key on success', () => {
    const v1 = v1JobStatus(status, null);
    expect(v1).toEqual({
      success: true,
      status: 'completed',
      completed: 2,
      total: 2,
      creditsUsed: 2,
      expiresAt: status.expiresAt,
      next: status.next,
      data: status.data,
    });
    expect('error' in v1JobStatus({ ...status, status: 'scraping' }, 'stale error')).toBe(false);
  });

  it('a failed job is success false with its error', () => {
    expect(v1JobStatus({ ...status, status: 'failed', next: undefined }, 'The start URL could not be loaded')).toMatchObject({
      success: false,
      status: 'failed',
      error: 'The start URL could not be loaded',
    });
  });

  it('an active crawl’s options under v1 names', () => {
    expect(
      v1CrawlOptions({ includePaths: [], limit: 5, sitemap: 'skip', crawlEntireDomain: true, maxPathDepth: 2, maxConcurrency: 3, zeroDataRetention: false }),
    ).toEqual({ includePaths: [], limit: 5, ignoreSitemap: true, allowBackwardLinks: true, crawlEntireDomain: true, maxDepth: 2 });
  });
});

describe('map and search (sections 6.2, 6.3)', () => {
  it('map links are plain URL strings, without the map’s id', () => {
    expect(v1MapAnswer({ links: [{ url: 'https://a.example/' }, { url: 'https://a.example/b' }] })).toEqual({
      success: true,
      links: ['https://a.example/', 'https://a.example/b'],
    });
  });

  const hit = (n: number, extra: object = {}) => ({ url: `https://a.example/${n}`, title: `T${n}`, description: `D${n}`, position: n, ...extra });

  it('search answers a flat list of web results, as {url, title, description} when not scraped', () => {
    expect(v1SearchAnswer({ data: { web: [hit(1), hit(2, { category: 'pdf' })] }, id: 'i', warning: null }, { formats: [] })).toEqual({
      success: true,
      data: [
        { url: 'https://a.example/1', title: 'T1', description: 'D1' },
        { url: 'https://a.example/2', title: 'T2', description: 'D2' },
      ],
      id: 'i',
    });
    expect(v1SearchAnswer({ data: { web: [] }, id: 'i', warning: null }, { formats: [] })).toEqual({
      success: true,
      data: [],
      id: 'i',
      warning: NO_RESULTS_WARNING,
    });
  });

  it('scraped results without markdown are left out, unless none has any', () => {
    const scraped = { formats: ['markdown', 'json'], jsonFields: undefined };
    const answer = v1SearchAnswer(
      { data: { web: [hit(1, { markdown: '# x', json: { a: 1 } }), hit(2, { markdown: ' ' })] }, id: 'i', warning: 'local: w' },
      scraped,
    );
    expect(answer.data.map((d) => d.url)).toEqual(['https://a.example/1']);
    expect(answer.data[0].json).toEqual({ a: 1 });
    expect(answer.warning).toBe('local: w');
    const empty = v1SearchAnswer(
      { data: { web: [hit(1, { markdown: '' })] }, id: 'i', warning: null },
      { formats: ['markdown', 'extract'], jsonFields: ['extract'] },
    );
    expect(empty).toMatchObject({ data: [{ url: 'https://a.example/1' }], warning: NO_CONTENT_WARNING });
  });
});

describe('team usage (section 6.8) and extract', () => {
  const period = { billingPeriodStart: '2026-01-01T00:00:00.000Z', billingPeriodEnd: '2026-02-01T00:00:00.000Z' };

  it('credit and token usage are snake_case', () => {
    expect(v1CreditUsage({ remainingCredits: 90, planCredits: null, ...period })).toEqual({
      success: true,
      data: { remaining_credits: 90, plan_credits: 0, billing_period_start: period.billingPeriodStart, billing_period_end: period.billingPeriodEnd },
    });
    expect(v1TokenUsage({ remainingTokens: 1350, planTokens: 1500, ...period }).data).toMatchObject({ remaining_tokens: 1350, plan_tokens: 1500 });
  });

  it('history periods keep one name per number', () => {
    const periods = [{ startDate: 'a', endDate: 'b', creditsUsed: 3, totalCredits: 3 }];
    expect(v1History(periods, 'creditsUsed')).toEqual([{ startDate: 'a', endDate: 'b', creditsUsed: 3 }]);
    const tokens = [{ startDate: 'a', endDate: 'b', apiKey: null, tokensUsed: 45, totalTokens: 45 }];
    expect(v1History(tokens, 'tokensUsed')).toEqual([{ startDate: 'a', endDate: 'b', apiKey: null, tokensUsed: 45 }]);
  });

  it('an extract’s status says it is deprecated, with data [] until it is done', () => {
    const answer = v1ExtractStatus({ success: true, id: 'i', status: 'processing', data: null, expiresAt: 'e', creditsUsed: 0, tokensUsed: 0 });
    expect(answer).toMatchObject({ status: 'processing', data: [], replacement: '/v2/extract', warnings: [expect.stringContaining('deprecated')] });
  });
});
