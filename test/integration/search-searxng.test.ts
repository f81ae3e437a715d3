// The SearXNG provider against a stand-in instance answering recorded JSON of the
// real shapes: one call across categories, results bucketed into web / images /
// news with positions, resolutions in both forms, tbs as time_range where
// SearXNG has one and as a post-filter otherwise, operators checked on the
// results, unresponsive engines in `warning`, the 403 of an instance without
// JSON named for the operator, older answers tolerated; merged with the local
// index, each URL once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseResolution, searxngText } from '../../src/features/search/providers/searxng.ts';
import { searchQueryOf } from '../../src/features/search/query/search-query-of.ts';
import { searchRequestSchema } from '../../src/features/search/search-request.ts';
import { startFakeSearxng, type FakeSearxng } from '../support/fake-searxng.ts';
import { page, startFixtureSite, type FixtureSite } from '../support/fixture-site.ts';
import { startHarness, waitForCrawl, type Harness } from '../support/harness.ts';

let searxng: FakeSearxng;
let web: Harness;
let both: Harness;
let site: FixtureSite;

beforeAll(async () => {
  searxng = await startFakeSearxng();
  web = await startHarness({ search: { local: false, searxngUrl: searxng.url } });
  both = await startHarness({ search: { local: true, searxngUrl: searxng.url } });
  await both.startWorker();
  site = await startFixtureSite({ '/': page('Local tokio notes', '<p>tokio runtime notes, kept locally.</p>') });
  const crawl = await (await both.api('/v2/crawl', { method: 'POST', json: { url: `${site.url}/`, limit: 1 } })).json();
  await waitForCrawl(both, crawl.id);
}, 120_000);

afterAll(async () => {
  await web?.stop();
  await both?.stop();
  await searxng?.close();
  await site?.close();
});

async function search(h: Harness, body: Record<string, unknown>) {
  const res = await h.api('/v2/search', { method: 'POST', json: body });
  return { status: res.status, body: await res.json() };
}

