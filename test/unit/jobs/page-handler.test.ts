// The page handler alone: a job context built from a crawl row in memory, the
// real inline converter, and a writer that records what it is given instead of
// writing to PostgreSQL. What a loaded page becomes (its write: charge, links,
// webhook, index entry, cache copy), and which pages fail alone, which fail the
// batch, and which go to the browser.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Job, Team } from '../../../src/generated/prisma/client.ts';
import { BatchTally } from '../../../src/jobs/batch/batch-tally.ts';
import {
  createPageHandler,
  ZDR_CHANGE_TRACKING_WARNING,
  type FailedPage,
  type PageHandlerDeps,
  type PageWriter,
} from '../../../src/jobs/batch/page-handler.ts';
import { crawlRequestSchema, type CrawlRequestInput } from '../../../src/jobs/crawl-request.ts';
import { jobContext } from '../../../src/jobs/job-context.ts';
import { cacheKey } from '../../../src/jobs/pages/page-cache.ts';
import { DuplicateRedirectError, type PageWrite } from '../../../src/jobs/pages/page-store.ts';
import type { JobWebhook } from '../../../src/jobs/webhooks/crawl-events.ts';
import { convertInline } from '../../../src/page/conversion/html-conversion.ts';
import type { PageLoad } from '../../../src/page/page-load.ts';
import type { ScrapeOptionsInput } from '../../../src/page/scrape-options.ts';
import { pageTooLargeMessage } from '../../../src/page/page-size.ts';
import { loadConfig } from '../../../src/config.ts';
import { createLogger } from '../../../src/platform/log.ts';
import { page } from '../../support/fixture-site.ts';

const SITE = 'https://site.test';
const config = loadConfig();
const TEXT = 'Static pages carry their words in the HTML itself, so no browser is needed to read them. ';

const team: Team = {
  id: '0190a000-0000-7000-8000-000000000001',
  name: 'page-handler',
  concurrencyLimit: 2,
  creditBalance: 100,
  planCredits: null,
  flagIgnoreRobotsTxt: true,
  flagRobotsUserAgent: false,
  flagZeroDataRetention: true,
  flagSearchAnon: false,
  flagSearchZdr: false,
  webhookSigningSecret: null,
  createdAt: new Date(),
};

/**
 * The job context of a crawl row that was never stored. robots.txt is ignored unless the row carries
 * the start origin's (as planCrawl stores it): either way nothing is fetched.
 */
function job(request: Partial<CrawlRequestInput> = {}, kind = 'crawl', robotsTxt: string | null = null) {
  const options = crawlRequestSchema.parse({ url: `${SITE}/`, ignoreRobotsTxt: robotsTxt === null, sitemap: 'skip', ...request });
  const crawl: Job & { team: Team } = {
    id: randomUUID(),
    teamId: team.id,
    apiKeyId: '0190a000-0000-7000-8000-0000000000a1',
    url: options.url,
    options,
    status: 'scraping',
    error: null,
    createdAt: new Date(),
    completedAt: null,
    expiresAt: null,
    robotsTxt,
    warning: null,
    workflowStartedAt: null,
    workflowId: null,
    taskQueue: null,
    kind,
    resumeKey: null,
    resumableUntil: null,
    pausedAt: null,
    pausedBy: null,
    answeredFromCacheAt: null,
    team,
  };
  const robotsFetch = async () => {
    throw new Error('no robots.txt is fetched in these tests');
  };
  return jobContext({ config }, { crawl, options, robotsAgent: 'test', robotsFetch });
}

/** A writer that keeps what it is given; `refuse` makes its next page write throw. */
class RecordingWriter implements PageWriter {
  readonly pages: PageWrite[] = [];
  readonly failures: { page: FailedPage; webhook?: JobWebhook }[] = [];
  refuse: Error | undefined;

  async page(write: PageWrite) {
    const err = this.refuse;
    this.refuse = undefined;
    if (err) throw err;
    this.pages.push(write);
  }

  async failure(page: FailedPage, webhook?: JobWebhook) {
    this.failures.push({ page, webhook });
  }
}

