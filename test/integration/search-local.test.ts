// POST /v2/search over the local index, against real PostgreSQL: fixture sites
// are crawled through the service, then every operator, filter and source is
// proven against what was indexed; another team never sees the pages; the SDKs'
// search() works against us.
import Firecrawl from '@mendable/firecrawl-js';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalProvider, WALK_ROW_COST } from '../../src/features/search/providers/local.ts';
import { searchQueryOf } from '../../src/features/search/query/search-query-of.ts';
import { searchRequestSchema } from '../../src/features/search/search-request.ts';
import { page, startFixtureSite, type FixtureResource, type FixtureSite } from '../support/fixture-site.ts';
import { solidPng } from '../support/png.ts';
import { contractProblems, type RecordedResponse } from '../support/openapi-responses.ts';
import { startHarness, waitForCrawl, type Harness } from '../support/harness.ts';
import { runPythonSdk } from '../support/python-sdk.ts';

let h: Harness;
// Every JSON answer of the gateway, checked against the OpenAPI document at the end.
const recorded: RecordedResponse[] = [];
let a: FixtureSite;
let b: FixtureSite;
let c: FixtureSite;
let other: { teamId: string; apiKey: string };

const head = (extra: string) => `<meta charset="utf-8">${extra}`;
const NEWS_LD = JSON.stringify({
  '@context': 'https://schema.org',
  '@type': 'NewsArticle',
  headline: 'Rust async explained',
  datePublished: '2026-11-20T08:00:00Z',
  image: 'https://cdn.example.net/crab-wide.jpg',
});

function siteA(): Record<string, FixtureResource> {
  return {
    // The banner's size is in no attribute: the index has it from the image itself.
    '/': page(
      'Acme Home',
      '<h1>Welcome to Acme</h1><p>Tools for builders.</p><img src="/img/logo.png" alt="Acme logo" width="100" height="50"><img src="/img/banner.png" alt="Acme banner" width="320"><a href="/blog/rust-async">rust</a> <a href="/blog/old-post">old</a> <a href="/draft">draft</a> <a href="/de/anleitung">de</a> <a href="/page.html">html</a> <a href="https://github.com/acme/tools">gh</a>',
    ),
    '/blog/rust-async': page(
      'Rust async explained',
      '<h2>Executors and the tokio runtime</h2><p>Futures are polled by an executor; the tokio runtime schedules tasks.</p><figure><img src="/img/crab.png" alt="Ferris the crab" width="800" height="600"><figcaption>Ferris, mascot of Rust</figcaption></figure><a href="https://github.com/tokio-rs/tokio">tokio</a>',
      head(
        `<meta property="article:published_time" content="2026-11-20T08:00:00Z"><meta name="description" content="How Rust runs asynchronous code."><script type="application/ld+json">${NEWS_LD}</script>`,
      ),
    ),
    '/blog/old-post': page(
      'Old release notes',
      '<p>Release notes for version one of the tools. Fixed flaky builds.</p><time datetime="2020-01-05">January 2020</time><a href="https://github.com/acme/tools">repo</a>',
    ),
    '/draft': page('Draft: release plan', '<p>The release plan for next year. Builders welcome.</p>'),
    '/de/anleitung':
      '<!doctype html><html lang="de"><head><meta charset="utf-8"><title>Anleitung</title></head><body><p>Die Häuser des Dorfes sind schön und alt.</p></body></html>',
    '/page.html': page('Plain HTML page', '<p>A static html file about builders.</p>'),
    '/img/banner.png': { headers: { 'content-type': 'image/png' }, body: solidPng(640, 160) },
  };
}

beforeAll(async () => {
  h = await startHarness({ recordResponses: recorded });
  await h.startWorker();
  [a, b, c] = await Promise.all([
    startFixtureSite(siteA()),
    startFixtureSite({ '/': page('Bee site', '<p>Another shop of builders.</p><a href="https://github.com/bee/hive">code</a>') }, { host: 'localhost' }),
    startFixtureSite({ '/': page('Sea site', '<p>Builders of boats.</p><a href="https://other.org/x">other</a>') }, { host: '127.0.0.2', listen: '0.0.0.0' }),
  ]);
  for (const site of [a, b, c]) {
    const started = await (await h.api('/v2/crawl', { method: 'POST', json: { url: `${site.url}/`, limit: 20, sitemap: 'skip' } })).json();
    expect((await waitForCrawl(h, started.id)).status).toBe('completed');
  }
  other = await h.newTeam();
  const theirs = await (
    await h.api('/v2/crawl', {
      method: 'POST',
      key: other.apiKey,
      json: { url: `${a.url}/draft`, limit: 1, scrapeOptions: { headers: { Cookie: 'session=secret' } } },
    })
  ).json();
  expect((await waitForCrawl(h, theirs.id, 120_000, other.apiKey)).status).toBe('completed');
}, 240_000);

