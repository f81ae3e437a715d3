// A crawl end to end: HTTP gateway -> Temporal -> worker (Crawlee + Chromium) ->
// PostgreSQL -> status API, against a local fixture site.
import { writeFileSync } from 'node:fs';
import { historyToJSON } from '@temporalio/common/lib/proto-utils.js';
import { Worker } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { newJobWorkflowId } from '../../src/jobs/definitions.ts';
import { page, startFixtureSite, type FixtureSite } from '../support/fixture-site.ts';
import { startHarness, waitForCrawl, type Harness } from '../support/harness.ts';

let h: Harness;
let site: FixtureSite;

beforeAll(async () => {
  h = await startHarness();
  await h.startWorker();
  site = await startFixtureSite({
    '/': page(
      'Fixture Home',
      '<nav><a href="/nav-only">Nav</a></nav><main><h1>Welcome</h1><p>Hello <b>crawler</b>.</p><a href="/docs/">Docs</a> <a href="/about">About</a> <a href="https://elsewhere.example/">External</a></main>',
      '<meta name="description" content="The fixture home page"><meta name="keywords" content="a, b"><meta property="og:title" content="OG Home"><meta property="og:locale:alternate" content="de_DE">',
    ),
    '/docs/': page('Docs', '<h1>Docs</h1><a href="/docs/a">A</a> <a href="/docs/a#section">A again</a>'),
    '/docs/a': page('Doc A', '<h1>Doc A</h1><p>Body of A</p><a href="/">home</a>'),
    '/about': page('About', '<h1>About us</h1><table><tr><th>k</th></tr><tr><td>v</td></tr></table>'),
    '/nav-only': page('Nav only', '<h1>Reached from the nav</h1>'),
  });
});

afterAll(async () => {
  await site?.close();
  await h?.stop();
});