function handler(
  opts: {
    request?: Partial<CrawlRequestInput>;
    kind?: string;
    robotsTxt?: string;
    limits?: Partial<PageHandlerDeps['limits']>;
    depths?: Record<string, number>;
    indexing?: boolean;
  } = {},
) {
  const writer = new RecordingWriter();
  const progress: number[] = [];
  const tally = new BatchTally((handled) => progress.push(handled));
  const probed: string[][] = [];
  const ctx = job(opts.request, opts.kind, opts.robotsTxt);
  const h = createPageHandler({
    job: ctx,
    limits: { ...config.crawl, ...opts.limits },
    indexing: opts.indexing ?? true,
    redactMaxChunks: 8,
    convert: convertInline,
    probeImages: async (urls) => {
      probed.push(urls);
      return {};
    },
    writer,
    tally,
    depthOf: (key) => opts.depths?.[key] ?? 0,
    log: createLogger('error'),
    signal: new AbortController().signal,
  });
  return { h, writer, tally, progress, probed, job: ctx };
}

const target = (path: string) => ({ url: `${SITE}${path}`, key: `site.test${path}` });
const html = (path: string, rawHtml: string, over: Partial<PageLoad> = {}): PageLoad => ({
  finalUrl: `${SITE}${path}`,
  statusCode: 200,
  contentType: 'text/html; charset=utf-8',
  rawHtml,
  ...over,
});
const stored = { path: 'browser' as const };

const WEBHOOK = { url: 'https://hooks.test/crawl', metadata: { run: 7 } };
const LINKS_PAGE = page(
  'Docs',
  `<main><h1>Docs</h1><p>${TEXT.repeat(3)}</p>
   <a href="/docs/a">A</a> <a href="/docs/b?x=1">B</a> <a href="/private/c">C</a> <a href="https://elsewhere.test/d">D</a> <a href="/logo.png">logo</a></main>`,
);

