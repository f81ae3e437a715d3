// The in-process layer of route fuzzing: every route's request handling up to the
// database (test/support/in-process-gateway.ts) given the generated requests of
// test/support/route-requests.ts (bodies, path parameters, query strings, headers,
// content types and encodings, anonymous or keyed). Each is either accepted,
// reaching the database or Temporal, or answered 4xx with the error envelope;
// nothing else: no 500, no error that escapes the app. Cheap without sockets or a
// database, so thousands of requests per route, from a new seed every run (fast-check
// prints it with a failure). The unit project runs it in three files
// (test/unit/gateway/route-parsing-*.property.test.ts), so the routes share the cores.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expectEnvelope } from './error-envelope.ts';
import { inProcessGateway } from './in-process-gateway.ts';
import { describeShot, routeRequests } from './route-requests.ts';

/** The routes that start a job from a body: the costliest to generate and read, so a file of their own. */
export const JOB_BODY_ROUTES = ['POST /v2/crawl', 'POST /v2/scrape', 'POST /v2/map', 'POST /v2/batch/scrape'];

/**
 * Requests per route. A route with a body: enough that a valid one (one request in a hundred or fewer, on the execute
 * route one in two hundred) comes up in every run, not just usually. A route without one: its outcomes (401, 400, 404,
 * accepted) each come up hundreds of times in a thousand.
 */
export const RUNS_WITH_BODY = 2000;
export const RUNS_WITHOUT_BODY = 1000;

export function checkRoutesInProcess(title: string, select: (route: string) => boolean, runsPerRoute: number): void {
  const gateway = inProcessGateway();
  // GET /health asks the database and Temporal themselves; the HTTP layers fuzz it.
  const routes = routeRequests(gateway.fixtures).filter(([route]) => route !== 'GET /health' && select(route));

  describe(title, () => {
    for (const [route, arbitrary] of routes) {
      it(`${route}: ${runsPerRoute} generated requests, each accepted or answered 4xx with the error envelope`, { timeout: 180_000 }, async () => {
        const seen = new Map<number | 'accepted', number>();
        await fc.assert(
          fc.asyncProperty(arbitrary, async (s) => {
            const answer = await gateway.send(s);
            const outcome = answer.reachedStore ? 'accepted' : answer.status;
            seen.set(outcome, (seen.get(outcome) ?? 0) + 1);
            // Past the checks, the answer is the store's (here a failure of every call): its status says nothing.
            if (!answer.reachedStore) expect(answer.status, describeShot(s)).toBeLessThan(500);
            if (answer.status >= 400 && s.method !== 'HEAD') expectEnvelope(answer.body, describeShot(s));
          }),
          { numRuns: runsPerRoute },
        );
        const counts = [...seen.entries()].sort(([a], [b]) => String(a).localeCompare(String(b)));
        console.log(`${route}: ${counts.map(([outcome, n]) => `${outcome}×${n}`).join(' ')}`);
        // The generators reach past authentication and validation, not only the first check.
        expect(seen.get(401)).toBeGreaterThan(0);
        expect(seen.get(400)).toBeGreaterThan(0);
        if (route.endsWith('/execute')) expect(seen.get(410), 'valid bodies on ended sessions').toBeGreaterThan(0);
        else if (route.startsWith('POST /v2/') || /^(GET|DELETE) \/v2\/(crawl|batch\/scrape|scrape|browser)\/:id/.test(route))
          expect((seen.get('accepted') ?? 0) + (seen.get(402) ?? 0), 'requests that passed every check (402: no credits)').toBeGreaterThan(0);
      });
    }

    it('left Object.prototype without properties of the requests', () => {
      const inherited: string[] = [];
      for (const name in {}) inherited.push(name);
      expect(inherited).toEqual([]);
    });
  });
}
