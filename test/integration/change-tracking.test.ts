// The changeTracking format on POST /v2/scrape, crawls and batch scrapes: each page
// against the team's previous snapshot of its URL and tag, against a fixture site
// whose text the test changes between calls, and a fake OpenAI-compatible model
// for the json mode.
import { createServer, type Server } from 'node:http';
import Firecrawl from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { noModelMessage } from '../../src/jobs/job-model.ts';
import { CHANGE_TRACKING_JSON_MODE } from '../../src/page/formats/change-tracking/change-tracking-format.ts';
import { ZDR_CHANGE_TRACKING_WARNING } from '../../src/jobs/batch/page-handler.ts';
import { storeScrapedPage, storeScrapedPages, type PageWrite } from '../../src/jobs/pages/page-store.ts';
import { insertCrawl, scrapedPage, seedStartUrl } from '../support/crawl-rows.ts';
import { page, startFixtureSite, type FixtureSite } from '../support/fixture-site.ts';
import { startHarness, waitFor, waitForCrawl, type Harness } from '../support/harness.ts';

let h: Harness;
let site: FixtureSite;
let llm: Server;
const llmRequests: { messages: { role: string; content: string }[]; response_format?: unknown }[] = [];
let llmReply: Record<string, unknown> | string = {};
/** The text of each page of the fixture site, changed by the tests. */
const text: Record<string, string> = {
  '/pricing': 'Starter costs $9 a month.',
  '/tagged': 'Tagged page.',
  '/sdk': 'Scraped by the SDK.',
  '/json': 'Pro costs $29 a month.',
  '/zdr': 'Private page.',
  '/site': 'Site home.',
  '/site/a': 'Page A.',
  '/site/b': 'Page B, first version.',
};

const links: Record<string, string> = { '/site': '<a href="/site/a">A</a> <a href="/site/b">B</a>' };

const WITH_DIFF = ['markdown', { type: 'changeTracking', modes: ['git-diff'] }];

async function scrape(path: string, formats: unknown[] = WITH_DIFF, key?: string, extra: Record<string, unknown> = {}) {
  const res = await h.api('/v2/scrape', { method: 'POST', key, json: { url: `${site.url}${path}`, formats, maxAge: 0, ...extra } });
  const body = await res.json();
  expect(res.status, JSON.stringify(body)).toBe(200);
  return body.data;
}

beforeAll(async () => {
  llm = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      llmRequests.push(JSON.parse(body));
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ choices: [{ message: { content: typeof llmReply === 'string' ? llmReply : JSON.stringify(llmReply) } }] }));
    });
  });
  await new Promise<void>((r) => llm.listen(0, '127.0.0.1', r));
  h = await startHarness({ llm: { baseUrl: `http://127.0.0.1:${(llm.address() as { port: number }).port}/v1`, model: 'fake-model' } });
  await h.startWorker();
  const resources = Object.fromEntries(
    Object.keys(text).map((path) => [path, () => ({ body: page(path, `<main><h1>${path}</h1><p>${text[path]}</p>${links[path] ?? ''}</main>`) })]),
  );
  site = await startFixtureSite(resources);
});

afterAll(async () => {
  await site?.close();
  await h?.stop();
  llm?.close();
});