describe('createPageHandler: a stored page', () => {
  it('writes the page with its charge of 1 credit, its links under the crawl rules at depth + 1, its webhook, index entry and cache copy', async () => {
    const { h, writer, tally, job: ctx } = handler({ request: { excludePaths: ['^/private'], webhook: WEBHOOK }, depths: { 'site.test/docs': 1 } });
    const load = html('/docs', LINKS_PAGE);
    expect(await h.store(target('/docs'), load, stored)).toBeUndefined();

    expect(writer.failures).toEqual([]);
    expect(writer.pages).toHaveLength(1);
    const [{ page: p, next }] = writer.pages as [PageWrite];
    expect(p).toMatchObject({
      crawlId: ctx.crawl.id,
      urlKey: 'site.test/docs',
      url: `${SITE}/docs`,
      statusCode: 200,
      finalUrlKey: 'site.test/docs',
      finalUrl: `${SITE}/docs`,
    });
    expect(p.document.document.markdown).toContain('Static pages carry their words');
    expect(p.document.sizeBytes).toBe(Buffer.byteLength(p.document.json));
    expect(next.charge).toEqual({ teamId: team.id, apiKeyId: ctx.crawl.apiKeyId, endpoint: 'crawl', credits: 1, modelTokens: 0 });
    // /private is excluded, elsewhere.test is external, the image is no page: two links at depth 2.
    expect(next.follow).toEqual([
      { url: `${SITE}/docs/a`, urlKey: 'site.test/docs/a', depth: 2 },
      { url: `${SITE}/docs/b?x=1`, urlKey: 'site.test/docs/b?x=1', depth: 2 },
    ]);
    expect(next.robotsBlocked).toEqual([]);
    expect(next.limit).toBe(ctx.options.limit);
    expect(next.queuedPerCredit).toBe(config.crawl.queuedUrlsPerCredit);
    expect(next.webhook).toMatchObject(WEBHOOK);
    expect(next.index).toMatchObject({
      teamId: team.id,
      crawlId: ctx.crawl.id,
      shareable: true,
      entry: { url: `${SITE}/docs`, urlKey: 'site.test/docs', title: 'Docs' },
    });
    expect(next.cache).toEqual({ teamId: team.id, key: cacheKey(`${SITE}/docs`, ctx.options.scrapeOptions), load });
    expect(tally).toMatchObject({ succeeded: 1, failed: 0 });
  });

  it('follows no links at maxDiscoveryDepth, nor for a job that does not discover links', async () => {
    const deep = handler({ request: { maxDiscoveryDepth: 1 }, depths: { 'site.test/docs': 1 } });
    await deep.h.store(target('/docs'), html('/docs', LINKS_PAGE), stored);
    expect(deep.writer.pages[0]!.next.follow).toEqual([]);
    const batch = handler({ kind: 'batch_scrape' });
    await batch.h.store(target('/docs'), html('/docs', LINKS_PAGE), stored);
    expect(batch.writer.pages[0]!.next.follow).toEqual([]);
    expect(batch.writer.pages[0]!.next.charge.endpoint).toBe('batch_scrape');
  });

  it('leaves out the index entry when not indexing, and the cache copy for a page from the cache', async () => {
    const { h, writer } = handler({ indexing: false });
    await h.store(target('/docs'), html('/docs', LINKS_PAGE), { path: 'cache' });
    expect(writer.pages[0]!.next.index).toBeUndefined();
    expect(writer.pages[0]!.next.cache).toBeUndefined();
  });

  it('charges a PDF one credit per page, up to the parser maxPages, and one more under zero data retention', async () => {
    const pdf = (numPages: number): PageLoad => ({
      finalUrl: `${SITE}/report.pdf`,
      statusCode: 200,
      contentType: 'application/pdf',
      pdf: { markdown: '# Report\n\nQuarterly numbers.', html: '<h1>Report</h1>', numPages, title: 'Report', metadata: {} },
    });
    const credits = async (request: Partial<CrawlRequestInput>, numPages: number) => {
      const { h, writer } = handler({ request });
      await h.store(target('/report.pdf'), pdf(numPages), stored);
      return writer.pages[0]!.next.charge.credits;
    };
    expect(await credits({}, 1)).toBe(1);
    expect(await credits({}, 5)).toBe(5);
    expect(await credits({ scrapeOptions: { parsers: [{ type: 'pdf', maxPages: 3 }] } }, 5)).toBe(3);
    expect(await credits({ zeroDataRetention: true }, 5)).toBe(6);

    const { h, writer } = handler();
    await h.store(target('/report.pdf'), pdf(2), stored);
    const { page: p, next } = writer.pages[0]!;
    expect(p.document.document).toMatchObject({ markdown: '# Report\n\nQuarterly numbers.', metadata: { numPages: 2, title: 'Report' } });
    // A PDF's index entry is made from its text.
    expect(next.index?.entry).toMatchObject({ urlKey: 'site.test/report.pdf', title: 'Report' });
  });

  it('charges an HTML page 2 credits under zero data retention, and keeps it out of the cache', async () => {
    const { h, writer } = handler({ request: { zeroDataRetention: true } });
    await h.store(target('/docs'), html('/docs', LINKS_PAGE), stored);
    expect(writer.pages[0]!.next.charge.credits).toBe(2);
    expect(writer.pages[0]!.next.cache).toBeUndefined();
  });
});

