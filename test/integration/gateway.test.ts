// The gateway's contract around the crawl routes: authentication, the error
// envelope, validation messages, team permissions, and the activity log.
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/platform/db/prisma.ts';
import { createApp } from '../../src/platform/http/app.ts';
import { FEATURES } from '../../src/features/index.ts';
import { createLogger } from '../../src/platform/log.ts';
import { revokeApiKey } from '../../src/platform/teams/teams.ts';
import { startHarness, type Harness } from '../support/harness.ts';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.stop());

async function expectError(res: Response, status: number, error: string | RegExp, code?: string) {
  expect(res.status).toBe(status);
  const body = await res.json();
  expect(body.success).toBe(false);
  if (typeof error === 'string') expect(body.error).toBe(error);
  else expect(body.error).toMatch(error);
  if (code) expect(body.code).toBe(code);
  return body;
}

const crawl = (json: unknown, key?: string | null) => h.api('/v2/crawl', { method: 'POST', json, key });

describe('authentication', () => {
  it('rejects a missing key, a wrong key and a revoked key with 401', async () => {
    await expectError(await crawl({ url: 'http://a.test' }, null), 401, 'Unauthorized: Token missing');
    await expectError(await crawl({ url: 'http://a.test' }, 'fc-not-a-real-key'), 401, 'Unauthorized: Invalid token');
    await expectError(
      await h.api('/v2/crawl/01890000-0000-7000-8000-000000000000', { headers: { authorization: 'Basic abc' }, key: null }),
      401,
      'Unauthorized: Token missing',
    );
    const team = await h.newTeam();
    const keyRow = await h.db.apiKey.findFirstOrThrow({ where: { teamId: team.teamId } });
    await revokeApiKey(h.db, keyRow.id);
    await expectError(await crawl({ url: 'http://a.test' }, team.apiKey), 401, 'Unauthorized: Invalid token');
  });

  it('leaves /health open and reports both dependencies', async () => {
    const res = await fetch(`${h.baseUrl}/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ success: true, postgres: { ok: true }, temporal: { ok: true } });
  });
});

describe('error envelope', () => {
  it('answers malformed JSON with 400 BAD_REQUEST_INVALID_JSON', async () => {
    const res = await h.api('/v2/crawl', { method: 'POST', body: '{"url": ', headers: { 'content-type': 'application/json' } });
    await expectError(res, 400, 'Bad request, malformed JSON', 'BAD_REQUEST_INVALID_JSON');
  });

  it('answers a body over the limit with 413', async () => {
    const res = await h.api('/v2/crawl', { method: 'POST', json: { url: 'http://a.test', prompt: 'x'.repeat(11 * 1024 * 1024) } });
    await expectError(res, 413, 'Request body is too large');
  });

  it('answers unknown routes with 404 in the envelope', async () => {
    await expectError(await h.api('/v2/nothing-here'), 404, 'Not found: GET /v2/nothing-here', 'NOT_FOUND');
  });

  it('answers invalid job ids with 400', async () => {
    await expectError(await h.api('/v2/crawl/not-a-uuid'), 400, 'Invalid job ID format. Job ID must be a valid UUID.');
  });

  it('answers invalid pagination with 400', async () => {
    await expectError(await h.api('/v2/crawl/01890000-0000-7000-8000-000000000000?limit=0'), 400, /^Invalid pagination: limit/);
  });

  it('answers an unexpected failure with 500, an error id, and nothing internal', async () => {
    const failingDb = new Proxy(h.db, {
      get(target, prop) {
        if (prop === 'job') return { findFirst: () => Promise.reject(new Error('secret connection string postgres://x:y@db')) };
        return Reflect.get(target, prop);
      },
    }) as Db;
    const app = createApp({ db: failingDb, temporal: h.temporal, config: h.config, log: createLogger('error') }, FEATURES);
    const server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v2/crawl/01890000-0000-7000-8000-000000000000`, {
        headers: { authorization: `Bearer ${h.apiKey}` },
      });
      const body = await expectError(res, 500, /^An unexpected error occurred\. Error ID: [0-9a-f-]{36}$/, 'UNKNOWN_ERROR');
      expect(JSON.stringify(body)).not.toContain('secret');
    } finally {
      server.close();
    }
  });
});

