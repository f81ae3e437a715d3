// Drop-in by construction, the answers: every public method of the JS SDK (v2,
// research and v1 clients) called once against the real gateway, worker and
// browser host, each answer checked against the type the SDK declares for it
// (read from its own declarations: test/sdk/conformance/js-answer-types.ts), a
// method the coverage table refuses answered with its refusal, and scrapes with
// generated formats answered with the fields the docs promise for them. The
// test fails when the SDK has a method no step calls.
import Firecrawl, { SdkError, type FormatOption } from '@mendable/firecrawl-js';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLlm, type FakeLlm } from '../support/fake-llm.ts';
import { page, type FixtureSite } from '../support/fixture-site.ts';
import { waitFor, type Harness } from '../support/harness.ts';
import { startSessionHarness } from '../support/session-harness.ts';
import { jsAnswerTypes } from '../sdk/conformance/js-answer-types.ts';
import { jsSdkSurface } from '../sdk/coverage/js-surface.ts';
import { JS_METHODS } from '../sdk/coverage/methods.ts';

let h: Harness;
let site: FixtureSite;
let llm: FakeLlm;
const answerTypes = jsAnswerTypes({
  misdeclared: {
    'FirecrawlApp.asyncExtract':
      'declared ExtractResponse, but it returns the start body, which upstream and here is {success, id, urlTrace} (its id is used in the v1 step)',
    'FirecrawlApp.cancelCrawl':
      'declared ErrorResponse, but it returns the body of DELETE /v1/crawl/:id, which upstream and here is {status: "cancelled"} (checked in the v1 step)',
  },
  extraFields: {
    'ExtractResponse.tokensUsed':
      'the model tokens the extract used (docs/api/extract.md): the Python SDK reads it as tokens_used, the JS SDK leaves it out of its type',
    ...Object.fromEntries(
      ['expiresAt', 'endReason', 'sessionDurationMs', 'creditsBilled'].map((field) => [
        `BrowserSession.${field}`,
        'documented in docs/api/browser.md: when the session ends, why it ended, how long it ran and what it cost',
      ]),
    ),
    'CreditUsageHistoricalPeriod.totalCredits': "the spec's name for creditsUsed (both are answered)",
    'TokenUsageHistoricalPeriod.totalTokens': "the spec's name for tokensUsed (both are answered)",
    'AgentStatusResponse.id': "the run's id (docs/api/agent.md): the Python SDK's agent() returns it, the JS type has no id",
  },
});
const called = new Set<string>();

/** The SDK's client, with every method's answer checked against its declared type and every call recorded. */
function checked<T extends object>(target: T, client: string): T {
  return new Proxy(target, {
    get(object, property, receiver) {
      const value = Reflect.get(object, property, receiver) as unknown;
      if (typeof property !== 'string') return value;
      if (property === 'v1' || property === 'research') {
        called.add(`${client}.${property}`);
        return checked(value as object, property === 'v1' ? 'FirecrawlApp' : 'ResearchClient');
      }
      if (typeof value !== 'function' || property === 'constructor') return value;
      const name = `${client}.${property}`;
      return (...args: unknown[]) => {
        called.add(name);
        const result = (value as (...a: unknown[]) => unknown).apply(object, args);
        if (!(result instanceof Promise)) return result;
        return result.then((answer) => {
          const problems = answerTypes.problems(name, answer);
          if (problems.length > 0) throw new Error(`${name}: the answer is not of the SDK's type:\n${problems.slice(0, 20).join('\n')}`);
          return answer;
        });
      };
    },
  });
}

const SCHEMA = { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] };
let app: Firecrawl;

async function refusal(call: Promise<unknown>): Promise<SdkError> {
  try {
    await call;
  } catch (err) {
    if (err instanceof SdkError) return err;
    throw err;
  }
  throw new Error('the call was answered, not refused');
}

beforeAll(async () => {
  llm = await startFakeLlm();
  // The agent's model: done at its first step, with the answer its schema asks for.
  llm.script = (req) =>
    req.messages[0]?.content.startsWith('You are a research agent') ? JSON.stringify({ thought: 'done', action: { finish: { title: 'Widgets' } } }) : undefined;
  ({ h, site } = await startSessionHarness(
    {
      '/': page('Shop', '<main><h1>Shop</h1><a href="/widgets">widgets</a> <a href="/about">about</a><img src="/logo.png" alt="logo"></main>'),
      '/widgets': page(
        'Widget catalogue',
        '<main><h1>Widget catalogue</h1><p>Blue widgets cost five euros.</p></main>',
        '<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Blue widget","offers":{"@type":"Offer","price":"5.00","priceCurrency":"EUR","availability":"https://schema.org/InStock"}}</script>',
      ),
      '/about': page('About', '<main><h1>About us</h1><p>We make widgets.</p></main>'),
    },
    { llm: { baseUrl: llm.url, model: 'fake-big', smallModel: 'fake-small', local: true } },
  ));
  app = checked(new Firecrawl({ apiKey: h.apiKey, apiUrl: h.baseUrl }), 'FirecrawlClient');
}, 180_000);

