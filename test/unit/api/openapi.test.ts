// The API contract: a valid OpenAPI 3.1 document, the exact set of routes the
// Express app registers, and a response checker that catches a wrong answer.
import type { Client } from '@temporalio/client';
import { Validator } from '@seriousme/openapi-schema-validator';
import type { Router } from 'express';
import { describe, expect, it } from 'vitest';
import { FEATURES } from '../../../src/features/index.ts';
import { loadConfig } from '../../../src/config.ts';
import type { Db } from '../../../src/platform/db/prisma.ts';
import { apiDocument, createApp } from '../../../src/platform/http/app.ts';
import { createLogger } from '../../../src/platform/log.ts';
import { responseChecker } from '../../support/openapi-responses.ts';

const document = apiDocument(FEATURES);

interface Layer {
  rawPath?: string | string[];
  route?: { path: string | string[]; methods: Record<string, boolean> };
  handle: { stack?: Layer[] };
}

/** `METHOD /path` of every route in a router stack, mounted routers' prefixes included. */
function registeredRoutes(stack: Layer[], prefix = ''): string[] {
  return stack.flatMap((layer) => {
    if (layer.route) {
      const paths = [layer.route.path].flat();
      const methods = Object.keys(layer.route.methods).filter((m) => layer.route!.methods[m] && m !== '_all');
      return paths.flatMap((path) => methods.map((method) => `${method.toUpperCase()} ${prefix}${path}`));
    }
    if (!layer.handle.stack) return [];
    const mount = typeof layer.rawPath === 'string' && layer.rawPath !== '/' ? layer.rawPath : '';
    return registeredRoutes(layer.handle.stack, prefix + mount);
  });
}

function documentedRoutes(): string[] {
  return Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.keys(operations).map((method) => `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`),
  );
}

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const result = await new Validator().validate(structuredClone(document) as unknown as Record<string, unknown>);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(document.openapi).toBe('3.1.0');
  });

  it('documents every route the app registers, and nothing else', () => {
    // Routes are only registered, never called: no database or Temporal is reached.
    const deps = { db: {} as Db, temporal: {} as Client, config: loadConfig(), log: createLogger('error', { process: 'test' }) };
    const app = createApp(deps, FEATURES) as unknown as { router: Router & { stack: Layer[] } };
    const registered = registeredRoutes(app.router.stack).sort();
    expect(registered.length).toBeGreaterThan(30);
    expect(documentedRoutes().sort()).toEqual(registered);
  });

  it('names every operation once and says which are public', () => {
    const operations = Object.values(document.paths).flatMap((ops) => Object.values(ops));
    const ids = operations.map((op) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    const publicOps = operations.filter((op) => Array.isArray(op.security) && (op.security as unknown[]).length === 0).map((op) => op.operationId);
    expect(publicOps.sort()).toEqual(['getApiDocsPage', 'getHealth', 'getHealthLive', 'getHealthReady', 'getLiveView', 'getOpenApiDocument']);
    expect(document.components.securitySchemes.apiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('describes bodies from the zod schemas: required fields, defaults and limits', () => {
    const crawl = document.components.schemas.StartCrawlRequest as { properties: Record<string, Record<string, unknown>>; required: string[] };
    expect(crawl.required).toEqual(['url']);
    expect(crawl.properties.sitemap).toMatchObject({ enum: ['skip', 'include', 'only'] });
    const session = document.components.schemas.CreateBrowserSessionRequest as { properties: Record<string, Record<string, unknown>> };
    expect(session.properties.ttl).toMatchObject({ type: 'integer', minimum: 30, maximum: 3600, default: 600 });
    // Every keyed route answers 401 and 429 in the error envelope.
    const status = document.paths['/v2/crawl/{id}'].get as { responses: Record<string, { content: Record<string, { schema: unknown }> }> };
    expect(status.responses['401'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ErrorEnvelope' });
    expect(Object.keys(status.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '404', '429', '500']));
  });

  it('documents the idempotency key on exactly the job-creating POSTs, and the rate-limit headers', () => {
    type Operation = { parameters: { name: string; in: string }[]; responses: Record<string, { headers?: Record<string, unknown> }> };
    const operations = Object.entries(document.paths).flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, op]) => ({ route: `${method.toUpperCase()} ${path}`, op: op as Operation })),
    );
    const withKey = operations.filter(({ op }) => op.parameters.some((p) => p.in === 'header' && p.name === 'x-idempotency-key')).map(({ route }) => route);
    expect(withKey.sort()).toEqual([
      'POST /v1/batch/scrape',
      'POST /v1/crawl',
      'POST /v1/deep-research',
      'POST /v1/extract',
      'POST /v1/llmstxt',
      'POST /v1/map',
      'POST /v1/scrape',
      'POST /v1/search',
      'POST /v2/agent',
      'POST /v2/batch/scrape',
      'POST /v2/browser',
      'POST /v2/crawl',
      'POST /v2/extract',
      'POST /v2/interact',
      'POST /v2/map',
      'POST /v2/scrape',
      'POST /v2/search',
    ]);
    const crawl = document.paths['/v2/crawl'].post as Operation;
    expect(Object.keys(crawl.responses)).toContain('409');
    expect(Object.keys(crawl.responses['200'].headers ?? {})).toEqual(['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']);
    expect(Object.keys(crawl.responses['429'].headers ?? {})).toContain('Retry-After');
    const health = document.paths['/health'].get as Operation;
    expect(health.responses['200'].headers).toBeUndefined();
  });
});