describe('crawl request validation (400 with a readable message and zod details)', () => {
  const cases: [string, Record<string, unknown>, RegExp][] = [
    ['missing url', {}, /^url: /],
    ['unsupported protocol', { url: 'ftp://a.test' }, /URL uses unsupported protocol/],
    ['limit 0', { url: 'http://a.test', limit: 0 }, /^limit: limit must be a positive integer/],
    ['limit not an integer', { url: 'http://a.test', limit: 2.5 }, /^limit: /],
    ['delay over 60', { url: 'http://a.test', delay: 61 }, /cannot exceed 60 seconds/],
    ['maxConcurrency 0', { url: 'http://a.test', maxConcurrency: 0 }, /^maxConcurrency: /],
    ['maxDiscoveryDepth negative', { url: 'http://a.test', maxDiscoveryDepth: -1 }, /^maxDiscoveryDepth: /],
    ['sitemap not in the enum', { url: 'http://a.test', sitemap: 'sometimes' }, /^sitemap: /],
    ['invalid includePaths regex', { url: 'http://a.test', includePaths: ['(unclosed'] }, /Invalid includePaths pattern "\(unclosed"/],
    ['invalid excludePaths regex', { url: 'http://a.test', excludePaths: ['[z-a]'] }, /Invalid excludePaths pattern "\[z-a\]"/],
    ['unsupported format', { url: 'http://a.test', scrapeOptions: { formats: ['audio'] } }, /Format "audio" is not available from this service: it downloads/],
    ['waitFor over half the timeout', { url: 'http://a.test', scrapeOptions: { waitFor: 40000, timeout: 60000 } }, /waitFor must not exceed half of timeout/],
    ['unknown action', { url: 'http://a.test', scrapeOptions: { actions: [{ type: 'teleport' }] } }, /teleport/],
    ['bad webhook url', { url: 'http://a.test', webhook: 'ftp://hooks.test' }, /^webhook/],
    ['unknown key', { url: 'http://a.test', maxDepth: 3 }, /^Unrecognized key in body/],
  ];
  for (const [name, body, message] of cases) {
    it(`rejects ${name}`, async () => {
      const res = await crawl(body);
      const err = await expectError(res, 400, message, 'BAD_REQUEST');
      expect(Array.isArray(err.details)).toBe(true);
      expect(err.details.length).toBeGreaterThan(0);
    });
  }

  it('rejects an invalid CSS selector before starting anything', async () => {
    const before = await h.db.job.count({ where: { teamId: h.teamId } });
    await expectError(await crawl({ url: 'http://a.test', scrapeOptions: { includeTags: ['div[['] } }), 400, /includeTags/);
    expect(await h.db.job.count({ where: { teamId: h.teamId } })).toBe(before);
  });

  it('accepts the origin field the official SDKs add', async () => {
    const res = await crawl({ url: 'http://127.0.0.1:9/', origin: 'js-sdk@4.42.0', limit: 1 });
    expect(res.status).toBe(200);
  });
});

describe('team permissions', () => {
  it('answers enterprise options with 403 unless the team has the flag', async () => {
    await expectError(await crawl({ url: 'http://a.test', ignoreRobotsTxt: true }), 403, /ignoreRobotsTxt parameter is an enterprise feature/);
    await expectError(await crawl({ url: 'http://a.test', robotsUserAgent: 'MyBot' }), 403, /robotsUserAgent parameter is an enterprise feature/);
    await expectError(await crawl({ url: 'http://a.test', zeroDataRetention: true }), 403, /Zero Data Retention/);
    const flagged = await h.newTeam({ name: `flagged-${Date.now()}`, flags: { ignoreRobotsTxt: true } });
    const res = await crawl({ url: 'http://127.0.0.1:9/', ignoreRobotsTxt: true, limit: 1 }, flagged.apiKey);
    expect(res.status).toBe(200);
  });
});

describe('activity log', () => {
  it('records every job-creating request with endpoint, api version, target, job id and status; not polls or anonymous calls', async () => {
    const team = await h.newTeam();
    const started = await (await crawl({ url: 'http://127.0.0.1:9/logged', limit: 1 }, team.apiKey)).json();
    await h.api(`/v2/crawl/${started.id}`, { key: team.apiKey });
    await crawl({ url: 'http://a.test', limit: 0 }, team.apiKey);
    await crawl({ url: 'http://a.test' }, 'fc-wrong');
    const rows = await h.db.activityLog.findMany({ where: { teamId: team.teamId }, orderBy: { createdAt: 'asc' } });
    expect(rows.map((r) => [r.endpoint, r.apiVersion, r.method, r.target, r.jobId, r.statusCode])).toEqual([
      ['crawl', 'v2', 'POST', 'http://127.0.0.1:9/logged', started.id, 200],
      ['crawl', 'v2', 'POST', 'http://a.test', null, 400],
    ]);
    expect(rows.every((r) => r.apiKeyId)).toBe(true);
  });
});
