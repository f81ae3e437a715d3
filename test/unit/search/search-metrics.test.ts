// Searches are counted by kind (the sources asked, in one order) and by how they
// ended, and each provider's answers by outcome, whatever the search code throws.
import type { MetricValueWithName } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../../src/platform/domain-error.ts';
import { registry } from '../../../src/platform/metrics/registry.ts';
import { measuredAnswer, measuredSearch, searchKind } from '../../../src/features/search/search-metrics.ts';

async function values(name: string): Promise<Record<string, number>> {
  const metric = await registry.getSingleMetric(name)!.get();
  return Object.fromEntries(metric.values.map((v) => [Object.values(v.labels).join(' '), v.value]));
}

describe('searchKind', () => {
  it('names the sources asked for once each, in the order web, images, news', () => {
    expect(searchKind(['web'])).toBe('web');
    expect(searchKind(['news', { type: 'web' }, 'web'])).toBe('web+news');
    expect(searchKind([{ type: 'news' }, 'images', 'web'])).toBe('web+images+news');
  });
});

describe('measuredSearch', () => {
  it('counts answers ok, no provider answering provider_error, refusals refused, anything else error', async () => {
    await measuredSearch('web', async () => 'answer');
    await expect(
      measuredSearch('news', () => Promise.reject(new DomainError('unavailable', 'No search provider answered', 'SEARCH_UNAVAILABLE'))),
    ).rejects.toThrow('No search provider answered');
    await expect(measuredSearch('news', () => Promise.reject(new DomainError('payment-required', 'no credits', 'PAYMENT_REQUIRED')))).rejects.toThrow();
    await expect(measuredSearch('web', () => Promise.reject(new Error('database gone')))).rejects.toThrow('database gone');
    expect(await values('crawl_service_searches_total')).toEqual({ 'web ok': 1, 'news provider_error': 1, 'news refused': 1, 'web error': 1 });
    const timed = (await registry.getSingleMetric('crawl_service_search_duration_seconds')!.get()).values.filter((v) =>
      (v as MetricValueWithName<string>).metricName?.endsWith('_count'),
    );
    expect(timed.map((v) => [v.labels.kind, v.value])).toEqual([['web', 1]]);
  });
});

describe('measuredAnswer', () => {
  it('passes each answer through and counts it ok, timeout or error', async () => {
    expect(await measuredAnswer('local', Promise.resolve({ hits: 1 }))).toEqual({ hits: 1 });
    expect(await measuredAnswer('searxng', Promise.resolve('timeout'))).toBe('timeout');
    await expect(measuredAnswer('searxng', Promise.reject(new Error('403')))).rejects.toThrow('403');
    expect(await values('crawl_service_search_provider_requests_total')).toEqual({ 'local ok': 1, 'searxng timeout': 1, 'searxng error': 1 });
  });
});
