// The request deadline over a real Express app and HTTP, with readiness answers
// the test decides: a request stuck past its deadline while a dependency does not
// answer is a 503 naming it; one doing slow work of its own while both answer goes
// on; a scrape's timeout moves the deadline; a handler that answers first wins.
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { deadlineOf, requestDeadline } from '../../../src/platform/http/request-deadline.ts';
import { errorHandler, UNAVAILABLE_RETRY_AFTER_SECONDS } from '../../../src/platform/http/errors.ts';
import { CHECKS_LEAD_MS } from '../../../src/platform/http/request-deadline.ts';
import { createLogger } from '../../../src/platform/log.ts';

const DEADLINE_MS = CHECKS_LEAD_MS + 500;

/** Which dependency does not answer, as the checks will say. */
interface State {
  down?: 'postgres' | 'temporal';
}
const ready = (): State => ({});
const postgresDown = (): State => ({ down: 'postgres' });

let server: Server | undefined;

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

/** An app whose one route is `route`; the dependency `state.down` fails its check. */
async function app(state: State, route: (res: express.Response) => Promise<void>) {
  const check = (name: 'postgres' | 'temporal') => () => {
    if (state.down === name) throw new Error(`no answer within 1000 ms`);
  };
  const a = express();
  a.use((_req, res, next) => {
    res.locals.requestId = 'req-1';
    next();
  });
  a.use(requestDeadline({ postgres: check('postgres'), temporal: check('temporal') }, { deadlineMs: DEADLINE_MS }));
  a.post('/work', express.json(), async (_req, res) => route(res));
  a.use(errorHandler(createLogger('error', { process: 'test' })));
  server = a.listen(0, '127.0.0.1');
  await new Promise((resolve) => server!.once('listening', resolve));
  return `http://127.0.0.1:${(server!.address() as AddressInfo).port}/work`;
}

async function post(url: string, body: object = {}) {
  const started = Date.now();
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body: (await res.json()) as Record<string, unknown>, ms: Date.now() - started };
}

const forever = () => new Promise<void>(() => undefined);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('requestDeadline', () => {
  it('answers a request stuck while PostgreSQL is down 503 SERVICE_UNAVAILABLE naming it, by its deadline', async () => {
    const url = await app(postgresDown(), forever);
    const answer = await post(url);
    expect(answer).toMatchObject({
      status: 503,
      retryAfter: String(UNAVAILABLE_RETRY_AFTER_SECONDS),
      body: { success: false, code: 'SERVICE_UNAVAILABLE', details: { dependency: 'PostgreSQL' }, requestId: 'req-1' },
    });
    expect(answer.body.error).toMatch(/^PostgreSQL is unavailable \(no answer within 1000 ms\)/);
    expect(answer.ms).toBeGreaterThanOrEqual(DEADLINE_MS - CHECKS_LEAD_MS - 50);
    expect(answer.ms).toBeLessThan(DEADLINE_MS + 1000);
  });

  it('lets slow work go on while both dependencies answer, and answers 503 as soon as one stops', async () => {
    const state = ready();
    const url = await app(state, forever);
    const pending = post(url);
    await sleep(DEADLINE_MS + 500);
    state.down = 'temporal';
    const answer = await pending;
    expect(answer).toMatchObject({ status: 503, body: { details: { dependency: 'Temporal' } } });
    expect(answer.ms).toBeLessThan(DEADLINE_MS + 500 + 2000);
  });

  it('leaves a request that answers alone, and a finished one is not answered twice', async () => {
    const url = await app(postgresDown(), async (res) => {
      await sleep(100);
      res.json({ success: true });
    });
    expect(await post(url)).toMatchObject({ status: 200, body: { success: true } });
    await sleep(DEADLINE_MS);
  });

  it("moves to a route's own timeout, counted from the arrival", async () => {
    const url = await app(postgresDown(), async (res) => {
      await sleep(200);
      deadlineOf(res).setTimeout(CHECKS_LEAD_MS + 300);
      await forever();
    });
    const answer = await post(url);
    expect(answer.status).toBe(503);
    expect(answer.ms).toBeLessThan(CHECKS_LEAD_MS + 300 + 1000);
  });
});
