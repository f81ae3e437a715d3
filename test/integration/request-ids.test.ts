// Following one request across processes (docs/operations.md, Logs): the gateway keeps a sane
// X-Request-Id, answers it, puts it in error bodies and in the memo of the workflow it starts,
// and the worker's activities log it. Every line the worker prints, the Temporal SDK's
// included, is one JSON object.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newJobWorkflowId } from '../../src/jobs/definitions.ts';
import { mapWorkflowId } from '../../src/features/map/definitions.ts';
import { startFixtureSite, treeSite, type FixtureSite } from '../support/fixture-site.ts';
import { startHarness, waitFor, waitForCrawl, type Harness } from '../support/harness.ts';

let h: Harness;
let site: FixtureSite;
let gatewayUrl: string;
const workerOutput: string[] = [];
const gatewayOutput: string[] = [];

beforeAll(async () => {
  h = await startHarness();
  site = await startFixtureSite(treeSite(3));
  // At debug the SDK's own lines (its machinery's INFO, the core's forwarded INFO) are printed too: all must be JSON.
  await h.spawnWorker({ output: workerOutput, env: { LOG_LEVEL: 'debug' } });
  gatewayUrl = (await h.spawnGateway({ output: gatewayOutput })).baseUrl;
});

afterAll(async () => {
  await site?.close();
  await h?.stop();
});

function call(path: string, init: RequestInit & { json?: unknown } = {}) {
  const headers = new Headers(init.headers);
  headers.set('authorization', `Bearer ${h.apiKey}`);
  if (init.json !== undefined) headers.set('content-type', 'application/json');
  return fetch(`${gatewayUrl}${path}`, { ...init, headers, body: init.json !== undefined ? JSON.stringify(init.json) : init.body });
}

const isJson = (line: string) => {
  try {
    JSON.parse(line);
    return true;
  } catch {
    return false;
  }
};
const parsed = (lines: string[]) => lines.map((line) => JSON.parse(line) as Record<string, unknown>);

describe('request ids', () => {
  it('follow a crawl from the request to its workflow and its activities', async () => {
    const requestId = `test-${randomUUID()}`;
    const res = await call('/v2/crawl', { method: 'POST', json: { url: `${site.url}/`, limit: 3 }, headers: { 'X-Request-Id': requestId } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBe(requestId);
    const { id } = (await res.json()) as { id: string };

    const description = await h.temporal.workflow.getHandle(newJobWorkflowId('crawl', id)).describe();
    expect(description.memo).toMatchObject({ requestId });
    expect((await waitForCrawl(h, id)).status).toBe('completed');

    const activityLine = await waitFor('an activity line of the crawl with its request id', async () =>
      parsed(workerOutput).find((line) => line.requestId === requestId && line.msg === 'crawl finished' && line.crawlId === id),
    );
    expect(activityLine.process).toBe('worker');
    const gatewayLines = await waitFor('the request line', async () => {
      const lines = parsed(gatewayOutput).filter((line) => line.requestId === requestId);
      return lines.some((line) => line.msg === 'request') ? lines : undefined;
    });
    expect(gatewayLines.find((line) => line.msg === 'request')).toMatchObject({ method: 'POST', path: '/v2/crawl', status: 200, jobId: id });
    expect(gatewayLines.find((line) => line.msg === 'workflow started')).toMatchObject({
      workflowId: newJobWorkflowId('crawl', id),
      workflowType: 'jobWorkflow',
    });
  });

  it('follow a map, whose workflow another module starts, into its workflow', async () => {
    const requestId = `test-${randomUUID()}`;
    const res = await call('/v2/map', { method: 'POST', json: { url: `${site.url}/` }, headers: { 'X-Request-Id': requestId } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBe(requestId);
    const request = await waitFor('the map request line', async () =>
      parsed(gatewayOutput).find((line) => line.requestId === requestId && line.msg === 'request'),
    );
    expect(request.jobId).toEqual(expect.any(String));
    const description = await h.temporal.workflow.getHandle(mapWorkflowId(request.jobId as string)).describe();
    expect(description.memo).toMatchObject({ requestId });
  });

  it('replace an incoming id that is too long or has other characters, and answer a fresh one', async () => {
    for (const incoming of ['x'.repeat(129), 'has space', 'quote"d', 'a/b']) {
      const res = await call('/v2/team/credit-usage', { headers: { 'X-Request-Id': incoming } });
      expect(res.status).toBe(200);
      const answered = res.headers.get('x-request-id');
      expect(answered).not.toBe(incoming);
      expect(answered).toMatch(/^[0-9a-f-]{36}$/);
    }
    const longest = 'a.b_c:d-'.repeat(16);
    expect((await call('/v2/team/credit-usage', { headers: { 'X-Request-Id': longest } })).headers.get('x-request-id')).toBe(longest);
  });

  it('are in every error body, equal to the answer header', async () => {
    const kept = await call('/v2/crawl/not-a-crawl', { headers: { 'X-Request-Id': 'client-42' } });
    expect(kept.status).toBeGreaterThanOrEqual(400);
    expect(kept.headers.get('x-request-id')).toBe('client-42');
    expect(await kept.json()).toMatchObject({ success: false, requestId: 'client-42' });

    const invalid = await call('/v2/crawl', { method: 'POST', json: { limit: 'many' } });
    expect(invalid.status).toBe(400);
    const body = (await invalid.json()) as { requestId: string };
    expect(body.requestId).toBe(invalid.headers.get('x-request-id'));
    expect(body.requestId).toMatch(/^[0-9a-f-]{36}$/);

    const anonymous = await fetch(`${gatewayUrl}/v2/crawl`, { method: 'POST' });
    expect(anonymous.status).toBe(401);
    expect(((await anonymous.json()) as { requestId: string }).requestId).toBe(anonymous.headers.get('x-request-id'));
  });

  it('leave the worker and the gateway printing only JSON lines, the Temporal SDK’s included', () => {
    expect(workerOutput.length).toBeGreaterThan(0);
    expect(gatewayOutput.filter((line) => !isJson(line))).toEqual([]);
    expect(workerOutput.filter((line) => !isJson(line))).toEqual([]);
    expect(parsed(workerOutput).some((line) => line.sdk === 'temporal')).toBe(true);
  });
});