describe('changeTracking on POST /v2/scrape', () => {
  it('is new, then same, then changed with the diff of the markdown', async () => {
    const first = await scrape('/pricing');
    expect(first.changeTracking).toEqual({ previousScrapeAt: null, changeStatus: 'new', visibility: 'visible' });
    const snapshot = await h.db.changeSnapshot.findFirstOrThrow({ where: { teamId: h.teamId, url: { endsWith: '/pricing' } } });
    expect(snapshot).toMatchObject({ tag: '', markdown: first.markdown, json: null });

    const second = await scrape('/pricing');
    expect(second.changeTracking).toEqual({ previousScrapeAt: snapshot.scrapedAt.toISOString(), changeStatus: 'same', visibility: 'visible' });

    text['/pricing'] = 'Starter costs $12 a month.';
    const third = await scrape('/pricing');
    const tracking = third.changeTracking;
    expect(tracking).toMatchObject({ changeStatus: 'changed', visibility: 'visible' });
    expect(new Date(tracking.previousScrapeAt).getTime()).toBeGreaterThan(snapshot.scrapedAt.getTime());
    expect(tracking.diff.text).toContain('\n-Starter costs $9 a month.\n+Starter costs $12 a month.\n');
    expect(tracking.diff.text.startsWith('--- previous\n+++ current\n@@ ')).toBe(true);
    const changes = tracking.diff.json.files[0].chunks.flatMap((c: { changes: unknown[] }) => c.changes);
    expect(changes).toContainEqual({ type: 'del', del: true, ln: expect.any(Number), content: '-Starter costs $9 a month.' });
    expect(changes).toContainEqual({ type: 'add', add: true, ln: expect.any(Number), content: '+Starter costs $12 a month.' });
    // GET by id answers the stored document, result included.
    const again = await (await h.api(`/v2/scrape/${third.metadata.scrapeId}`)).json();
    expect(again.data.changeTracking).toEqual(tracking);
    expect(await h.db.changeSnapshot.count({ where: { teamId: h.teamId, url: { endsWith: '/pricing' } } })).toBe(1);
  });

  it('fetches the page whatever maxAge says, so a cached copy never stands for the current version', async () => {
    const hits = site.hits.get('/pricing') ?? 0;
    text['/pricing'] = 'Starter costs $15 a month.';
    const res = await h.api('/v2/scrape', { method: 'POST', json: { url: `${site.url}/pricing`, formats: WITH_DIFF } });
    expect((await res.json()).data.changeTracking.changeStatus).toBe('changed');
    expect(site.hits.get('/pricing')).toBe(hits + 1);
  });

  it('works from the JS SDK unchanged, with its ChangeTrackingFormat', async () => {
    const client = new Firecrawl({ apiKey: h.apiKey, apiUrl: h.baseUrl });
    const doc = await client.scrape(`${site.url}/sdk`, { formats: ['markdown', { type: 'changeTracking', modes: ['git-diff'], tag: 'sdk' }], maxAge: 0 });
    expect(doc.changeTracking).toEqual({ previousScrapeAt: null, changeStatus: 'new', visibility: 'visible' });
    const again = await client.scrape(`${site.url}/sdk`, { formats: ['markdown', { type: 'changeTracking', modes: ['git-diff'], tag: 'sdk' }], maxAge: 0 });
    expect(again.changeTracking).toMatchObject({ changeStatus: 'same' });
  });

  it('keeps snapshots per team: another team sees the same URL as new, and they go with the team', async () => {
    const other = await h.newTeam();
    const theirs = await scrape('/pricing', WITH_DIFF, other.apiKey);
    expect(theirs.changeTracking.changeStatus).toBe('new');
    expect((await scrape('/pricing')).changeTracking.changeStatus).toBe('same');
    expect(await h.db.changeSnapshot.count({ where: { teamId: other.teamId } })).toBe(1);
    await h.db.team.delete({ where: { id: other.teamId } });
    expect(await h.db.changeSnapshot.count({ where: { teamId: other.teamId } })).toBe(0);
  });

  it('keeps a separate snapshot per tag', async () => {
    const tagged = (tag?: string) => ['markdown', { type: 'changeTracking', ...(tag && { tag }) }];
    expect((await scrape('/tagged', tagged())).changeTracking.changeStatus).toBe('new');
    expect((await scrape('/tagged', tagged('weekly'))).changeTracking.changeStatus).toBe('new');
    text['/tagged'] = 'Tagged page, edited.';
    expect((await scrape('/tagged', tagged('weekly'))).changeTracking.changeStatus).toBe('changed');
    expect((await scrape('/tagged', tagged('daily'))).changeTracking.changeStatus).toBe('new');
    // The untagged snapshot still holds the first version.
    const untagged = await scrape('/tagged', tagged());
    expect(untagged.changeTracking.changeStatus).toBe('changed');
    expect(untagged.changeTracking).not.toHaveProperty('diff');
    expect(
      (await h.db.changeSnapshot.findMany({ where: { teamId: h.teamId, url: { endsWith: '/tagged' } }, orderBy: { tag: 'asc' } })).map((s) => s.tag),
    ).toEqual(['', 'daily', 'weekly']);
  });

  it('keeps nothing for a zero-data-retention scrape: always new, with a warning', async () => {
    const zdr = await h.newTeam({ flags: { zeroDataRetention: true } });
    for (let i = 0; i < 2; i++) {
      const data = await scrape('/zdr', WITH_DIFF, zdr.apiKey, { zeroDataRetention: true });
      expect(data.changeTracking).toEqual({ previousScrapeAt: null, changeStatus: 'new', visibility: 'visible' });
      expect(data.warning).toBe(ZDR_CHANGE_TRACKING_WARNING);
    }
    expect(await h.db.changeSnapshot.count({ where: { teamId: zdr.teamId } })).toBe(0);
  });
});