afterAll(async () => {
  await h?.stop();
  await site?.close();
  await llm?.close();
});

describe('every method of @mendable/firecrawl-js, answered in the SDK’s own types', () => {
  it('scrape, interact, parse, map, search', async () => {
    const doc = await app.scrape(`${site.url}/widgets`, { formats: ['markdown', 'links', 'product', { type: 'json', schema: SCHEMA }] });
    expect(doc.product?.title).toBe('Blue widget');
    await app.scrapeUrl(`${site.url}/`, { formats: ['html'] });
    const id = doc.metadata?.scrapeId as string;
    await app.interact(id, { code: 'await page.title()', language: 'node' });
    await app.scrapeExecute(id, { code: 'await page.title()', language: 'node' });
    await app.stopInteraction(id);
    await app.interact(id, { code: '1', language: 'node' });
    await app.stopInteractiveBrowser(id);
    await app.interact(id, { code: '1', language: 'node' });
    await app.deleteScrapeBrowser(id);
    await app.parse({ data: Buffer.from('<h1>Parsed</h1><p>text</p>'), filename: 'a.html', contentType: 'text/html' }, { formats: ['markdown'] });
    await app.map(`${site.url}/`, { limit: 10 });
    await app.mapUrl(`${site.url}/`);
    await app.search('widgets', { limit: 3 });
  }, 180_000);

  it('crawls, batch scrapes and their status, errors, cancel, watcher and the v1-named aliases', async () => {
    const crawled = await app.crawl(`${site.url}/`, { limit: 3, sitemap: 'skip', pollInterval: 1 });
    expect(crawled.status).toBe('completed');
    await app.crawlUrl(`${site.url}/`, { limit: 2, sitemap: 'skip', pollInterval: 1 });
    const started = await app.startCrawl(`${site.url}/`, { limit: 2, sitemap: 'skip' });
    await app.asyncCrawlUrl(`${site.url}/about`, { limit: 1 });
    await waitFor('the crawl', async () => (await app.getCrawlStatus(started.id, { autoPaginate: false })).status === 'completed', 60_000, 500);
    await app.checkCrawlStatus(started.id);
    await app.getCrawlErrors(started.id);
    await app.checkCrawlErrors(started.id);
    await app.getActiveCrawls();
    const toCancel = await app.startCrawl(`${site.url}/`, { limit: 50, delay: 5 });
    await app.cancelCrawl(toCancel.id);
    await app.crawlParamsPreview(`${site.url}/`, 'only the widget pages');

    const batch = await app.batchScrape([`${site.url}/`, `${site.url}/about`], { options: { formats: ['markdown'] }, pollInterval: 1 });
    expect(batch.status).toBe('completed');
    await app.batchScrapeUrls([`${site.url}/about`], { pollInterval: 1 });
    const startedBatch = await app.startBatchScrape([`${site.url}/widgets`]);
    await app.asyncBatchScrapeUrls([`${site.url}/widgets`]);
    await waitFor('the batch', async () => (await app.getBatchScrapeStatus(startedBatch.id, { autoPaginate: false })).status === 'completed', 60_000, 500);
    await app.checkBatchScrapeStatus(startedBatch.id);
    await app.getBatchScrapeErrors(startedBatch.id);
    await app.checkBatchScrapeErrors(startedBatch.id);
    const batchToCancel = await app.startBatchScrape(
      Array.from({ length: 20 }, (_, i) => `${site.url}/?p=${i}`),
      { maxConcurrency: 1 },
    );
    await app.cancelBatchScrape(batchToCancel.id);

    const watched = await app.startCrawl(`${site.url}/`, { limit: 2, sitemap: 'skip' });
    const watcher = app.watcher(watched.id, { kind: 'crawl', pollInterval: 1 });
    const done = new Promise((resolve) => watcher.on('done', resolve));
    await watcher.start();
    await done;
    watcher.close();
  }, 240_000);

  it('extract and agent: start, status, wait, list, trace, snapshot, thread, cancel', async () => {
    const extract = await app.extract({ urls: [`${site.url}/widgets`], schema: SCHEMA, pollInterval: 1 });
    expect(extract.status).toBe('completed');
    const startedExtract = await app.startExtract({ urls: [`${site.url}/about`], prompt: 'the title' });
    await waitFor('the extract', async () => (await app.getExtractStatus(startedExtract.id!)).status !== 'processing', 60_000, 500);

    const run = await app.agent({ prompt: 'Name the widget page', schema: SCHEMA, pollInterval: 1 });
    expect(run.status).toBe('completed');
    const started = await app.startAgent({ prompt: 'Name it', schema: SCHEMA });
    await waitFor('the agent', async () => (await app.getAgentStatus(started.id)).status !== 'processing', 60_000, 500);
    await app.listAgents();
    const trace = await app.getAgentTrace(started.id, { liveView: true });
    const snapshot = trace.events?.flatMap((e) => (e.type === 'artifact.updated' ? [e.artifact.snapshotId] : []))[0];
    if (snapshot) await app.getAgentSnapshot(started.id, snapshot);
    else await refusal(app.getAgentSnapshot(started.id, 'none'));
    await app.getAgentThread(started.threadId!, { includeData: true });
    const toCancel = await app.startAgent({ prompt: 'Name it again', schema: SCHEMA });
    await app.cancelAgent(toCancel.id);
  }, 180_000);

  it('browser sessions, monitors, usage and queue', async () => {
    const session = await app.browser({ ttl: 60, activityTtl: 30 });
    await app.browserExecute(session.id!, { code: '1 + 1', language: 'node' });
    await app.listBrowsers({ status: 'active' });
    await app.deleteBrowser(session.id!);

    const monitor = await app.createMonitor({
      name: 'answers',
      schedule: { cron: '0 3 1 1 *', timezone: 'UTC' },
      targets: [{ type: 'scrape', urls: [`${site.url}/about`] }],
    });
    await app.listMonitors({ limit: 10 });
    await app.getMonitor(monitor.id);
    await app.updateMonitor(monitor.id, { name: 'answers, renamed' });
    const check = await app.runMonitor(monitor.id);
    await waitFor(
      'the check',
      async () => ['completed', 'partial', 'failed'].includes((await app.listMonitorChecks(monitor.id)).find((c) => c.id === check.id)?.status ?? ''),
      120_000,
      500,
    );
    await app.getMonitorCheck(monitor.id, check.id);
    await app.deleteMonitor(monitor.id);

    await app.getConcurrency();
    await app.getCreditUsage();
    await app.getTokenUsage();
    await app.getCreditUsageHistorical(true);
    await app.getTokenUsageHistorical();
    await app.getQueueStatus();
  }, 240_000);

  it('the Firecrawl cloud services answer their refusal', async () => {
    // Thunks: each call starts when it is awaited, so no refusal is left unhandled meanwhile.
    const refusals = [
      () => app.research.searchPapers('tau aggregation', { k: 3 }),
      () => app.research.getPaper('doi:10.1/x'),
      () => app.research.similarPapers('arxiv:2401.00001', { intent: 'replications' }),
      () => app.research.searchGithub('temporal', { k: 2 }),
      () => app.developerSearch('temporal workers', { k: 2 }),
      () => app.findTools({ limit: 2 }),
      () => app.feedback({ endpoint: 'scrape', jobId: crypto.randomUUID(), rating: 'good' }),
      () => app.searchFeedback(crypto.randomUUID(), { rating: 'bad' }),
      () => app.scrape({ alexandria: { provider: 'firecrawl', capability: 'find-tools' } }),
    ];
    for (const call of refusals) {
      const err = await refusal(call());
      expect({ status: err.status, code: err.code }).toEqual({ status: 501, code: 'CLOUD_SERVICE_NOT_OFFERED' });
    }
  });

  it('the v1 client', async () => {
    // Every call passes params: without them most v1 methods throw before sending (they read params.origin).
    const v1 = app.v1;
    await v1.scrapeUrl(`${site.url}/`, { formats: ['markdown'] });
    await v1.crawlUrl(`${site.url}/`, { limit: 2, ignoreSitemap: true }, 1);
    const started = await v1.asyncCrawlUrl(`${site.url}/`, { limit: 2, ignoreSitemap: true });
    const id = (started as { id: string }).id;
    await waitFor('the v1 crawl', async () => ((await v1.checkCrawlStatus(id)) as { status: string }).status === 'completed', 60_000, 500);
    await v1.checkCrawlErrors(id);
    const toCancel = (await v1.asyncCrawlUrl(`${site.url}/`, { limit: 50, delay: 5 })) as { id: string };
    expect(await v1.cancelCrawl(toCancel.id)).toEqual({ status: 'cancelled' });
    const watcher = await v1.crawlUrlAndWatch(`${site.url}/about`, { limit: 1 });
    await new Promise((resolve) => watcher.addEventListener('done', resolve));
    watcher.close();
    await v1.mapUrl(`${site.url}/`, {});
    await v1.search('widgets', { limit: 2 });
    await v1.batchScrapeUrls([`${site.url}/about`], { formats: ['markdown'] }, 1);
    const batch = (await v1.asyncBatchScrapeUrls([`${site.url}/widgets`], {})) as { id: string };
    await waitFor('the v1 batch', async () => ((await v1.checkBatchScrapeStatus(batch.id)) as { status: string }).status === 'completed', 60_000, 500);
    await v1.checkBatchScrapeErrors(batch.id);
    const batchWatcher = await v1.batchScrapeUrlsAndWatch([`${site.url}/about`], {});
    await new Promise((resolve) => batchWatcher.addEventListener('done', resolve));
    batchWatcher.close();
    await v1.extract([`${site.url}/widgets`], { schema: SCHEMA });
    const extract = (await v1.asyncExtract([`${site.url}/about`], { prompt: 'the title' })) as unknown as { id: string };
    await waitFor('the v1 extract', async () => ((await v1.getExtractStatus(extract.id)) as { status: string }).status !== 'processing', 60_000, 500);
    await v1.getQueueStatus();
    await v1.getCreditUsage();
    await v1.getTokenUsage();
    await v1.getCreditUsageHistorical();
    await v1.getTokenUsageHistorical(true);
    // Retired upstream: starts answered 410 with the successor, status 404 (docs/api/v1.md); the v1 client reports failures.
    for (const call of [
      () => v1.deepResearch('widgets', { maxUrls: 2 }),
      () => v1.asyncDeepResearch('widgets', {}),
      () => v1.checkDeepResearchStatus(crypto.randomUUID()),
      () => v1.__deepResearch('widgets', {}),
      () => v1.__asyncDeepResearch('widgets', {}),
      () => v1.__checkDeepResearchStatus(crypto.randomUUID()),
      () => v1.generateLLMsText(`${site.url}/`, {}),
      () => v1.asyncGenerateLLMsText(`${site.url}/`, {}),
      () => v1.checkGenerateLLMsTextStatus(crypto.randomUUID()),
    ]) {
      const answer = await call().then(
        (a) => a as { success?: boolean; error?: string },
        (err: Error) => {
          if (err instanceof TypeError) throw err;
          return { success: false, error: err.message };
        },
      );
      expect(answer, JSON.stringify(answer)).toMatchObject({ success: false, error: expect.stringMatching(/not offered|job not found/) });
    }
  }, 240_000);

  it('leaves no method of the SDK uncalled (a new SDK release adds a step here)', () => {
    const methods = jsSdkSurface().methods.map((m) => `${m.client}.${m.method}`);
    expect(methods.filter((m) => !called.has(m))).toEqual([]);
    // And every method refused here is refused in the coverage table too.
    expect(methods.filter((m) => JS_METHODS[m].status === 'todo')).toEqual([]);
  });
});

