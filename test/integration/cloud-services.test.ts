// Every SDK method that calls a Firecrawl cloud service, through both official clients
// (JS in this process, Python in test/sdk/python_cloud_services.py) against the gateway:
// each raises the client's own error carrying the 501 CLOUD_SERVICE_NOT_OFFERED refusal,
// a malformed request is still a 400 naming the field, and what a caller does next (the
// search without the cloud values) answers. Also the search values of the SDKs' types
// that work here: highlights from the local index, threatProtection's lists, the tool
// fields' warning. Every JSON answer is checked against the OpenAPI document.
import Firecrawl, { SdkError } from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloudServiceMessage, type CloudServiceId } from '../../src/platform/cloud-services.ts';
import { page, startFixtureSite, type FixtureSite } from '../support/fixture-site.ts';
import { contractProblems, type RecordedResponse } from '../support/openapi-responses.ts';
import { startHarness, waitForCrawl, type Harness } from '../support/harness.ts';
import { runPythonSdk } from '../support/python-sdk.ts';

let h: Harness;
const recorded: RecordedResponse[] = [];
let coast: FixtureSite;
let harbour: FixtureSite;
let app: Firecrawl;

const QUERY = 'lighthouse';
const KEEPER =
  'Every evening the lighthouse keeper climbs the tower, trims the wick and winds the clockwork that turns the lens, so that ships see the light from far out at sea.';

beforeAll(async () => {
  h = await startHarness({ recordResponses: recorded });
  await h.startWorker();
  const filler = '<p>Tides, gulls and the weather of the northern coast fill most of this page. </p>'.repeat(20);
  coast = await startFixtureSite({
    '/': page(
      'Coast guide',
      `<h1>The northern coast</h1>${filler}<p>${KEEPER}</p><a href="/ships">ships</a> <a href="/long">logbook</a>`,
      '<meta name="description" content="A guide to the northern coast.">',
    ),
    '/ships': page('Ships', `<p>Ships of the coast. ${filler}</p><p>They steer by the lighthouse at night.</p>`, '<meta name="description" content="Ships.">'),
    // Said once, in another form, far into a long page: the highlight is found there.
    '/long': page(
      'Logbook',
      `${'<p>Wind from the west, calm sea, nothing to report on this watch.</p>'.repeat(1000)}<p>At dawn both lighthouses of the strait went dark.</p>`,
      '<meta name="description" content="The logbook.">',
    ),
  });
  harbour = await startFixtureSite({ '/': page('Harbour lighthouse', '<p>The harbour lighthouse guides the ferries home.</p>') }, { host: 'localhost' });
  for (const site of [coast, harbour]) {
    const started = await (await h.api('/v2/crawl', { method: 'POST', json: { url: `${site.url}/`, limit: 5, sitemap: 'skip' } })).json();
    expect((await waitForCrawl(h, started.id)).status).toBe('completed');
  }
  app = new Firecrawl({ apiKey: h.apiKey, apiUrl: h.baseUrl });
}, 180_000);

afterAll(async () => {
  await h?.stop();
  await Promise.all([coast, harbour].map((s) => s?.close()));
});