describe('changeTracking json mode', () => {
  const jsonMode = [
    'markdown',
    { type: 'changeTracking', modes: ['json'], schema: { type: 'object', properties: { price: { type: 'string' } } }, tag: 'json' },
  ];

  it('is a 400 naming LLM_BASE_URL on scrape, crawl, batch scrape and search when no model is configured', async () => {
    const configured = h.config.llm.baseUrl;
    // The gateway reads this config object: the server as it would run without LLM_BASE_URL.
    h.config.llm.baseUrl = undefined;
    try {
      const bodies = [
        ['/v2/scrape', { url: `${site.url}/json`, formats: jsonMode }],
        ['/v2/crawl', { url: `${site.url}/json`, scrapeOptions: { formats: jsonMode } }],
        ['/v2/batch/scrape', { urls: [`${site.url}/json`], formats: jsonMode }],
        ['/v2/search', { query: 'pricing', scrapeOptions: { formats: jsonMode } }],
      ] as const;
      for (const [path, json] of bodies) {
        const res = await h.api(path, { method: 'POST', json });
        expect(res.status, path).toBe(400);
        expect(await res.json()).toMatchObject({ success: false, code: 'MODEL_NOT_CONFIGURED', error: noModelMessage(CHANGE_TRACKING_JSON_MODE) });
      }
      expect(noModelMessage(CHANGE_TRACKING_JSON_MODE)).toContain('LLM_BASE_URL');
    } finally {
      h.config.llm.baseUrl = configured;
    }
  });

  it('compares the fields the model extracts, previous against current', async () => {
    llmReply = { price: '$29' };
    const first = await scrape('/json', jsonMode);
    expect(first.changeTracking.changeStatus).toBe('new');
    const request = llmRequests.at(-1)!;
    expect(request.response_format).toMatchObject({
      type: 'json_schema',
      json_schema: { schema: { type: 'object', properties: { price: { type: 'string' } } } },
    });
    expect(request.messages[0]!.content).toContain('{"type":"object","properties":{"price":{"type":"string"}}}');
    expect(request.messages[1]!.content).toContain('Pro costs $29 a month.');
    expect((await h.db.changeSnapshot.findFirstOrThrow({ where: { teamId: h.teamId, tag: 'json' } })).json).toEqual({ price: '$29' });

    text['/json'] = 'Pro costs $39 a month.';
    llmReply = { price: '$39' };
    const second = await scrape('/json', jsonMode);
    expect(second.changeTracking).toMatchObject({ changeStatus: 'changed', json: { price: { previous: '$29', current: '$39' } } });
    expect(second.changeTracking).not.toHaveProperty('diff');
    // A page whose fields a model extracted costs 5 credits, as upstream bills it.
    expect(await h.db.usageEntry.findMany({ where: { jobId: second.metadata.scrapeId }, select: { credits: true } })).toEqual([{ credits: 5 }]);
  });

  it('says so when the model fails, charges no extraction and keeps the last fields to compare with', async () => {
    llmReply = 'not JSON at all';
    text['/json'] = 'Pro costs $49 a month.';
    const failed = await scrape('/json', jsonMode);
    expect(failed.changeTracking.changeStatus).toBe('changed');
    expect(failed.changeTracking).not.toHaveProperty('json');
    expect(failed.warning).toMatch(/^changeTracking json mode: the fields could not be extracted: .*not valid JSON/);
    expect(await h.db.usageEntry.findMany({ where: { jobId: failed.metadata.scrapeId }, select: { credits: true } })).toEqual([{ credits: 1 }]);
    llmReply = { price: '$49' };
    const next = await scrape('/json', jsonMode);
    expect(next.changeTracking).toMatchObject({ changeStatus: 'same' });
    text['/json'] = 'Pro costs $59 a month.';
    llmReply = { price: '$59' };
    expect((await scrape('/json', jsonMode)).changeTracking.json).toEqual({ price: { previous: '$49', current: '$59' } });
  });
});