describe('createPageHandler: redirects', () => {
  it('fails a page that redirected outside the crawl rules, with the reason, and writes nothing', async () => {
    const { h, writer, tally } = handler({ request: { webhook: WEBHOOK } });
    await h.store(target('/moved'), html('/moved', LINKS_PAGE, { finalUrl: 'https://elsewhere.test/landing', statusCode: 200 }), stored);
    expect(writer.pages).toEqual([]);
    expect(writer.failures).toHaveLength(1);
    const [{ page: failed, webhook }] = writer.failures as [{ page: FailedPage; webhook?: JobWebhook }];
    expect(failed).toMatchObject({ urlKey: 'site.test/moved', url: `${SITE}/moved`, statusCode: 200 });
    expect(failed.error).toMatch(/^Redirected to https:\/\/elsewhere\.test\/landing, which this crawl does not follow: /);
    expect(webhook).toMatchObject(WEBHOOK);
    expect(tally).toMatchObject({ succeeded: 0, failed: 1 });
  });

  it('fails a redirect robots.txt disallows, and keeps links it disallows out of the frontier', async () => {
    const { h, writer } = handler({ robotsTxt: 'User-agent: *\nDisallow: /private\n' });
    await h.store(target('/moved'), html('/private/x', LINKS_PAGE), stored);
    expect(writer.failures.map((f) => f.page.error)).toEqual([`Redirected to ${SITE}/private/x, which robots.txt disallows`]);
    await h.store(target('/docs'), html('/docs', LINKS_PAGE), stored);
    const { next } = writer.pages[0]!;
    expect(next.robotsBlocked).toEqual([{ url: `${SITE}/private/c`, urlKey: 'site.test/private/c' }]);
    expect(next.follow.map((l) => l.urlKey)).toEqual(['site.test/docs/a', 'site.test/docs/b?x=1']);
  });

  it('stores a redirect within the rules under the final URL, and lets the start URL redirect anywhere', async () => {
    const inside = handler();
    await inside.h.store(target('/old'), html('/new', LINKS_PAGE), stored);
    expect(inside.writer.pages[0]!.page).toMatchObject({ urlKey: 'site.test/old', finalUrlKey: 'site.test/new', finalUrl: `${SITE}/new` });
    const start = handler();
    await start.h.store(target('/'), html('/', LINKS_PAGE, { finalUrl: 'https://www.elsewhere.test/' }), stored);
    expect(start.writer.failures).toEqual([]);
    expect(start.writer.pages[0]!.page.finalUrl).toBe('https://www.elsewhere.test/');
  });
});

describe('createPageHandler: failures', () => {
  it('fails a page over maxPageBytes before converting it', async () => {
    const { h, writer, tally } = handler({ limits: { maxPageBytes: 1_000 } });
    const big = page('Big', `<p>${'x'.repeat(2_000)}</p>`);
    await h.store(target('/big'), html('/big', big), stored);
    expect(writer.pages).toEqual([]);
    expect(writer.failures.map((f) => f.page.error)).toEqual([pageTooLargeMessage(Buffer.byteLength(big), 1_000)]);
    expect(tally.failed).toBe(1);
  });

  it('fails the page, not the batch, when the writer refuses it as a duplicate redirect', async () => {
    const { h, writer, tally } = handler();
    writer.refuse = new DuplicateRedirectError(`Redirected to ${SITE}/new, which this crawl already scraped`);
    await expect(h.store(target('/old'), html('/new', LINKS_PAGE), stored)).resolves.toBeUndefined();
    expect(writer.failures.map((f) => [f.page.urlKey, f.page.error, f.page.statusCode])).toEqual([
      ['site.test/old', `Redirected to ${SITE}/new, which this crawl already scraped`, 200],
    ]);
    expect(tally).toMatchObject({ succeeded: 0, failed: 1 });
  });

  it('fails the page, not the batch, when PostgreSQL refuses a value of the page', async () => {
    const { h, writer, tally } = handler();
    // How the driver adapter raises a data exception (SQLSTATE class 22), see platform/db/rejected-data.ts.
    writer.refuse = Object.assign(new Error('invalid byte sequence for encoding "UTF8"'), { cause: { code: '22021' } });
    await expect(h.store(target('/docs'), html('/docs', LINKS_PAGE), stored)).resolves.toBeUndefined();
    expect(writer.failures.map((f) => f.page.error)).toEqual([expect.stringMatching(/^The page could not be stored: /)]);
    expect(tally).toMatchObject({ succeeded: 0, failed: 1 });
  });

  it('fails the batch when the writer fails for any other reason', async () => {
    const { h, writer, tally } = handler();
    const lost = new Error('Connection terminated unexpectedly');
    writer.refuse = lost;
    await expect(h.store(target('/docs'), html('/docs', LINKS_PAGE), stored)).rejects.toBe(lost);
    expect(writer.failures).toEqual([]);
    expect(tally).toMatchObject({ succeeded: 0, failed: 0 });
  });
});

