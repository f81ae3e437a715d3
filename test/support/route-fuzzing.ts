// The HTTP layer of route fuzzing: every generated request of
// test/support/route-requests.ts sent to the harness's in-process gateway over
// keep-alive connections, each to be answered below 500, with the error envelope,
// within a bound. The seeded pass of the integration project and the full fuzzer of
// `npm run fuzz` declare their tests here with their own numbers of runs and bounds.
import http from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectEnvelope, expectNoServerError } from './error-envelope.ts';
import { startHarness, type Harness } from './harness.ts';
import { insertRouteFixtures } from './route-fixtures.ts';
import { describeShot, routeRequests, type RouteFixtures, type Shot } from './route-requests.ts';

export interface RouteFuzzing {
  runsPerRoute: number;
  /** Fixed for a reproducible pass; fast-check picks one (and prints it on failure) otherwise. */
  seed?: number;
  /** The bound on every single request: one not answered by then is a hung request. */
  answerWithinMs: number;
  /** Every route at once (the full fuzzer's load), or one after the other. */
  concurrent: boolean;
  testTimeoutMs: number;
}

interface Answer {
  status: number;
  body: string;
  /** Set by the app on every answer of its own; Node's HTTP parser answers some requests itself (431 for a long request line), without a body. */
  fromApp: boolean;
}

export function fuzzRoutesOverHttp(opts: RouteFuzzing): void {
  let h: Harness;
  let agent: http.Agent;
  let port: number;
  const fixtures: RouteFixtures = { apiKey: '', crawlIds: [], batchIds: [], scrapeIds: [], sessionIds: [] };

  beforeAll(async () => {
    h = await startHarness();
    port = Number(new URL(h.baseUrl).port);
    agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
    Object.assign(fixtures, await insertRouteFixtures(h));
  });

  afterAll(async () => {
    agent?.destroy();
    await h?.stop();
  });

  function send(s: Shot): Promise<Answer> {
    return new Promise((resolve, reject) => {
      // Framed explicitly: Node frames neither for a GET body of its own accord.
      const framing = s.body && (s.chunked ? { 'transfer-encoding': 'chunked' } : { 'content-length': String(s.body.length) });
      const headers = { ...s.headers, ...framing };
      const req = http.request(
        { agent, host: '127.0.0.1', port, method: s.method, path: s.path, headers, signal: AbortSignal.timeout(opts.answerWithinMs) },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode!, body: Buffer.concat(chunks).toString(), fromApp: 'x-request-id' in res.headers }));
          res.on('error', reject);
        },
      );
      req.on('error', (err: NodeJS.ErrnoException) => {
        // A pooled socket the server closed as it was reused: not an answer, send again (Node's documented pattern).
        if (req.reusedSocket && err.code === 'ECONNRESET') send(s).then(resolve, reject);
        else reject(err.name === 'AbortError' ? new Error(`no answer within ${opts.answerWithinMs} ms`) : err);
      });
      if (!s.body) return void req.end();
      if (!s.chunked) return void req.end(s.body);
      const half = Math.floor(s.body.length / 2);
      req.write(s.body.subarray(0, half));
      req.end(s.body.subarray(half));
    });
  }

  describe('every route over HTTP', () => {
    const declare = opts.concurrent ? it.concurrent : it;
    for (const [route, arbitrary] of routeRequests(fixtures)) {
      declare(
        `${route}: ${opts.runsPerRoute} generated requests, each answered below 500 with the error envelope within ${opts.answerWithinMs} ms`,
        async () => {
          const statuses = new Map<number, number>();
          let slowest = 0;
          const started = performance.now();
          await fc.assert(
            fc.asyncProperty(arbitrary, async (s) => {
              const sent = performance.now();
              const answer = await send(s);
              slowest = Math.max(slowest, performance.now() - sent);
              statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
              expectNoServerError(answer, describeShot(s));
              if (answer.status >= 400 && answer.fromApp && s.method !== 'HEAD') expectEnvelope(answer.body, describeShot(s));
            }),
            { numRuns: opts.runsPerRoute, ...(opts.seed !== undefined && { seed: opts.seed }) },
          );
          const seen = [...statuses.entries()].sort(([a], [b]) => a - b);
          const seconds = (performance.now() - started) / 1000;
          console.log(`${route}: ${seen.map(([status, n]) => `${status}×${n}`).join(' ')}; slowest ${Math.round(slowest)} ms; ${seconds.toFixed(0)} s`);
          // The generators reach past authentication, and the id routes find their rows.
          if (route !== 'GET /health') expect(statuses.get(401)).toBeGreaterThan(0);
          if (/^GET \/v2\/(crawl|batch\/scrape|scrape|browser)\/:id/.test(route)) expect(statuses.get(200)).toBeGreaterThan(0);
          // Valid bodies (a 402: no credits; a 410 on an ended session) come up once in a hundred requests or less: only a long
          // run is sure to meet them. The in-process layer checks them with thousands of requests per route.
          if (opts.runsPerRoute >= 1000) {
            if (route.startsWith('POST /v2/') && !route.endsWith('/execute'))
              expect(statuses.get(402), 'valid bodies (answered 402: no credits)').toBeGreaterThan(0);
            if (route.endsWith('/execute')) expect(statuses.get(410), 'valid bodies on ended sessions').toBeGreaterThan(0);
          }
        },
        opts.testTimeoutMs,
      );
    }

    // The gateway runs in this process: a polluted prototype would show here.
    it('left Object.prototype without properties of the requests', () => {
      const inherited: string[] = [];
      for (const name in {}) inherited.push(name);
      expect(inherited).toEqual([]);
    });
  });
}