describe('changeTracking on crawls and batch scrapes', () => {
  const statuses = (data: { metadata: { sourceURL: string }; changeTracking: { changeStatus: string } }[]) =>
    Object.fromEntries(data.map((d) => [new URL(d.metadata.sourceURL).pathname, d.changeTracking.changeStatus]));

  it('gives each page of a crawl its own status', async () => {
    const crawl = async () => {
      const res = await h.api('/v2/crawl', {
        method: 'POST',
        json: { url: `${site.url}/site`, sitemap: 'skip', scrapeOptions: { formats: WITH_DIFF, maxAge: 0 } },
      });
      expect(res.status).toBe(200);
      const status = await waitForCrawl(h, (await res.json()).id);
      expect(status.status).toBe('completed');
      return status.data;
    };
    expect(statuses(await crawl())).toEqual({ '/site': 'new', '/site/a': 'new', '/site/b': 'new' });
    text['/site/b'] = 'Page B, second version.';
    const second = await crawl();
    expect(statuses(second)).toEqual({ '/site': 'same', '/site/a': 'same', '/site/b': 'changed' });
    const b = second.find((d: { metadata: { sourceURL: string } }) => d.metadata.sourceURL.endsWith('/site/b'));
    expect(b.changeTracking.diff.text).toContain('-Page B, first version.\n+Page B, second version.\n');
    expect(second.every((d: { changeTracking: { visibility: string } }) => d.changeTracking.visibility === 'visible')).toBe(true);
  });

  it('gives each page of a batch scrape its status against the same snapshots', async () => {
    text['/site/a'] = 'Page A, edited.';
    const res = await h.api('/v2/batch/scrape', {
      method: 'POST',
      json: { urls: [`${site.url}/site/a`, `${site.url}/site/b`], formats: WITH_DIFF, maxAge: 0 },
    });
    expect(res.status).toBe(200);
    const { id } = await res.json();
    const status = await waitFor(`batch ${id}`, async () => {
      const body = await (await h.api(`/v2/batch/scrape/${id}`)).json();
      return body.status !== 'scraping' ? body : undefined;
    });
    expect(statuses(status.data)).toEqual({ '/site/a': 'changed', '/site/b': 'same' });
  });
});

describe('snapshots in the page store', () => {
  async function pageWrite(url: string, markdown: string): Promise<PageWrite> {
    const crawl = await insertCrawl(h.db, h.teamId, { url });
    const start = await seedStartUrl(h.db, crawl.id, crawl.options);
    const snapshotKey = `retry.test/${crawl.id}`;
    return {
      page: scrapedPage(crawl.id, start),
      next: {
        follow: [],
        robotsBlocked: [],
        limit: 10,
        charge: { teamId: h.teamId, apiKeyId: null, endpoint: 'crawl', credits: 1 },
        changeTracking: { teamId: h.teamId, url: snapshotKey, tag: '', format: { modes: ['git-diff'] }, markdown },
      },
    };
  }
  const stored = async (write: PageWrite) =>
    (await h.db.jobPage.findFirstOrThrow({ where: { jobId: write.page.crawlId, urlKey: write.page.urlKey } })).document as {
      changeTracking: { changeStatus: string };
    };

  it('reuses the result a retried write finds stored with its page, never comparing the page with itself', async () => {
    const write = await pageWrite('http://retry.test/once', 'version one');
    await storeScrapedPage(h.db, write.page, write.next);
    const snapshot = await h.db.changeSnapshot.findFirstOrThrow({ where: { teamId: h.teamId, url: write.next.changeTracking!.url } });
    await storeScrapedPage(h.db, write.page, write.next);
    expect((await stored(write)).changeTracking.changeStatus).toBe('new');
    expect(await h.db.changeSnapshot.findFirstOrThrow({ where: { teamId: h.teamId, url: write.next.changeTracking!.url } })).toEqual(snapshot);
  });

  it('writes no snapshot when the transaction of the pages rolls back', async () => {
    const write = await pageWrite('http://retry.test/rolled-back', 'version one');
    const orphan = { ...write, page: { ...write.page, urlKey: 'retry.test/no-frontier-row' } };
    await expect(storeScrapedPages(h.db, [write, orphan])).rejects.toThrow(/no frontier row/);
    expect(await h.db.changeSnapshot.count({ where: { teamId: h.teamId, url: write.next.changeTracking!.url } })).toBe(0);
    // Stored alone afterwards, as the batch does, it is still new.
    await storeScrapedPage(h.db, write.page, write.next);
    expect((await stored(write)).changeTracking.changeStatus).toBe('new');
  });
});