describe('createPageHandler: rendering auto', () => {
  // An app shell: no text without its script, which writes the page.
  const APP = page('App', '<div id="root"></div><script>document.getElementById("root").innerHTML = "<h1>Rendered app</h1>";</script>');

  it('sends a script-rendered page fetched over HTTP to the browser and writes nothing', async () => {
    const { h, writer, tally } = handler({ limits: { rendering: 'auto' } });
    const outcome = await h.store(target('/app'), html('/app', APP), { path: 'http' });
    expect(outcome).toEqual({ needsBrowser: 'little text besides scripts' });
    expect(writer.pages).toEqual([]);
    expect(writer.failures).toEqual([]);
    expect(tally).toMatchObject({ succeeded: 0, failed: 0 });
  });

  it('stores the same page when the browser loaded it, or when nothing would render it (http)', async () => {
    const browser = handler({ limits: { rendering: 'auto' } });
    expect(await browser.h.store(target('/app'), html('/app', APP), stored)).toBeUndefined();
    expect(browser.writer.pages).toHaveLength(1);
    const http = handler({ limits: { rendering: 'http' } });
    expect(await http.h.store(target('/app'), html('/app', APP), { path: 'http' })).toBeUndefined();
    expect(http.writer.pages).toHaveLength(1);
  });

  it('probes the unsized images of an indexed page fetched over HTTP', async () => {
    const { h, writer, probed } = handler({ limits: { rendering: 'auto', imageProbes: 5 } });
    const withImage = page('Pictures', `<main><p>${TEXT.repeat(3)}</p><img src="/cat.jpg" alt="A cat"></main>`);
    await h.store(target('/pictures'), html('/pictures', withImage), { path: 'http' });
    expect(probed).toEqual([[`${SITE}/cat.jpg`]]);
    expect(writer.pages).toHaveLength(1);
  });
});

describe('createPageHandler: the tally', () => {
  it('counts stored and failed pages and reports each as progress', async () => {
    const { h, tally, progress } = handler({ limits: { maxPageBytes: 5_000 } });
    await h.store(target('/a'), html('/a', LINKS_PAGE), stored);
    await h.fail(target('/b'), 'fetch failed', 503);
    await h.store(target('/c'), html('/c', page('Big', 'x'.repeat(6_000))), stored);
    await h.store(target('/d'), html('/d', LINKS_PAGE), stored);
    expect(tally).toMatchObject({ succeeded: 2, failed: 2, handled: 4 });
    expect(progress).toEqual([1, 2, 3, 4]);
  });
});

describe('createPageHandler: change tracking', () => {
  const formats: ScrapeOptionsInput['formats'] = ['markdown', { type: 'changeTracking', modes: ['git-diff'], tag: 'weekly' }];

  it('hands the page store its version under the URL key with the query kept, and its tag', async () => {
    const { h, writer } = handler({ request: { ignoreQueryParameters: true, scrapeOptions: { formats } } });
    await h.store({ url: `${SITE}/docs?b=2&a=1`, key: 'site.test/docs' }, html('/docs?b=2&a=1', LINKS_PAGE), stored);
    const [{ page: p, next }] = writer.pages as [PageWrite];
    expect(next.changeTracking).toEqual({
      teamId: team.id,
      url: 'site.test/docs?a=1&b=2',
      tag: 'weekly',
      format: { type: 'changeTracking', modes: ['git-diff'], tag: 'weekly' },
      markdown: p.document.document.markdown,
      fields: undefined,
    });
    // The result is the page store's, written in the page's transaction.
    expect(p.document.document).not.toHaveProperty('changeTracking');
  });

  it('gives a zero-data-retention page no snapshot: new, with a warning', async () => {
    const { h, writer } = handler({ request: { zeroDataRetention: true, scrapeOptions: { formats } } });
    await h.store(target('/docs'), html('/docs', LINKS_PAGE), stored);
    const [{ page: p, next }] = writer.pages as [PageWrite];
    expect(next.changeTracking).toBeUndefined();
    expect(p.document.document.changeTracking).toEqual({ previousScrapeAt: null, changeStatus: 'new', visibility: 'visible' });
    expect(p.document.document.warning).toBe(ZDR_CHANGE_TRACKING_WARNING);
  });
});