describe('POST /v2/crawl then GET /v2/crawl/{id}', () => {
  it('crawls the site through Temporal and returns documents with markdown and metadata', async () => {
    const start = await h.api('/v2/crawl', { method: 'POST', json: { url: `${site.url}/`, limit: 50 } });
    expect(start.status).toBe(200);
    const started = await start.json();
    expect(started).toMatchObject({ success: true, id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(started.url).toBe(`${h.baseUrl}/v2/crawl/${started.id}`);

    const status = await waitForCrawl(h, started.id);
    expect(status).toMatchObject({ success: true, status: 'completed', completed: 5, total: 5, creditsUsed: 5 });
    expect(status.next).toBeUndefined();
    expect(new Date(status.expiresAt as string).getTime()).toBeGreaterThan(Date.now() + 23 * 3_600_000);

    const byPath = new Map(status.data.map((d) => [new URL(d.metadata.sourceURL).pathname, d]));
    expect([...byPath.keys()].sort()).toEqual(['/', '/about', '/docs/', '/docs/a', '/nav-only']);
    // Every page fetched exactly once, the fragment variant included.
    for (const path of byPath.keys()) expect(site.hits.get(path)).toBe(1);

    const home = byPath.get('/');
    expect(home.markdown).toContain('# Welcome');
    expect(home.markdown).toContain('Hello **crawler**.');
    expect(home.markdown).not.toContain('Nav');
    expect(home.metadata).toMatchObject({
      title: 'Fixture Home',
      description: 'The fixture home page',
      language: 'en',
      keywords: 'a, b',
      ogLocaleAlternate: ['de_DE'],
      'og:title': 'OG Home',
      sourceURL: `${site.url}/`,
      url: `${site.url}/`,
      statusCode: 200,
    });
    expect(byPath.get('/about').markdown).toContain('| k |');
  });

  it('is visible in Temporal with its search attributes, and its history replays deterministically', async () => {
    const started = await (await h.api('/v2/crawl', { method: 'POST', json: { url: `${site.url}/docs/`, limit: 10 } })).json();
    const status = await waitForCrawl(h, started.id);
    // crawlEntireDomain is false: only pages below /docs/ are followed.
    expect(status.data.map((d) => new URL(d.metadata.sourceURL).pathname).sort()).toEqual(['/docs/', '/docs/a']);

    const handle = h.temporal.workflow.getHandle(newJobWorkflowId('crawl', started.id));
    // The status reads completed once finishCrawl wrote it; the workflow returns right after.
    expect(await handle.result()).toMatchObject({ crawlId: started.id, status: 'completed', pagesHandled: 2 });
    const description = await handle.describe();
    expect(description.status.name).toBe('COMPLETED');
    expect(description.typedSearchAttributes.get({ name: 'TeamId', type: 'KEYWORD' } as never)).toBe(h.teamId);

    const history = await handle.fetchHistory();
    await Worker.runReplayHistory({ workflowBundle: { codePath: inject('workflowBundlePath') } }, history, newJobWorkflowId('crawl', started.id));
    // RECORD_HISTORY=<file> saves it as a fixture for the offline replay test (test/unit/workflow-replay.test.ts).
    if (process.env.RECORD_HISTORY) writeFileSync(process.env.RECORD_HISTORY, historyToJSON(history));
  });

  it('respects limit and maxDiscoveryDepth', async () => {
    const limited = await (await h.api('/v2/crawl', { method: 'POST', json: { url: `${site.url}/`, limit: 2 } })).json();
    const shallow = await (await h.api('/v2/crawl', { method: 'POST', json: { url: `${site.url}/`, maxDiscoveryDepth: 0 } })).json();
    const [l, s] = await Promise.all([waitForCrawl(h, limited.id), waitForCrawl(h, shallow.id)]);
    expect(l.completed).toBe(2);
    expect(l.data).toHaveLength(2);
    expect(s.data.map((d) => d.metadata.sourceURL)).toEqual([`${site.url}/`]);
  });

  it('pages the status data with skip/limit and an absolute next link', async () => {
    const started = await (await h.api('/v2/crawl', { method: 'POST', json: { url: `${site.url}/` } })).json();
    await waitForCrawl(h, started.id);
    const first = await (await h.api(`/v2/crawl/${started.id}?limit=2`)).json();
    expect(first.data).toHaveLength(2);
    // The next link carries where this page ended (after=<row id>): the next page is read by key.
    expect(first.next).toMatch(new RegExp(`^${h.baseUrl}/v2/crawl/${started.id}\\?skip=2&after=\\d+&limit=2$`));
    const seen = [...first.data];
    let next = first.next as string | undefined;
    while (next) {
      const body = await (await h.api(next.slice(h.baseUrl.length))).json();
      seen.push(...body.data);
      next = body.next;
    }
    expect(seen.map((d) => d.metadata.sourceURL).sort()).toEqual(['/', '/about', '/docs/', '/docs/a', '/nav-only'].map((p) => `${site.url}${p}`).sort());
  });

  it("answers 404 for another team's crawl, exactly as for an unknown id", async () => {
    const started = await (await h.api('/v2/crawl', { method: 'POST', json: { url: `${site.url}/about` } })).json();
    const other = await h.newTeam();
    const foreign = await h.api(`/v2/crawl/${started.id}`, { key: other.apiKey });
    const unknown = await h.api('/v2/crawl/01890000-0000-7000-8000-000000000000', { key: other.apiKey });
    expect(foreign.status).toBe(404);
    expect(unknown.status).toBe(404);
    // The same answer but for the request's own id.
    const { requestId: foreignId, ...foreignBody } = await foreign.json();
    const { requestId: unknownId, ...unknownBody } = await unknown.json();
    expect(foreignBody).toEqual(unknownBody);
    expect(foreignId).toBe(foreign.headers.get('x-request-id'));
    expect(unknownId).toBe(unknown.headers.get('x-request-id'));
    await waitForCrawl(h, started.id);
  });
});
