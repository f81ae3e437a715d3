// The refusal of Firecrawl cloud services: its message and envelope, and the request
// schemas of the refused routes (what the SDKs send passes; malformed is a 400).
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alexandriaScrapeRequestSchema, isAlexandriaRequest } from '../../../src/features/single-scrape/alexandria-request.ts';
import {
  developerSearchBody,
  feedbackBody,
  govSearchBody,
  paperQuery,
  searchFeedbackBody,
  searchPapersQuery,
  similarPapersQuery,
} from '../../../src/features/cloud-services/requests.ts';
import { REFUSED_ROUTES } from '../../../src/features/cloud-services/routes.ts';
import { CLOUD_SERVICES, cloudServiceMessage, cloudServiceNotOffered } from '../../../src/platform/cloud-services.ts';
import { errorHandler } from '../../../src/platform/http/errors.ts';
import { createLogger } from '../../../src/platform/log.ts';
import { rejectMessage } from './helpers.ts';

describe('the refusal', () => {
  let server: ReturnType<ReturnType<typeof express>['listen']>;
  let base: string;
  beforeAll(async () => {
    const app = express();
    app.use((_req, res, next) => {
      res.locals.requestId = 'req-1';
      next();
    });
    app.get('/refused', () => {
      throw cloudServiceNotOffered('research-index');
    });
    app.use(errorHandler(createLogger('error', { process: 'test' })));
    server = await new Promise((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => server?.close());

  it('says the service is a cloud service this one does not offer, and what comes closest', () => {
    expect(cloudServiceMessage('research-index')).toBe(
      'The research paper index (paper search, paper reads, similar papers and its GitHub search) is a Firecrawl cloud service; this self-hosted service does not offer it. ' +
        'POST /v2/search with categories ["research"] searches the pages of academic sites this service has stored.',
    );
    expect(cloudServiceMessage('feedback')).toMatch(/^Job feedback \(.*\) is a Firecrawl cloud service; this self-hosted service does not offer it\.$/);
    for (const id of Object.keys(CLOUD_SERVICES) as (keyof typeof CLOUD_SERVICES)[]) {
      expect(cloudServiceNotOffered(id)).toMatchObject({ kind: 'not-offered', message: cloudServiceMessage(id), details: { service: id } });
    }
  });

  it('is a 501 in the error envelope, with the RFC 9457 members the JS SDK’s research client reads', async () => {
    const res = await fetch(`${base}/refused`);
    expect(res.status).toBe(501);
    expect(await res.json()).toEqual({
      success: false,
      code: 'CLOUD_SERVICE_NOT_OFFERED',
      error: cloudServiceMessage('research-index'),
      details: { service: 'research-index' },
      type: 'CLOUD_SERVICE_NOT_OFFERED',
      detail: cloudServiceMessage('research-index'),
      requestId: 'req-1',
    });
  });

  it('covers each route the SDKs call once', () => {
    const routes = REFUSED_ROUTES.map((r) => `${r.method.toUpperCase()} /v2${r.path}`);
    expect(new Set(routes).size).toBe(routes.length);
    expect(new Set(REFUSED_ROUTES.map((r) => r.service))).toEqual(new Set(['research-index', 'developer-index', 'government-index', 'feedback']));
  });
});

describe('what the SDKs send', () => {
  it('research: the query strings of searchPapers, getPaper, similarPapers (values as strings, repeated keys as arrays)', () => {
    expect(
      searchPapersQuery.parse({ query: 'tau', k: '10', authors: ['A', 'B'], categories: 'q-bio.GN', from: '2024-01-01', origin: 'js-sdk@4.42.0' }),
    ).toMatchObject({ k: 10, authors: ['A', 'B'] });
    expect(paperQuery.parse({ query: 'primary endpoint', k: '3', origin: 'python-sdk@4.54.0' })).toMatchObject({ k: 3 });
    expect(rejectMessage(paperQuery, { k: '3' }).error).toBe('k: k is only valid together with query');
    expect(similarPapersQuery.parse({ intent: 'replications', mode: 'citers', rerank: 'true', anchor: 'doi:1' })).toMatchObject({ rerank: 'true' });
    expect(rejectMessage(searchPapersQuery, { query: 'x', k: '0' }).error).toBe('k: must be at least 1');
    expect(rejectMessage(searchPapersQuery, { query: 'x', from: '1/2/2024' }).error).toBe('from: must be a date YYYY-MM-DD');
    expect(rejectMessage(similarPapersQuery, { intent: ' ' }).error).toBe('intent: intent cannot be empty');
  });

  it('developer and gov search bodies', () => {
    expect(
      developerSearchBody.parse({
        query: 'tokio',
        k: 5,
        passages: 2,
        types: ['issue', 'readme'],
        repos: ['tokio-rs/tokio'],
        min_stars: 10,
        archived: false,
        skills: 'only',
        origin: 'x',
      }),
    ).toMatchObject({ min_stars: 10 });
    expect(rejectMessage(developerSearchBody, { query: 'x', types: ['wiki'] }).error).toMatch(/^types\.0: /);
    expect(rejectMessage(developerSearchBody, { query: 'x', minStars: 1 }).error).toMatch(/^Unrecognized key/);
    expect(govSearchBody.parse({ query: 'miranda', k: 3, jurisdiction: 'us', courtType: 'federal-supreme', origin: 'python-sdk@4.54.0' })).toMatchObject({
      courtType: 'federal-supreme',
    });
    expect(rejectMessage(govSearchBody, { query: 'x', courtType: 'county' }).error).toMatch(/^courtType: /);
  });

  it('feedback bodies', () => {
    const rating = {
      rating: 'partial',
      valuableSources: [{ url: 'https://a.example/', reason: 'on topic' }],
      missingContent: [{ topic: 'prices' }],
      integration: null,
    };
    expect(searchFeedbackBody.parse(rating)).toMatchObject({ rating: 'partial' });
    expect(feedbackBody.parse({ ...rating, endpoint: 'scrape', jobId: 'j', issues: ['stale'], pageNumbers: [1, 2], metadata: { a: 1 } })).toMatchObject({
      endpoint: 'scrape',
    });
    expect(rejectMessage(searchFeedbackBody, { rating: 'great' }).error).toBe('rating: rating must be one of good, partial, bad');
    expect(rejectMessage(feedbackBody, { ...rating, endpoint: 'crawl', jobId: 'j' }).error).toBe(
      'endpoint: endpoint must be one of search, scrape, parse, map',
    );
    expect(rejectMessage(feedbackBody, { ...rating, endpoint: 'map', jobId: 'j', metadata: { big: 'x'.repeat(9000) } }).error).toBe(
      'metadata: metadata must be 8 KB or smaller',
    );
  });

  it('scrape with alexandria calls: one call or up to ten', () => {
    const call = { provider: 'firecrawl', capability: 'find-tools', options: { limit: 3 } };
    expect(alexandriaScrapeRequestSchema.parse({ alexandria: [call], origin: 'js-sdk@4.42.0' }).alexandria).toEqual([call]);
    expect(alexandriaScrapeRequestSchema.parse({ alexandria: call, timeout: 50_000, integration: null }).alexandria).toEqual(call);
    expect(rejectMessage(alexandriaScrapeRequestSchema, { alexandria: [] }).error).toMatch(/alexandria/);
    expect(rejectMessage(alexandriaScrapeRequestSchema, { alexandria: Array(11).fill(call) }).error).toMatch(/alexandria/);
    expect(rejectMessage(alexandriaScrapeRequestSchema, { alexandria: [{ provider: ' ', capability: 'x' }] }).error).toMatch(/provider/);
    expect(rejectMessage(alexandriaScrapeRequestSchema, { alexandria: [call], url: 'https://a.example' }).error).toMatch(/^Unrecognized key/);
    expect([{ alexandria: 1 }, { url: 'x' }, [], null, 'alexandria', Object.create({ alexandria: [call] })].map(isAlexandriaRequest)).toEqual([
      true,
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});
