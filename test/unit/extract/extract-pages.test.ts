// The pages an extract gives the model: their order, the ones left out and the
// warnings and error that name them.
import { describe, expect, it } from 'vitest';
import { failedPagesWarning, inRequestOrder, noPagesError, pageTexts, pageWarnings, type PageRow } from '../../../src/features/extract/extract-pages.ts';

const ok = (url: string, markdown: string | null = `# ${url}`): PageRow => ({ url, success: true, error: null, markdown });
const failed = (url: string, error: string | null = 'HTTP 500'): PageRow => ({ url, success: false, error, markdown: null });

describe('inRequestOrder', () => {
  it("puts the request's URLs in its order and a crawl's pages after them, as stored", () => {
    const rows = [ok('https://s/crawled-1'), ok('https://s/b'), ok('https://s/crawled-2'), ok('https://s/a')];
    const ordered = inRequestOrder(rows, ['https://s/a', 'https://s/b']);
    expect(ordered.map((r) => r.url)).toEqual(['https://s/a', 'https://s/b', 'https://s/crawled-1', 'https://s/crawled-2']);
    expect(rows[0].url).toBe('https://s/crawled-1');
  });
});

describe('pageTexts', () => {
  it('gives the model the fetched pages that have markdown', () => {
    expect(pageTexts([ok('https://s/a'), failed('https://s/b'), ok('https://s/c', null), ok('https://s/d', '')])).toEqual([
      { url: 'https://s/a', markdown: '# https://s/a' },
    ]);
  });
});

describe('failedPagesWarning', () => {
  it('names five failed pages with their errors and counts the rest', () => {
    expect(failedPagesWarning([failed('https://s/a'), failed('https://s/b', null)])).toBe(
      '2 page(s) could not be fetched and were left out: https://s/a (HTTP 500); https://s/b (failed).',
    );
    const seven = Array.from({ length: 7 }, (_, i) => failed(`https://s/${i}`, 'timeout'));
    expect(failedPagesWarning(seven)).toBe(
      '7 page(s) could not be fetched and were left out: https://s/0 (timeout); https://s/1 (timeout); https://s/2 (timeout); https://s/3 (timeout); https://s/4 (timeout) and 2 more.',
    );
  });
});

describe('pageWarnings', () => {
  it("keeps the commit's warning, then web search's, then the failed pages", () => {
    expect(pageWarnings(null, false, [])).toEqual([]);
    expect(pageWarnings('bad URL x.', true, [failed('https://s/a')])).toEqual([
      'bad URL x.',
      'Web search is not used by this service: only the given URLs were read (enableWebSearch is ignored).',
      '1 page(s) could not be fetched and were left out: https://s/a (HTTP 500).',
    ]);
  });
});

describe('noPagesError', () => {
  it('says no page was stored, or names the pages that failed', () => {
    expect(noPagesError([])).toBe('No page could be fetched from the given URLs.');
    expect(noPagesError([failed('https://s/a', 'HTTP 404'), ok('https://s/b', null)])).toBe(
      'No page could be fetched: 1 page(s) could not be fetched and were left out: https://s/a (HTTP 404).',
    );
  });
});