describe('the SearXNG provider', () => {
  it('asks across categories in one call per page and buckets the answer into web, images and news', async () => {
    const before = searxng.requests.length;
    const { status, body } = await search(web, { query: 'rust async', sources: ['web', 'images', 'news'], limit: 10 });
    expect(status, JSON.stringify(body)).toBe(200);
    const asked = searxng.requests.slice(before);
    // One call per result page across the three categories; the second page (results were short of the limit) was empty, so no third.
    expect(asked.map((p) => p.get('pageno'))).toEqual(['1', '2']);
    expect(asked[0].get('categories')).toBe('general,images,news');
    expect(asked[0].get('format')).toBe('json');
    expect(asked[0].get('language')).toBe('en');
    expect(body.data.web.map((r: { url: string; position: number }) => [r.position, r.url])).toEqual([
      [1, 'https://tokio.rs/tokio/tutorial'],
      [2, 'https://rust-lang.github.io/async-book/'],
      [3, 'https://www.tokio.rs/blog/2026-11-tokio-2'],
      [4, 'https://example.org/docs/async.pdf'],
    ]);
    expect(body.data.web[0]).toEqual({
      url: 'https://tokio.rs/tokio/tutorial',
      title: 'Tutorial | Tokio - An asynchronous Rust runtime',
      description: 'Tokio is an asynchronous runtime for the Rust programming language.',
      position: 1,
    });
    expect(body.data.images.slice(0, 2)).toEqual([
      {
        title: 'Ferris the crab',
        imageUrl: 'https://upload.example/ferris-1920.png',
        url: 'https://commons.example/wiki/File:Ferris.png',
        imageWidth: 1920,
        imageHeight: 1080,
        position: 1,
      },
      { title: 'Small crab', imageUrl: 'https://pics.example/crab-800.jpg', url: 'https://pics.example/crab', imageWidth: 800, imageHeight: 600, position: 2 },
    ]);
    expect(body.data.news).toEqual([
      {
        title: 'Rust 2026 edition ships',
        snippet: 'The Rust project released the 2026 edition.',
        url: 'https://news.example/rust-2026',
        date: '2026-11-24T06:00:00.000Z',
        imageUrl: 'https://news.example/rust.jpg',
        position: 1,
      },
    ]);
    expect(body.warning).toBe('searxng: engine brave did not answer (timeout); searxng: engine qwant did not answer (Suspended: access denied)');
    expect(body.creditsUsed).toBe(Math.ceil((4 + 3 + 1) / 10) * 2);
  });

  it('maps qdr:d/w/m/y to time_range, and filters hours and custom ranges itself', async () => {
    let before = searxng.requests.length;
    await search(web, { query: 'rust', tbs: 'qdr:w' });
    expect(searxng.requests[before].get('time_range')).toBe('week');
    before = searxng.requests.length;
    const { body } = await search(web, { query: 'rust', tbs: 'cdr:1,cd_min:11/24/2026,cd_max:11/24/2026' });
    expect(searxng.requests[before].get('time_range')).toBeNull();
    expect(body.data.web.map((r: { url: string }) => r.url)).toEqual(['https://www.tokio.rs/blog/2026-11-tokio-2']);
    expect(body.warning).toContain('2 results without a date were left out of the time range');
    // An instance whose engines return nothing for a range: an empty answer, not an error.
    expect((await search(web, { query: 'no-time-support', tbs: 'qdr:d' })).body.data.web).toEqual([]);
  });

  it('forwards operators and categories in the text, and checks them on the results', async () => {
    const q = searxngText(
      searchQueryOf(searchRequestSchema.parse({ query: 'async site:tokio.rs', categories: ['github', 'pdf'], excludeDomains: ['spam.example'] }), new Date()),
    );
    expect(q).toBe('async site:tokio.rs site:github.com filetype:pdf -site:spam.example');
    expect((await search(web, { query: 'async site:tokio.rs' })).body.data.web.map((r: { url: string }) => r.url)).toEqual([
      'https://tokio.rs/tokio/tutorial',
      'https://www.tokio.rs/blog/2026-11-tokio-2',
    ]);
    expect((await search(web, { query: 'async filetype:pdf' })).body.data.web.map((r: { url: string }) => r.url)).toEqual([
      'https://example.org/docs/async.pdf',
    ]);
    expect((await search(web, { query: 'async intitle:tokio -inurl:blog' })).body.data.web.map((r: { url: string }) => r.url)).toEqual([
      'https://tokio.rs/tokio/tutorial',
    ]);
    expect((await search(web, { query: 'crab larger:1000x700', sources: ['images'] })).body.data.images.map((r: { imageUrl: string }) => r.imageUrl)).toEqual([
      'https://upload.example/ferris-1920.png',
    ]);
    const related = await search(web, { query: 'related:tokio.rs' });
    expect(related.body.warning).toContain('related: is not supported by searxng and was ignored');
  });

  it('reads older answers, and names the setting when the instance refuses JSON', async () => {
    const old = await search(web, { query: 'old-instance' });
    expect(old.body.data.web.map((r: { url: string }) => r.url)).toEqual(['https://old.example/a', 'https://old.example/b']);
    expect(old.body.warning).toBe('searxng: engine yahoo did not answer');
    const refused = await search(web, { query: 'json-disabled' });
    expect(refused.status).toBe(503);
    expect(refused.body.error).toBe(
      'No search provider answered: searxng: SearXNG refused the JSON format (403): enable it on the instance, in settings.yml: search: formats: [html, json]',
    );
    expect(parseResolution('1024×768')).toEqual({ width: 1024, height: 768 });
    expect(parseResolution(null)).toBeUndefined();
  });

  it('merges with the local index: local results first, each URL once', async () => {
    const { body } = await search(both, { query: 'tokio' });
    expect(body.data.web[0]).toMatchObject({ url: `${site.url}/`, title: 'Local tokio notes', position: 1 });
    expect(body.data.web.slice(1).map((r: { url: string }) => r.url)).toEqual([
      'https://tokio.rs/tokio/tutorial',
      'https://rust-lang.github.io/async-book/',
      'https://www.tokio.rs/blog/2026-11-tokio-2',
      'https://example.org/docs/async.pdf',
    ]);
  });
});
