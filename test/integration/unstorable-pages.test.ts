// Hostile pages never fail a batch: what PostgreSQL cannot store is cleaned,
// over-long URLs are dropped or fail their page, pages, files and documents over
// their size limits are failed pages that say so, a team with a few credits
// cannot fill the frontier, and a status read loads no more than it returns.
// Every crawl here must end `completed` within CRAWL_BOUND_MS: a batch that
// failed on a page would be retried for minutes and then fail the crawl.
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crawlStatusBody, MAX_RESPONSE_BYTES } from '../../src/jobs/job-status.ts';
import { prepareDocument } from '../../src/jobs/pages/page-store.ts';
import type { Db } from '../../src/platform/db/prisma.ts';
import { page, startFixtureSite, type FixtureSite } from '../support/fixture-site.ts';
import { startHarness, waitFor, waitForCrawl, type Harness } from '../support/harness.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';

const KB = 1024;
const MB = KB * KB;
const CRAWL_BOUND_MS = 60_000;
const MAX_PAGE_BYTES = 256 * KB;
const MAX_FILE_BYTES = 512 * KB;
const MAX_DOCUMENT_BYTES = 400 * KB;

let h: Harness;
let site: FixtureSite;
let receiver: WebhookReceiver;

// Random base64 (6 bits a character), so PostgreSQL cannot compress the index entry below its
// 2,704-byte limit: a run of one letter, or even hex digits, would fit.
const LONG_PATH = `/long-links/x/${randomBytes(2250).toString('base64url')}`;

// NUL and lone surrogates cannot come through HTML parsing (the parser drops NUL and
// replaces bad references), so the page's script puts them into the DOM itself.
const UNSTORABLE_SCRIPT = `<script>
  document.title = 'Ti\\u0000tle \\uD800';
  const meta = document.createElement('meta');
  meta.name = 'odd\\u0000name';
  meta.content = 'lone \\uDC00 low';
  document.head.append(meta);
  const p = document.createElement('p');
  p.textContent = 'nul\\u0000here lone\\uD83Dhigh pair\\uD83D\\uDE00ok';
  document.querySelector('main').append(p);
</script>`;

// Too deep for the HTML-to-markdown converter even in a conversion thread (whose stack converts
// 5,000 levels). Static, so it takes the HTTP path: Chromium's parser would flatten it past 512.
const DEEP_LEVELS = 10_000;
const DEEP_HTML = `<!doctype html><html><head><title>Deep</title></head><body><main>${'<div>'.repeat(DEEP_LEVELS)}bottom${'</div>'.repeat(DEEP_LEVELS)}</main></body></html>`;

function links(...paths: string[]): string {
  return paths.map((p) => `<a href="${p}">${p.slice(0, 20)}</a>`).join(' ');
}

beforeAll(async () => {
  // rendering auto whatever CRAWL_RENDERING says: the deep page must reach the converter as written.
  h = await startHarness({ crawl: { maxPageBytes: MAX_PAGE_BYTES, maxFileBytes: MAX_FILE_BYTES, maxDocumentBytes: MAX_DOCUMENT_BYTES, rendering: 'auto' } });
  await h.startWorker();
  receiver = await startWebhookReceiver();
  const sitemap = `<?xml version="1.0"?><urlset>${Array.from({ length: 5000 }, (_, i) => `<url><loc>SITE/s/${i}</loc></url>`).join('')}</urlset>`;
  site = await startFixtureSite({
    '/unstorable/': page('start', `<main>${links('/unstorable/page')}</main>`),
    '/unstorable/page': page('placeholder', `<main><h1>Unstorable</h1></main>${UNSTORABLE_SCRIPT}`),
    '/long-links/': page('start', `<main>${links(LONG_PATH, '/long-links/ok', '/long-links/redirect')}</main>`),
    '/long-links/ok': page('OK', '<main>fine</main>'),
    '/long-links/redirect': { status: 302, headers: { location: LONG_PATH } },
    '/giant/': page('start', `<main>${links('/giant/page', '/giant/small')}</main>`),
    '/giant/page': page('Giant', `<main><p>${'giant page text '.repeat(64 * KB)}</p></main>`),
    '/giant/small': page('Small', '<main>small</main>'),
    '/files/': page('start', `<main>${links('/files/big.pdf')}</main>`),
    '/files/big.pdf': { headers: { 'content-type': 'application/pdf' }, body: Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(MB, 0x20)]) },
    '/deep/': page('start', `<main>${links('/deep/page')}</main>`),
    '/deep/page': DEEP_HTML,
    '/formats/': page('Formats', `<main><p>${'every format of this page '.repeat(6 * KB)}</p></main>`),
    '/credits/': page('start', `<main>${Array.from({ length: 2000 }, (_, i) => `<a href="/credits/l/${i}">${i}</a>`).join(' ')}</main>`),
    '/credits/sitemap.xml': (req) => ({ body: sitemap.replaceAll('SITE', `http://${req.headers.host}/credits`) }),
  });
});