/** The SdkError a JS SDK call raised. */
async function sdkError(call: Promise<unknown>): Promise<SdkError & { requestId?: string }> {
  const err = await call.then(
    (value) => {
      throw new Error(`the call answered ${JSON.stringify(value)}`);
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(SdkError);
  return err as SdkError & { requestId?: string };
}

/**
 * The refusal as the JS SDK surfaces it: its message, status 501, the code, and the service in
 * details (the research client puts the whole body there, the others the body's details).
 */
function expectRefusal(err: SdkError, service: CloudServiceId) {
  expect({ name: err.name, message: err.message, status: err.status, code: err.code }).toEqual({
    name: 'FirecrawlSdkError',
    message: cloudServiceMessage(service),
    status: 501,
    code: 'CLOUD_SERVICE_NOT_OFFERED',
  });
  expect(err.details).toMatchObject(service === 'research-index' ? { details: { service } } : { service });
}

async function post(path: string, json: unknown) {
  const res = await h.api(path, { method: 'POST', json });
  return { status: res.status, body: await res.json() };
}

const urls = (list: object[] | undefined) => (list ?? []).map((r) => (r as { url?: string }).url);
/** The pages that say the query: three of the coast, one of the harbour. */
const coastPages = () => [`${coast.url}/`, `${coast.url}/ships`, `${coast.url}/long`];
const allPages = () => [...coastPages(), `${harbour.url}/`].sort();

/** Paths of the research prefixes no SDK calls: refused like the others, but (as unknown routes) in no document. */
const UNLISTED_RESEARCH_PATHS = ['/v2/search/research/papers/doi:1/citations', '/v2/research/papers?query=x', '/v2/search/research'];

describe('the JS SDK (@mendable/firecrawl-js 4.42)', () => {
  it('research: searchPapers, getPaper, similarPapers and searchGithub raise SdkError with the refusal (the client reads detail and type)', async () => {
    expectRefusal(await sdkError(app.research.searchPapers(QUERY, { k: 5, authors: ['Ada', 'Grace'], from: '2024-01-01' })), 'research-index');
    expectRefusal(await sdkError(app.research.getPaper('doi:10.1000/xyz')), 'research-index');
    expectRefusal(await sdkError(app.research.getPaper('pmid:123', { query: 'primary endpoint', k: 2 })), 'research-index');
    expectRefusal(await sdkError(app.research.similarPapers('arxiv:2401.00001', { intent: 'replications', mode: 'citers', rerank: true })), 'research-index');
    expectRefusal(await sdkError(app.research.searchGithub(QUERY, { k: 3 })), 'research-index');
    // A malformed request is a 400 (the research client shows its own message for it, as for upstream's 400s).
    const malformed = await sdkError(app.research.getPaper('pmid:123', { query: 'x', k: 51 }));
    expect(malformed.status).toBe(400);
    expect(malformed.details).toMatchObject({ code: 'BAD_REQUEST', error: 'k: must be at most 50' });
  });

  it('developerSearch, feedback and searchFeedback', async () => {
    expectRefusal(await sdkError(app.developerSearch(QUERY, { k: 5, types: ['issue', 'readme'], repos: ['tokio-rs/tokio'], minStars: 10 })), 'developer-index');
    const { id: searchId } = (await post('/v2/search', { query: QUERY })).body;
    expectRefusal(
      await sdkError(app.feedback({ endpoint: 'search', jobId: searchId, rating: 'partial', valuableSources: [{ url: `${coast.url}/` }], pageNumbers: [1] })),
      'feedback',
    );
    expectRefusal(await sdkError(app.searchFeedback(searchId, { rating: 'good', missingContent: [{ topic: 'tides' }] })), 'feedback');
    const malformed = await sdkError(app.searchFeedback('not-a-search-id', { rating: 'good' }));
    expect({ status: malformed.status, code: malformed.code, message: malformed.message }).toEqual({
      status: 400,
      code: 'BAD_REQUEST',
      message: 'jobId: Invalid job ID format. Job ID must be a valid UUID.',
    });
    const unknownKey = await sdkError(app.developerSearch(QUERY, { k: 500 }));
    expect({ status: unknownKey.status, message: unknownKey.message }).toEqual({ status: 400, message: 'k: Too big: expected number to be <=100' });
  });

  it('the Alexandria exchange: findTools and scrape({ alexandria }) raise SdkError with the refusal and their request id', async () => {
    const tools = await sdkError(app.findTools({ categories: ['finance'], level: 'tools', limit: 3 }));
    expectRefusal(tools, 'alexandria');
    expect(tools.requestId).toMatch(/^[0-9a-f-]{36}$/);
    const scrape = await sdkError(
      app.scrape({ alexandria: [{ provider: 'firecrawl', capability: 'find-tools', options: { limit: 3 } }], requestId: 'req-js-1', timeout: 30_000 }),
    );
    expectRefusal(scrape, 'alexandria');
    expect(scrape.requestId).toBe('req-js-1');
    // A call the client lets through but the exchange's schema refuses is a 400, never a scrape of no URL.
    const malformed = await post('/v2/scrape', { alexandria: [{ provider: 'firecrawl', capability: 'find-tools', extra: 1 }] });
    expect(malformed).toMatchObject({ status: 400, body: { code: 'BAD_REQUEST' } });
    const wrongType = await post('/v2/scrape', { alexandria: 'find-tools' });
    expect(wrongType).toMatchObject({ status: 400, body: { code: 'BAD_REQUEST' } });
  });

  it('search: the cloud values refuse, and the search without them answers', async () => {
    expectRefusal(await sdkError(app.search(QUERY, { sources: ['alexandria'] })), 'alexandria');
    expectRefusal(await sdkError(app.search(QUERY, { sources: [{ type: 'alexandria' }] })), 'alexandria');
    expectRefusal(await sdkError(app.search(QUERY, { categories: ['developer'] })), 'developer-index');
    expectRefusal(await sdkError(app.search(QUERY, { categories: [{ type: 'developer' }] })), 'developer-index');
    const combined = await sdkError(app.search(QUERY, { categories: ['developer', 'github'] }));
    expect({ status: combined.status, message: combined.message }).toEqual({
      status: 400,
      message: 'categories: the developer category cannot be combined with other categories',
    });

    const web = await app.search(QUERY, { sources: ['web'] });
    expect(urls(web.web).sort()).toEqual(allPages());
    expect(web.warning).toBeUndefined();
    const github = await app.search(QUERY, { categories: ['github'] });
    expect(github.web).toEqual([]);
  });

  it('search: the alexandria source beside others, domainTools and toolDetail answer with empty tools and a warning naming them', async () => {
    const found = await app.search(QUERY, { sources: ['web', 'news', 'alexandria'], domainTools: true, toolDetail: 'full', limit: 5 });
    expect(urls(found.web).sort()).toEqual(allPages());
    expect(found.news).toEqual([]);
    expect(found.tools).toEqual([]);
    expect(found.warning).toBe(
      'sources: alexandria and domainTools: tools come from the Alexandria exchange, a Firecrawl cloud service this self-hosted service does not offer; data.tools is empty',
    );
    const plain = await app.search(QUERY, { toolDetail: 'summary', enterprise: ['default'] });
    expect({ warning: plain.warning, tools: plain.tools, web: urls(plain.web).length }).toEqual({ warning: undefined, tools: undefined, web: 4 });
  });

  it('search: highlights replace descriptions with the passages of the stored pages that hold the query’s words', async () => {
    const plain = await app.search(QUERY);
    const highlighted = await app.search(QUERY, { highlights: true });
    const described = (list: object[] | undefined) =>
      Object.fromEntries(
        (list ?? []).map((r) => {
          const { url, description } = r as { url: string; description?: string };
          return [new URL(url).host + new URL(url).pathname, description];
        }),
      );
    const before = described(plain.web);
    const after = described(highlighted.web);
    const home = `${new URL(coast.url).host}/`;
    expect(before[home]).toBe('A guide to the northern coast.');
    expect(after[home]).toContain('lighthouse keeper climbs the tower');
    expect(after[home]).not.toContain('[');
    expect(after[`${new URL(coast.url).host}/ships`]).toContain('They steer by the lighthouse at night');
    expect(before[`${new URL(coast.url).host}/long`]).toBe('The logbook.');
    expect(after[`${new URL(coast.url).host}/long`]).toContain('At dawn both lighthouses of the strait went dark');
    for (const text of Object.values(after)) expect(text?.toLowerCase()).toContain('lighthouse');
    expect(highlighted.warning).toBeUndefined();
  });

  it('search: threatProtection’s lists remove results (whitelist wins); mode off removes nothing', async () => {
    const harbourHost = new URL(harbour.url).hostname;
    const blocked = await app.search(QUERY, { threatProtection: { mode: 'manual-only', blacklist: [harbourHost], blockedTlds: ['zip'] } });
    expect(urls(blocked.web).sort()).toEqual(coastPages().sort());
    const glob = await app.search(QUERY, { threatProtection: { blacklist: ['127.0.*'], whitelist: [new URL(coast.url).hostname] } });
    expect(urls(glob.web).sort()).toEqual(allPages());
    const everything = await app.search(QUERY, { threatProtection: { blacklist: ['*'] } });
    expect(everything.web).toEqual([]);
    const off = await app.search(QUERY, { threatProtection: { mode: 'off', blacklist: ['*'] } });
    expect(urls(off.web).sort()).toEqual(allPages());
  });
});

describe('over HTTP', () => {
  it('every path under the research prefixes is refused, as upstream refuses them unconfigured', async () => {
    for (const path of UNLISTED_RESEARCH_PATHS) {
      const res = await h.api(path);
      expect({ path, status: res.status, body: await res.json() }).toMatchObject({
        path,
        status: 501,
        body: { success: false, code: 'CLOUD_SERVICE_NOT_OFFERED', details: { service: 'research-index' } },
      });
    }
  });

  it('validates before it refuses: each malformed request is a 400 naming the field', async () => {
    expect((await post('/v2/search/gov', { query: 'x', courtType: 'county' })).body.error).toMatch(/^courtType: /);
    expect((await post('/v2/feedback', { endpoint: 'crawl', jobId: 'x', rating: 'good' })).body.error).toBe(
      'endpoint: endpoint must be one of search, scrape, parse, map',
    );
    expect((await (await h.api('/v2/search/research/papers?k=3')).json()).error).toMatch(/^query: /);
    expect((await post('/v2/search', { query: 'x', threatProtection: { mode: 'strict' } })).body.error).toBe(
      'threatProtection.mode: mode must be one of off, manual-only, normal, zscaler',
    );
    expect((await post('/v2/search/gov', { query: 'x' })).status).toBe(501);
  });
});

describe('the Python SDK (firecrawl 4.54)', () => {
  it('raises its FirecrawlError with the refusal for every cloud method, and answers the searches without them', async () => {
    const out = await runPythonSdk('test/sdk/python_cloud_services.py', {
      API_URL: h.baseUrl,
      API_KEY: h.apiKey,
      QUERY,
    });
    expect(out.stderr).toBe('');
    expect(out.code).toBe(0);
    const { refusals, answered, deprecation_warnings } = JSON.parse(out.stdout);
    // handle_response_error has no class of its own for 501: FirecrawlError, "Unexpected error during <action>: Status code 501. <error> - <details>".
    const refused = (action: string, service: CloudServiceId, requestId: string | null = null) => ({
      class: 'FirecrawlError',
      status_code: 501,
      code: 'CLOUD_SERVICE_NOT_OFFERED',
      message: `Unexpected error during ${action}: Status code 501. ${cloudServiceMessage(service)} - {'service': '${service}'}`,
      request_id: requestId,
    });
    expect(refusals).toMatchObject({
      search_papers: refused('research', 'research-index'),
      inspect_paper: refused('research', 'research-index'),
      read_paper: refused('research', 'research-index'),
      related_papers: refused('research', 'research-index'),
      search_github: refused('research', 'research-index'),
      developer_search: refused('search developer sources', 'developer-index'),
      gov_search: refused('search the Government Index', 'government-index'),
      scrape_alexandria: refused('scrape alexandria', 'alexandria', 'req-py-1'),
      find_tools: { ...refused('scrape alexandria', 'alexandria'), request_id: expect.stringMatching(/^[0-9a-f-]{36}$/) },
      search_alexandria: refused('search', 'alexandria'),
      search_developer: refused('search', 'developer-index'),
      search_gov: refused('search', 'government-index'),
      developer_search_malformed: { class: 'BadRequestError', status_code: 400, code: 'BAD_REQUEST' },
    });
    expect(refusals.developer_search_malformed.message).toMatch(/^Bad Request: Failed to search developer sources\. language: /);
    // search_github still warns that it is deprecated, before its request.
    expect(deprecation_warnings).toBe(1);

    const all = allPages();
    expect(answered.web_only.web.sort()).toEqual(all);
    expect(answered.web_and_alexandria).toMatchObject({ tools: [], warning: expect.stringMatching(/^sources: alexandria and domainTools: /) });
    expect(answered.web_and_alexandria.web.sort()).toEqual(all);
    expect(answered.github_instead_of_developer).toMatchObject({ web: [], warning: null });
    expect(answered.manual_lists.web.sort()).toEqual(coastPages().sort());
    expect(answered.highlights).toHaveLength(4);
    expect(answered.highlights.join(' ')).toContain('lighthouse keeper climbs the tower');
    expect(answered.scan_closed).toMatchObject({ web: [], warning: null });
    expect(answered.scan_open.web.sort()).toEqual(all);
    expect(answered.scan_open.warning).toMatch(/threatProtection: mode "zscaler" scans with .*failurePolicy "open" let the page through without a scan/);
  });
});

it('every answer the SDKs and requests got is as the OpenAPI document (/v2/openapi.json) says', async () => {
  expect(recorded.some((r) => r.status === 501)).toBe(true);
  expect(
    await contractProblems(
      h.baseUrl,
      recorded.filter((r) => !UNLISTED_RESEARCH_PATHS.includes(r.url)),
    ),
  ).toEqual([]);
});
