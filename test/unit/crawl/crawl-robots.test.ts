// The parsed rules are kept per crawl: a batch that gets the same stored text back
// gets the same parsed rules (the same sitemaps array), not a second parse.
import { describe, expect, it } from 'vitest';
import { fakeFetch } from '../../support/fake-fetch.ts';
import { crawlRobots } from '../../../src/jobs/frontier/crawl-robots.ts';

const base = { startUrl: 'https://a.test/docs/', userAgent: 'CrawlServiceBot', ignore: false, maxBytes: 512_000 };

describe('crawlRobots', () => {
  it('parses the stored robots.txt once per crawl, however many batches ask', async () => {
    const requested: string[] = [];
    const fetch = fakeFetch({ 'https://b.test/robots.txt': { status: 200, body: 'User-agent: *\nDisallow: /b-private' } }, requested);
    // Each batch reads the crawl row again, so the text is an equal string, not the same one.
    const stored = () => ['User-agent: *', 'Disallow: /private', 'Sitemap: https://a.test/map.xml'].join('\n');
    const sitemaps: string[][] = [];
    for (let batch = 0; batch < 3; batch++) {
      const robots = crawlRobots({ ...base, crawlId: 'crawl-1', startRobotsTxt: stored(), fetch });
      expect(robots.sitemaps).toEqual(['https://a.test/map.xml']);
      sitemaps.push(robots.sitemaps);
      expect(await robots.isAllowed('https://a.test/private/x')).toBe(false);
      expect(await robots.isAllowed('https://b.test/b-private')).toBe(false);
    }
    expect(sitemaps[1]).toBe(sitemaps[0]);
    expect(sitemaps[2]).toBe(sitemaps[0]);
    expect(requested).toEqual(['https://b.test/robots.txt']);
  });

  it('parses again when the stored text changed (the crawl was planned again)', async () => {
    const fetch = fakeFetch({});
    const old = crawlRobots({ ...base, crawlId: 'crawl-2', startRobotsTxt: 'User-agent: *\nDisallow: /old', fetch });
    const robots = crawlRobots({ ...base, crawlId: 'crawl-2', startRobotsTxt: 'User-agent: *\nDisallow: /new', fetch });
    expect(robots.sitemaps).not.toBe(old.sitemaps);
    expect(await robots.isAllowed('https://a.test/old')).toBe(true);
    expect(await robots.isAllowed('https://a.test/new')).toBe(false);
  });

  it('allows everything when robots.txt is ignored', async () => {
    const robots = crawlRobots({ ...base, crawlId: 'crawl-3', startRobotsTxt: 'User-agent: *\nDisallow: /', ignore: true, fetch: fakeFetch({}) });
    expect(await robots.isAllowed('https://a.test/x')).toBe(true);
    expect(robots.sitemaps).toEqual([]);
  });
});