afterAll(async () => {
  await site?.close();
  await receiver?.close();
  await h?.stop();
});

async function crawl(json: Record<string, unknown>, key = h.apiKey) {
  const res = await h.api('/v2/crawl', {
    method: 'POST',
    json: { sitemap: 'skip', ...json, scrapeOptions: { maxAge: 0, ...(json.scrapeOptions as object) } },
    key,
  });
  const body = await res.json();
  expect(res.status, JSON.stringify(body)).toBe(200);
  const status = await waitForCrawl(h, body.id, CRAWL_BOUND_MS, key);
  const errors = await (await h.api(`/v2/crawl/${body.id}/errors`, { key })).json();
  return { id: body.id as string, status, errors: errors.errors as { url: string; error: string }[] };
}

type Doc = { markdown?: string; rawHtml?: string; metadata: Record<string, unknown> & { sourceURL: string } };
const bySource = (data: Doc[]) => new Map(data.map((d) => [new URL(d.metadata.sourceURL).pathname, d]));

describe('content PostgreSQL refuses', () => {
  it('stores a page holding NUL and lone surrogates, cleaned, in its document and its webhook event', async () => {
    const { id, status, errors } = await crawl({
      url: `${site.url}/unstorable/`,
      webhook: { url: receiver.url, events: ['page'] },
      scrapeOptions: { formats: ['markdown', 'rawHtml'] },
    });
    expect(status.status).toBe('completed');
    expect(errors).toEqual([]);
    const doc = bySource(status.data).get('/unstorable/page')!;
    expect(doc.markdown).toContain('nulhere lone\uFFFDhigh pair\uD83D\uDE00ok');
    expect(doc.metadata.title).toBe('Title \uFFFD');
    expect(doc.metadata.oddname).toBe('lone \uFFFD low');
    expect(doc.rawHtml).not.toMatch(/\u0000/);
    const event = await waitFor(
      'the page event',
      async () => (await h.db.webhookEvent.findFirst({ where: { crawlId: id, type: 'crawl.page', itemKey: { contains: '/unstorable/page' } } })) ?? undefined,
    );
    expect(event.body).toContain('nulhere lone\uFFFDhigh');
    // Its search-index entry is cleaned the same way.
    const indexed = await h.db.$queryRaw<{ title: string }[]>`SELECT title FROM search_page WHERE crawl_id = ${id}::uuid AND path = '/unstorable/page'`;
    expect(indexed).toEqual([{ title: 'Title \uFFFD' }]);
  });
});

describe('over-long URLs', () => {
  it('drops a 3 KB link, fails a redirect to it with the reason, and completes', async () => {
    const { status, errors } = await crawl({ url: `${site.url}/long-links/` });
    expect(status.status).toBe('completed');
    expect([...bySource(status.data).keys()].sort()).toEqual(['/long-links/', '/long-links/ok']);
    expect(errors).toEqual([
      {
        id: expect.any(String),
        timestamp: expect.any(String),
        url: `${site.url}/long-links/redirect`,
        error: expect.stringMatching(
          /^The page redirected to a URL too long to crawl: http:\/\/.*\.\.\. is 30\d\d characters long, more than the 2048-character limit \(CRAWL_MAX_URL_LENGTH\)$/,
        ),
      },
    ]);
    // The link itself was never queued, so never fetched; the redirect's browser load was the only request for it.
    expect(site.hits.get(LONG_PATH)).toBe(1);
  });

  it('refuses an over-long start URL with a 400 that names the limit', async () => {
    const res = await h.api('/v2/crawl', { method: 'POST', json: { url: `${site.url}${LONG_PATH}` } });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatch(/^The URL http:\/\/.* is 30\d\d characters long, more than the 2048-character limit \(CRAWL_MAX_URL_LENGTH\)$/);
  });
});

