import type { Server } from 'node:http';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { noteActivityJob, recordActivity } from '../../../src/platform/http/activity-log.ts';
import type { Db } from '../../../src/platform/db/prisma.ts';
import type { Logger } from '../../../src/platform/log.ts';

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

async function serve(create: (row: { data: Record<string, unknown> }) => Promise<unknown>) {
  const warnings: string[] = [];
  const log = { warn: (msg: string) => warnings.push(msg) } as unknown as Logger;
  const db = { activityLog: { create } } as unknown as Db;
  const app = express();
  const v2 = express.Router();
  v2.use(express.json(), (_req, res, next) => {
    res.locals.auth = { team: { id: 'team-1' }, apiKeyId: 'key-1' };
    next();
  });
  v2.use(recordActivity(db, log));
  v2.post('/crawl', (_req, res) => {
    noteActivityJob(res, 'job-1');
    res.json({ success: true, id: 'job-1' });
  });
  v2.get('/crawl/:id', (_req, res) => res.json({ success: true }));
  v2.post('/browser/:id/execute', (_req, res) => res.json({ success: true }));
  app.use('/v2', v2);
  server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return { base, warnings };
}

describe('recordActivity', () => {
  it('records a job-creating request with its job id, status and duration before answering', async () => {
    const rows: Record<string, unknown>[] = [];
    const { base } = await serve(async (row) => rows.push(row.data));
    const res = await fetch(`${base}/v2/crawl`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: 'http://x.test' }),
    });
    expect(await res.json()).toEqual({ success: true, id: 'job-1' });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      teamId: 'team-1',
      apiKeyId: 'key-1',
      endpoint: 'crawl',
      method: 'POST',
      target: 'http://x.test',
      jobId: 'job-1',
      statusCode: 200,
    });
    expect(rows[0].durationMs).toBeGreaterThanOrEqual(0);
  });

  it('records no status poll and no action on a job', async () => {
    const rows: unknown[] = [];
    const { base } = await serve(async (row) => rows.push(row));
    await fetch(`${base}/v2/crawl/abc`);
    await fetch(`${base}/v2/browser/s1/execute`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(rows).toEqual([]);
  });

  it('answers even when the row cannot be written, and logs it', async () => {
    const { base, warnings } = await serve(() => Promise.reject(new Error('database down')));
    const res = await fetch(`${base}/v2/crawl`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ success: true, id: 'job-1' });
    expect(warnings).toEqual(['activity log write failed']);
  });
});