describe('scrapes with generated formats answer the fields the docs promise', () => {
  // docs/api/crawl.md#scrapeoptions: each format fills its field of the document.
  const FIELD_OF: Record<string, string> = {
    markdown: 'markdown',
    html: 'html',
    rawHtml: 'rawHtml',
    links: 'links',
    images: 'images',
    summary: 'summary',
    product: 'product',
    json: 'json',
    question: 'answer',
    highlights: 'highlights',
    attributes: 'attributes',
  };
  const format = fc.constantFrom<FormatOption>(
    'markdown',
    'html',
    'rawHtml',
    'links',
    'images',
    'summary',
    'product',
    { type: 'json', schema: SCHEMA },
    { type: 'question', question: 'What do widgets cost?' },
    { type: 'highlights', query: 'price' },
    { type: 'attributes', selectors: [{ selector: 'a', attribute: 'href' }] },
  );

  it('every requested format is in the document, of the SDK’s type', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(format, { minLength: 1, maxLength: 4, selector: (f) => (typeof f === 'string' ? f : f.type) }), async (formats) => {
        const doc = (await app.scrape(`${site.url}/widgets`, { formats, maxAge: 0 })) as Record<string, unknown>;
        for (const f of formats) {
          const field = FIELD_OF[typeof f === 'string' ? f : f.type];
          expect(doc[field], `${field} of ${JSON.stringify(formats)}`).toBeDefined();
        }
      }),
      { numRuns: Number(process.env.SDK_CONFORMANCE_RUNS ?? 8) },
    );
  }, 180_000);
});