describe('size limits', () => {
  it('fails a page whose HTML is over CRAWL_MAX_PAGE_BYTES, saying how large it is', async () => {
    const { status, errors } = await crawl({ url: `${site.url}/giant/` });
    expect(status.status).toBe('completed');
    expect([...bySource(status.data).keys()].sort()).toEqual(['/giant/', '/giant/small']);
    expect(errors.map((e) => [e.url, e.error])).toEqual([
      [`${site.url}/giant/page`, expect.stringMatching(/^The page is 1(\.\d)? MB, more than the 256 KB limit \(CRAWL_MAX_PAGE_BYTES\)$/)],
    ]);
  });

  it('fails a PDF over CRAWL_MAX_FILE_BYTES', async () => {
    const { status, errors } = await crawl({ url: `${site.url}/files/` });
    expect(status.status).toBe('completed');
    expect(errors.map((e) => [e.url, e.error])).toEqual([[`${site.url}/files/big.pdf`, 'The file is larger than the 512 KB limit (CRAWL_MAX_FILE_BYTES)']]);
  });

  it('fails a page whose document (every format together) is over CRAWL_MAX_DOCUMENT_BYTES', async () => {
    const { status, errors } = await crawl({ url: `${site.url}/formats/`, scrapeOptions: { formats: ['markdown', 'html', 'rawHtml'] } });
    expect(status.status).toBe('completed');
    expect(status.data).toEqual([]);
    expect(errors.map((e) => e.error)).toEqual([
      expect.stringMatching(/^The page's document .* is \d+(\.\d)? KB, more than the 400 KB limit \(CRAWL_MAX_DOCUMENT_BYTES\); ask for fewer formats$/),
    ]);
  });

  it('fails a page nested too deeply to convert, instead of its batch', async () => {
    const { status, errors } = await crawl({ url: `${site.url}/deep/` });
    expect(status.status).toBe('completed');
    expect(errors.map((e) => [e.url, e.error])).toEqual([[`${site.url}/deep/page`, expect.stringMatching(/^The page could not be turned into a document: /)]]);
  });
});

describe('frontier rows and credits', () => {
  it('gives a 1-credit team with a huge limit a handful of frontier rows, not thousands', async () => {
    const team = await h.newTeam({ credits: 1 });
    const { id, status } = await crawl({ url: `${site.url}/credits/`, sitemap: 'include', limit: 10_000_000 }, team.apiKey);
    expect(status.status).toBe('completed');
    expect(status.completed).toBe(1);
    // The start URL, plus at most CRAWL_QUEUED_URLS_PER_CREDIT (2) per credit of the balance.
    expect(await h.db.jobUrl.count({ where: { jobId: id } })).toBeLessThanOrEqual(3);
  });
});

describe('GET /v2/crawl/{id}', () => {
  it('loads no more documents than the 10 MB it returns, whatever their number', async () => {
    const crawlId = randomUUID();
    await h.db.job.create({ data: { id: crawlId, teamId: h.teamId, url: 'http://big.test/', options: {}, status: 'completed', completedAt: new Date() } });
    const rows = Array.from({ length: 30 }, (_, i) => {
      const { document, sizeBytes } = prepareDocument({
        markdown: `${i} `.padEnd(MB, 'x'),
        metadata: { sourceURL: `http://big.test/${i}`, url: `http://big.test/${i}`, statusCode: 200 },
      });
      return { jobId: crawlId, urlKey: `big.test/${i}`, url: `http://big.test/${i}`, success: true, statusCode: 200, document: document as object, sizeBytes };
    });
    await h.db.jobPage.createMany({ data: rows });
    let loadedBytes = 0;
    const counting = h.db.$extends({
      query: {
        jobPage: {
          async findMany({ args, query }) {
            const result = await query(args);
            for (const row of result as { document?: unknown }[])
              if (row.document !== undefined) loadedBytes += Buffer.byteLength(JSON.stringify(row.document));
            return result;
          },
        },
      },
    }) as unknown as Db;
    const crawl = await h.db.job.findUniqueOrThrow({ where: { id: crawlId } });
    const body = await crawlStatusBody(counting, crawl, { skip: 0, limit: 1000 }, 'http://gw/v2/crawl/x', 24);
    const returned = body.data.reduce((sum: number, d) => sum + Buffer.byteLength(JSON.stringify(d)), 0);
    expect(body.data).toHaveLength(9);
    expect(returned).toBeLessThanOrEqual(MAX_RESPONSE_BYTES);
    expect(loadedBytes).toBe(returned);
    expect(body.next).toMatch(/^http:\/\/gw\/v2\/crawl\/x\?skip=9&after=\d+&limit=1000$/);
    // And through the API, page after page, every document once.
    const seen: string[] = [];
    let next: string | undefined = `/v2/crawl/${crawlId}?limit=1000`;
    while (next) {
      const res: Response = await h.api(next);
      const text = await res.text();
      expect(Buffer.byteLength(text)).toBeLessThanOrEqual(MAX_RESPONSE_BYTES + 4 * KB);
      const page = JSON.parse(text);
      seen.push(...page.data.map((d: { metadata: { sourceURL: string } }) => d.metadata.sourceURL));
      next = page.next && new URL(page.next).pathname + new URL(page.next).search;
    }
    expect(seen).toEqual(rows.map((r) => r.url));
  });
});
