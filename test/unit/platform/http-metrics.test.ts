// The gateway's request metrics label by route pattern, never by URL: one series
// for every crawl id, and "none" for answers given before routing.
import { describe, expect, it } from 'vitest';
import { registry } from '../../../src/platform/metrics/registry.ts';
import { inProcessGateway } from '../../support/in-process-gateway.ts';

async function requestCounts(): Promise<Map<string, number>> {
  const metric = await registry.getSingleMetric('crawl_service_http_requests_total')!.get();
  return new Map(metric.values.map((v) => [`${v.labels.method} ${v.labels.route} ${v.labels.status}`, v.value]));
}

describe('HTTP request metrics', () => {
  it('count answers by route pattern, method and status', async () => {
    const gateway = inProcessGateway();
    const auth = { authorization: `Bearer ${gateway.fixtures.apiKey}`, 'content-type': 'application/json' };
    const before = await requestCounts();
    const shots = [
      { method: 'POST', path: '/v2/crawl', headers: auth, body: Buffer.from('{"url": 5}'), chunked: false },
      { method: 'POST', path: '/v2/crawl', headers: auth, body: Buffer.from('{"limit": "x"}'), chunked: false },
      { method: 'GET', path: `/v2/crawl/${gateway.fixtures.crawlIds[0]}/errors`, headers: auth, chunked: false },
      { method: 'GET', path: `/v2/crawl/${gateway.fixtures.crawlIds[1]}/errors`, headers: auth, chunked: false },
      { method: 'GET', path: '/v2/no-such-thing', headers: auth, chunked: false },
      { method: 'GET', path: '/v2/crawl', headers: {}, chunked: false },
    ];
    const statuses: number[] = [];
    for (const shot of shots) statuses.push((await gateway.send(shot)).status);
    expect(statuses[0]).toBe(400);
    expect(statuses[4]).toBe(404);
    expect(statuses[5]).toBe(401);
    const after = await requestCounts();
    const moved = [...after].filter(([k, v]) => v !== (before.get(k) ?? 0)).map(([k, v]) => [k, v - (before.get(k) ?? 0)]);
    expect(Object.fromEntries(moved)).toEqual({
      'POST /v2/crawl 400': 2,
      [`GET /v2/crawl/:id/errors ${statuses[2]}`]: statuses[2] === statuses[3] ? 2 : 1,
      ...(statuses[2] !== statuses[3] && { [`GET /v2/crawl/:id/errors ${statuses[3]}`]: 1 }),
      'GET none 404': 1,
      'GET none 401': 1,
    });
    const text = await registry.metrics();
    expect(text).not.toContain(gateway.fixtures.crawlIds[0]);
    expect(text).toMatch(/crawl_service_http_request_duration_seconds_count\{route="\/v2\/crawl",method="POST"\} \d+/);
  });
});