afterAll(async () => {
  await h?.stop();
  await Promise.all([a, b, c].map((s) => s?.close()));
});

async function search(body: Record<string, unknown>, key?: string) {
  const res = await h.api('/v2/search', { method: 'POST', json: body, ...(key && { key }) });
  return { status: res.status, body: await res.json() };
}

const urls = (list: { url: string }[] | undefined) =>
  (list ?? []).map((r) => new URL(r.url).pathname + (new URL(r.url).hostname === '127.0.0.1' ? '' : `@${new URL(r.url).hostname}`));

describe('search over the local index', () => {
  it('finds pages by their words (stemmed), with titles, descriptions, positions, id and credits', async () => {
    const { status, body } = await search({ query: 'executor' });
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({ success: true, id: expect.any(String), creditsUsed: 2, warning: null });
    expect(body.data.web).toEqual([
      { url: `${a.url}/blog/rust-async`, title: 'Rust async explained', description: 'How Rust runs asynchronous code.', position: 1 },
    ]);
    expect(Object.keys(body.data)).toEqual(['web']);
    const charge = await h.db.usageEntry.findMany({ where: { jobId: body.id } });
    expect(charge.map((e) => [e.endpoint, e.credits])).toEqual([['search', 2]]);
    const activity = await (await h.api('/v2/team/activity?endpoint=search')).json();
    expect(activity.data.map((r: { id: string }) => r.id)).toContain(body.id);
  });

  it('exact phrases, excluded words and excluded phrases', async () => {
    expect(urls((await search({ query: '"tokio runtime"' })).body.data.web)).toEqual(['/blog/rust-async']);
    expect(urls((await search({ query: '"runtime tokio"' })).body.data.web)).toEqual([]);
    expect(urls((await search({ query: 'release -flaky' })).body.data.web)).toEqual(['/draft']);
    expect(urls((await search({ query: 'release -"release plan"' })).body.data.web)).toEqual(['/blog/old-post']);
  });

  it('site:, -site:, includeDomains and excludeDomains, subdomains included', async () => {
    expect(urls((await search({ query: 'builders site:localhost' })).body.data.web)).toEqual(['/@localhost']);
    expect(urls((await search({ query: 'builders -site:127.0.0.1 -site:127.0.0.2' })).body.data.web)).toEqual(['/@localhost']);
    expect(urls((await search({ query: 'builders', includeDomains: ['127.0.0.2'] })).body.data.web)).toEqual(['/@127.0.0.2']);
    expect(urls((await search({ query: 'builders', excludeDomains: ['127.0.0.1', 'localhost'] })).body.data.web)).toEqual(['/@127.0.0.2']);
    expect(urls((await search({ query: 'release site:127.0.0.1/blog' })).body.data.web)).toEqual(['/blog/old-post']);
  });

  it('filetype:, inurl:, allinurl:, intitle: and allintitle:', async () => {
    expect(urls((await search({ query: 'builders filetype:html' })).body.data.web)).toEqual(['/page.html']);
    expect(urls((await search({ query: 'builders -filetype:html site:127.0.0.1' })).body.data.web).sort()).toEqual(['/', '/draft']);
    expect(urls((await search({ query: 'release inurl:blog' })).body.data.web)).toEqual(['/blog/old-post']);
    expect(urls((await search({ query: 'allinurl: blog rust' })).body.data.web)).toEqual(['/blog/rust-async']);
    expect(urls((await search({ query: 'release intitle:draft' })).body.data.web)).toEqual(['/draft']);
    expect(urls((await search({ query: 'release -intitle:draft' })).body.data.web)).toEqual(['/blog/old-post']);
    expect(urls((await search({ query: 'allintitle: release notes' })).body.data.web)).toEqual(['/blog/old-post']);
  });

  it('related: finds other domains linking where the given domain links', async () => {
    expect(urls((await search({ query: 'related:127.0.0.1' })).body.data.web)).toEqual(['/@localhost']);
  });

  it('tbs time ranges and sort by date; pages without a date are outside any range', async () => {
    expect(urls((await search({ query: 'release', tbs: 'cdr:1,cd_min:01/01/2026,cd_max:12/31/2026' })).body.data.web)).toEqual([]);
    expect(urls((await search({ query: 'rust', tbs: 'cdr:1,cd_min:11/01/2026,cd_max:11/30/2026' })).body.data.web)).toEqual(['/blog/rust-async']);
    expect(urls((await search({ query: 'release', tbs: 'cdr:1,cd_min:01/01/2020,cd_max:01/31/2020' })).body.data.web)).toEqual(['/blog/old-post']);
    expect(urls((await search({ query: 'rust', tbs: 'qdr:h' })).body.data.web)).toEqual([]);
    const byDate = (await search({ query: 'site:127.0.0.1', tbs: 'sbd:1' })).body.data.web;
    expect(urls(byDate).slice(0, 2)).toEqual(['/blog/rust-async', '/blog/old-post']);
  });

  it('categories: github pages are none here; a pdf category finds no html', async () => {
    const { body } = await search({ query: 'builders', categories: ['pdf'] });
    expect(body.data.web).toEqual([]);
  });

  it('language: German words match German stems when the request is German', async () => {
    expect(urls((await search({ query: 'Haus', lang: 'de' })).body.data.web)).toEqual(['/de/anleitung']);
    expect(urls((await search({ query: 'Häuser' })).body.data.web)).toEqual([]);
  });

  it('images (alt, caption), imagesize: and larger:, and news', async () => {
    const { body } = await search({ query: 'crab', sources: ['images', 'news', 'web'] });
    expect(Object.keys(body.data).sort()).toEqual(['images', 'news', 'web']);
    expect(body.data.images).toEqual([
      { title: 'Ferris the crab', imageUrl: `${a.url}/img/crab.png`, url: `${a.url}/blog/rust-async`, imageWidth: 800, imageHeight: 600, position: 1 },
    ]);
    expect((await search({ query: 'mascot', sources: ['images'] })).body.data.images).toHaveLength(1);
    expect((await search({ query: 'imagesize:100x50', sources: ['images'] })).body.data.images.map((i: { imageUrl: string }) => i.imageUrl)).toEqual([
      `${a.url}/img/logo.png`,
    ]);
    expect((await search({ query: 'larger:400x300', sources: ['images'] })).body.data.images.map((i: { imageUrl: string }) => i.imageUrl)).toEqual([
      `${a.url}/img/crab.png`,
    ]);
    expect((await search({ query: 'imagesize:640x160', sources: ['images'] })).body.data.images).toMatchObject([
      { imageUrl: `${a.url}/img/banner.png`, imageWidth: 640, imageHeight: 160 },
    ]);
    const news = (await search({ query: 'rust', sources: ['news'] })).body.data.news;
    expect(news).toEqual([
      {
        url: `${a.url}/blog/rust-async`,
        title: 'Rust async explained',
        snippet: 'How Rust runs asynchronous code.',
        date: '2026-11-20T08:00:00.000Z',
        imageUrl: 'https://cdn.example.net/crab-wide.jpg',
        position: 1,
      },
    ]);
  });

  it("another team never sees the team's pages; the shared setting shows only pages fetched without credentials", async () => {
    expect((await search({ query: 'builders' }, other.apiKey)).body.data.web.map((r: { url: string }) => r.url)).toEqual([`${a.url}/draft`]);
    expect((await search({ query: 'tokio' }, other.apiKey)).body.data.web).toEqual([]);
    const shared = createLocalProvider(h.db, { sharePublicPages: true, candidates: 200, statementTimeoutMs: 5000 });
    const query = searchQueryOf(searchRequestSchema.parse({ query: 'release plan' }), new Date());
    // Team A's /draft (no credentials) is shared; the other team's copy (fetched with a cookie) is not shown to A.
    const third = await h.newTeam();
    const seenByThird = await shared.search(query, { teamId: third.teamId, signal: new AbortController().signal });
    const rows = await h.db.searchPage.findMany({ where: { urlKey: { endsWith: '/draft' } }, select: { teamId: true, shareable: true } });
    expect(rows.map((r) => [r.teamId === h.teamId ? 'A' : 'other', r.shareable]).sort()).toEqual([
      ['A', true],
      ['other', false],
    ]);
    expect(seenByThird.web?.map((r) => r.url)).toEqual([`${a.url}/draft`]);
  });

  it('refuses malformed queries with the position, both domain lists, and enterprise without the flag', async () => {
    const bad = await search({ query: 'rust "async' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('Malformed query at position 6: a quotation mark is not closed');
    expect((await search({ query: 'x', includeDomains: ['a.com'], excludeDomains: ['b.com'] })).status).toBe(400);
    const zdr = await search({ query: 'x', enterprise: ['zdr'] });
    expect(zdr.status).toBe(403);
    expect(zdr.body.error).toMatch(/^Zero Data Retention \(ZDR\) search is not enabled for your team/);
  });

  it('answers any query text below 500: generated queries with operators, quotes, controls and odd characters', async () => {
    const parts = fc.oneof(
      fc.string({ maxLength: 12 }),
      fc.string({ unit: 'binary', maxLength: 8 }),
      fc.constantFrom(
        'site:',
        'site:a.b',
        '-site:x',
        'filetype:pdf',
        'inurl:%_\\',
        'intitle:"',
        'allinurl:',
        'related:a.com',
        'larger:1x1',
        'imagesize:0x0',
        '"',
        '-',
        '\u0000',
        '!',
        '&|',
        ':*',
        "'",
        'OR',
      ),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(parts, { maxLength: 8 }), fc.constantFrom(['web'], ['images'], ['news'], ['web', 'images', 'news']), async (words, sources) => {
        const { status, body } = await search({ query: words.join(' ').slice(0, 500), sources });
        expect(status, JSON.stringify({ words, body })).toBeLessThan(500);
      }),
      { numRuns: 300 },
    );
  }, 120_000);

  it('scrapeOptions scrapes each result through the crawl pipeline and adds its credits', async () => {
    const { body } = await search({ query: 'executor', scrapeOptions: { formats: ['markdown'] } });
    expect(body.data.web[0].markdown).toContain('tokio runtime');
    expect(body.data.web[0].metadata).toMatchObject({ statusCode: 200, title: 'Rust async explained' });
    expect(body.creditsUsed).toBe(3);
  }, 60_000);

  it('the official SDKs: JS search() and Python search()', async () => {
    const client = new Firecrawl({ apiKey: h.apiKey, apiUrl: h.baseUrl });
    const found = await client.search('rust', { sources: ['web', 'images', 'news'], limit: 5 });
    expect(found.web?.[0]).toMatchObject({ url: `${a.url}/blog/rust-async` });
    expect(found.images?.[0]).toMatchObject({ imageUrl: `${a.url}/img/crab.png`, imageWidth: 800 });
    expect(found.news?.[0]).toMatchObject({ title: 'Rust async explained' });
    const scraped = await client.search('executor', { scrapeOptions: { formats: ['markdown'] } });
    expect((scraped.web?.[0] as { markdown?: string }).markdown).toContain('tokio');
    const py = await runPythonSdk('test/sdk/python_search.py', { API_URL: h.baseUrl, API_KEY: h.apiKey });
    expect(py.code, py.stderr).toBe(0);
    const out = JSON.parse(py.stdout);
    expect(out.web[0]).toEqual([`${a.url}/blog/rust-async`, 'Rust async explained']);
    expect(out.images[0]).toEqual([`${a.url}/img/crab.png`, 800, 600]);
    expect(out.news[0][0]).toBe('Rust async explained');
    expect(out.scraped).toContain('tokio');
  }, 120_000);
});

describe('query plans', () => {
  it('finds the same results whichever plan the estimates choose, an estimate far below the truth included', async () => {
    const team = await h.newTeam();
    const crawlId = '00000000-0000-0000-0000-0000000000aa';
    // 4,000 pages drawn like bench:search's (w1 in most, w300 in few), half of them dated.
    await h.db.$executeRawUnsafe(
      `
      INSERT INTO search_page (team_id, url_key, url, host, path, content_type, title, description, lang, ts_config, tsv,
                               published_at, outbound_domains, news, shareable, score, crawl_id)
      SELECT $1::uuid, 'plans.test/p' || g, 'https://plans.test/p' || g, 'plans.test', '/p' || g, 'text/html', t.body, '', 'en', 'english',
             to_tsvector('english', t.body), CASE WHEN g % 2 = 0 THEN now() - (g % 400) * interval '1 day' END, '{}', false, false,
             1 + (g * 7919 % 4000) / 4000.0, $2::uuid
      FROM generate_series(1, 4000) g,
           LATERAL (SELECT string_agg('w' || floor(400 * power(((g * 31 + i * 17) % 97) / 97.0, 3))::int, ' ') AS body FROM generate_series(1, 12) i) t`,
      team.teamId,
      crawlId,
    );
    const provider = (walkRowCost: number) => createLocalProvider(h.db, { sharePublicPages: false, candidates: 20, statementTimeoutMs: 5000, walkRowCost });
    const [walk, read, chosen] = [provider(0), provider(Infinity), provider(WALK_ROW_COST)];
    const ctx = { teamId: team.teamId, signal: new AbortController().signal };
    const words = await h.db.$queryRawUnsafe<{ word: string; ndoc: number }[]>(
      `SELECT word, ndoc FROM ts_stat('SELECT tsv FROM search_page WHERE team_id = ''${team.teamId}''') WHERE ndoc >= 3 ORDER BY ndoc DESC, word`,
    );
    const [common, middle, rare] = [words[0].word, words[Math.floor(words.length / 2)].word, words.at(-1)!.word];
    // Two words next to each other on some page (and on the others built alike).
    const [{ phrase }] = await h.db.$queryRaw<
      { phrase: string }[]
    >`SELECT split_part(title, ' ', 1) || ' ' || split_part(title, ' ', 2) AS phrase FROM search_page WHERE team_id = ${team.teamId}::uuid ORDER BY url_key LIMIT 1`;
    const bodies = [
      { query: common },
      { query: rare },
      { query: `${common} ${middle}` },
      { query: `"${phrase}"` },
      // A narrow range and a common word: the index reads the range and the word together.
      { query: common, tbs: 'qdr:m' },
      // A wide range and a less common word: the index reads the word, the date is checked on its pages.
      { query: middle, tbs: 'qdr:y' },
      { query: common, tbs: 'sbd:1,qdr:y' },
      { query: `${middle} -${rare}` },
    ];
    const compare = async () => {
      for (const body of bodies) {
        const query = searchQueryOf(searchRequestSchema.parse({ ...body, limit: 10 }), new Date());
        const [walked, readAll, planned] = await Promise.all([walk, read, chosen].map(async (p) => (await p.search(query, ctx)).web?.map((r) => r.url)));
        expect(walked!.length, JSON.stringify(body)).toBeGreaterThan(0);
        expect(readAll, JSON.stringify(body)).toEqual(walked);
        expect(planned, JSON.stringify(body)).toEqual(walked);
      }
    };
    // Before ANALYZE the planner knows nothing of these pages: its estimates are far below the
    // truth, and reading every match stops at its cap and walks instead.
    await compare();
    await h.db.$executeRawUnsafe('ANALYZE search_page');
    await compare();
    await h.db.searchPage.deleteMany({ where: { teamId: team.teamId } });
  });

  it('finds every matching page while the same pages are indexed again (a retried batch stores them anew)', async () => {
    const team = await h.newTeam();
    const crawlId = '00000000-0000-0000-0000-0000000000ab';
    const PAGES = 5;
    await h.db.$executeRawUnsafe(
      `
      INSERT INTO search_page (team_id, url_key, url, host, path, content_type, title, description, lang, ts_config, tsv,
                               outbound_domains, news, shareable, score, crawl_id)
      SELECT $1::uuid, 'again.test/p' || g, 'https://again.test/p' || g, 'again.test', '/p' || g, 'text/html', 'heron ' || g, '', 'en', 'english',
             to_tsvector('english', 'heron sighting ' || g), '{}', false, false, 1, $2::uuid
      FROM generate_series(1, ${PAGES}) g`,
      team.teamId,
      crawlId,
    );
    const provider = createLocalProvider(h.db, { sharePublicPages: false, candidates: 20, statementTimeoutMs: 5000 });
    const query = searchQueryOf(searchRequestSchema.parse({ query: 'heron', limit: 10 }), new Date());
    const ctx = { teamId: team.teamId, signal: new AbortController().signal };
    // Every update writes a new version of each row, as indexPages' upsert does.
    let indexing = true;
    const reindex = (async () => {
      while (indexing) await h.db.$executeRaw`UPDATE search_page SET indexed_at = now() WHERE team_id = ${team.teamId}::uuid`;
    })();
    const counts: number[] = [];
    try {
      for (let i = 0; i < 150; i++) counts.push((await provider.search(query, ctx)).web!.length);
    } finally {
      indexing = false;
      await reindex;
    }
    expect(counts.filter((n) => n !== PAGES)).toEqual([]);
    await h.db.searchPage.deleteMany({ where: { teamId: team.teamId } });
  });
});

it('every answer is as the OpenAPI document (/v2/openapi.json) says', async () => {
  // How many depends on polling; only that the recorder saw answers is certain.
  expect(recorded.length).toBeGreaterThan(0);
  expect(await contractProblems(h.baseUrl, recorded)).toEqual([]);
});