describe('responseChecker', () => {
  const { check } = responseChecker(document);
  const id = '0190a2b4-0000-7000-8000-000000000001';
  const status = {
    success: true,
    status: 'completed',
    completed: 1,
    total: 1,
    creditsUsed: 1,
    expiresAt: '2026-01-02T00:00:00.000Z',
    createdAt: '2026-01-01T00:00:00.000Z',
    data: [{ markdown: '# Hi', metadata: { sourceURL: 'http://a.test/', url: 'http://a.test/', statusCode: 200, 'og:title': 'Hi' } }],
  };

  it('accepts an answer as documented, the route found by its path', () => {
    expect(check({ method: 'GET', url: `/v2/crawl/${id}?limit=5`, status: 200, body: status })).toEqual([]);
    expect(check({ method: 'GET', url: '/v2/crawl/active', status: 200, body: { success: true, crawls: [] } })).toEqual([]);
    expect(check({ method: 'GET', url: `/v2/crawl/${id}`, status: 404, body: { success: false, error: 'Job not found', code: 'NOT_FOUND' } })).toEqual([]);
  });

  it('rejects a wrong body, an undocumented status and an unknown route', () => {
    expect(check({ method: 'GET', url: `/v2/crawl/${id}`, status: 200, body: { ...status, completed: '1' } })).toEqual([
      expect.stringContaining('/completed must be integer'),
    ]);
    expect(check({ method: 'GET', url: `/v2/crawl/${id}`, status: 200, body: { ...status, surprise: true } })[0]).toContain('additional properties');
    expect(check({ method: 'GET', url: `/v2/crawl/${id}`, status: 200, body: { ...status, data: [{ markdown: 1 }] } }).length).toBeGreaterThan(0);
    expect(check({ method: 'GET', url: `/v2/crawl/${id}`, status: 404, body: { success: true } }).length).toBeGreaterThan(0);
    expect(check({ method: 'GET', url: `/v2/crawl/${id}`, status: 418, body: {} })).toEqual([`GET /v2/crawl/{id} 418: status not documented`]);
    expect(check({ method: 'PUT', url: '/v2/crawl', status: 200, body: {} })).toEqual(['PUT /v2/crawl: no such operation in the document']);
  });
});
