// Crawls of sites (and requests) built to hurt the crawler: each hostile case is
// one describe with its own fixture site, sharing one harness and worker. A case
// passes when the crawl still ends as it should, in bounded time.
import type { IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { page, startFixtureSite, type FixtureResource, type FixtureSite } from '../support/fixture-site.ts';
import { startHarness, waitForCrawl, type Harness } from '../support/harness.ts';

let h: Harness;
const sites: FixtureSite[] = [];

beforeAll(async () => {
  h = await startHarness();
  await h.startWorker();
  // One plain crawl first, so each case's time bound measures the hostile crawl, not the worker's first browser start.
  const plain = await site({ '/': page('Plain', 'warm-up') });
  await crawl({ url: `${plain.url}/`, sitemap: 'skip' }, 120_000);
});

afterAll(async () => {
  await Promise.all(sites.map((s) => s.close()));
  await h?.stop();
});

async function site(resources: Record<string, FixtureResource>) {
  const s = await startFixtureSite(resources);
  sites.push(s);
  return s;
}

const links = (...paths: string[]) => paths.map((p) => `<a href="${p}">${p}</a>`).join(' ');
const origin = (req: IncomingMessage) => `http://${req.headers.host}`;

/** Starts a crawl and waits at most `withinMs` for it to end. */
async function crawl(json: Record<string, unknown>, withinMs: number) {
  const res = await h.api('/v2/crawl', { method: 'POST', json });
  const body = await res.json();
  if (res.status !== 200) throw new Error(`POST /v2/crawl answered ${res.status}: ${JSON.stringify(body)}`);
  const status = await waitForCrawl(h, body.id, withinMs);
  const errors = await (await h.api(`/v2/crawl/${body.id}/errors`)).json();
  const paths = status.data.map((d) => new URL(d.metadata.sourceURL).pathname).sort();
  return { status, errors, paths };
}

describe('robots.txt of 500 KB of blank lines, a sitemap of unclosed tags, a catastrophic includePaths pattern', () => {
  const evilPath = `/${'a'.repeat(40)}!`;
  // Matching ^/(a+)+$ against evilPath by backtracking takes 2^40 steps.
  const includePaths = ['^/(a+)+$', '^/$', '^/from-sitemap$', '^/blocked$'];
  const blankLines = '\n'.repeat(500_000);
  const unclosedTags = Buffer.from('<url>'.repeat(4 * 1024 * 1024));
  let s: FixtureSite;

  beforeAll(async () => {
    s = await site({
      '/': page('Home', links(evilPath, '/aaaa', '/blocked')),
      [evilPath]: page('Evil', 'never crawled'),
      '/aaaa': page('A', 'a'),
      '/blocked': page('Blocked', 'robots.txt keeps it out'),
      '/from-sitemap': page('From sitemap', 's'),
      // The rule and the Sitemap line come after the blank lines: the whole file is read.
      '/robots.txt': (req) => ({ body: `User-agent: *\n${blankLines}Disallow: /blocked\nSitemap: ${origin(req)}/hostile-sitemap.xml\n` }),
      '/hostile-sitemap.xml': (req) => ({
        headers: { 'content-type': 'application/xml' },
        body: Buffer.concat([Buffer.from(`<?xml version="1.0"?><urlset><url><loc>${origin(req)}/from-sitemap</loc></url>`), unclosedTags]),
      }),
    });
  });

  it('completes within 60 s, following only what the pattern and robots.txt allow', async () => {
    const { status, errors, paths } = await crawl({ url: `${s.url}/`, includePaths, sitemap: 'include' }, 60_000);
    expect(status.status).toBe('completed');
    expect(paths).toEqual(['/', '/aaaa', '/from-sitemap']);
    expect(errors.robotsBlocked).toEqual([`${s.url}/blocked`]);
    expect(s.hits.get(evilPath)).toBeUndefined();
    expect(s.hits.get('/hostile-sitemap.xml')).toBe(1);
  });
});
