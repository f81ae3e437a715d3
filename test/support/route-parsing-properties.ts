// The in-process layer of route fuzzing: every route's request handling up to the
// database (test/support/in-process-gateway.ts) given the generated requests of
// test/support/route-requests.ts (bodies, path parameters, query strings, headers,
// content types and encodings, anonymous or keyed). Each is either accepted,
// reaching the database or Temporal, or answered 4xx with the error envelope;
// nothing else: no 500, no error that escapes the app. Cheap without sockets or a
// database, so hundreds of requests per route under `npm run fuzz` and a quarter of
// them in `npm test` (test/support/property-runs.ts), from a new seed every run
// (fast-check prints it with a failure); `npm run fuzz` also sends many more over
// HTTP. The unit
// project runs it in three files (test/unit/gateway/route-parsing-*.property.test.ts),
// so the routes share the cores.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectEnvelope, expectNoServerError } from './error-envelope.ts';
import { inProcessGateway } from './in-process-gateway.ts';
import { propertyRuns } from './property-runs.ts';
import { describeShot, routeRequests, validRequests, type Shot } from './route-requests.ts';

/** The routes that start a job from a body: the costliest to generate and read, so a file of their own. */
export const JOB_BODY_ROUTES = [
  'POST /v2/crawl',
  'POST /v2/scrape',
  'POST /v2/map',
  'POST /v2/batch/scrape',
  'POST /v1/crawl',
  'POST /v1/scrape',
  'POST /v1/batch/scrape',
];

/**
 * Requests per route (a quarter of them in `npm test`). The common outcomes (401, 400, 404) come up dozens of times in
 * these; a valid request (one in a hundred or fewer with a body, one in thousands on the routes of validRequests) may
 * not. So one request in VALID_SHARE of those routes is a valid one (test/support/route-requests.ts), and a run that has
 * still not met one keeps generating (and checking) requests until it does, up to REACH_BUDGET: each run reaches past
 * validation, at a fraction of the cost of runs long enough to get there by chance.
 */
export const RUNS_WITH_BODY = propertyRuns(200);
export const RUNS_WITHOUT_BODY = propertyRuns(100);
const REACH_BUDGET = 20_000;
const VALID_SHARE = 10;

type Outcomes = Map<number | 'accepted', number>;

/** Routes of Firecrawl cloud services: a valid request is refused 501 (docs/api/cloud-services.md), it reaches nothing. */
const CLOUD_SERVICE_ROUTES = [
  'GET /v2/search/research/papers',
  'GET /v2/search/research/papers/:id',
  'GET /v2/search/research/papers/:id/similar',
  'GET /v2/search/research/github',
  'POST /v2/search/developer',
  'POST /v2/search/gov',
  'POST /v2/feedback',
  'POST /v2/search/:id/feedback',
];

/** What a run of `route` must have met, each with whether it did. */
function reachedOutcomes(route: string, seen: Outcomes): [string, boolean][] {
  const required: [string, boolean][] = [
    ['401', (seen.get(401) ?? 0) > 0],
    ['400', (seen.get(400) ?? 0) > 0],
  ];
  if (route.endsWith('/execute')) required.push(['valid bodies on ended sessions (410)', (seen.get(410) ?? 0) > 0]);
  else if (CLOUD_SERVICE_ROUTES.includes(route)) required.push(['valid requests, refused as a cloud service (501)', (seen.get(501) ?? 0) > 0]);
  else if (/^POST \/v[12]\//.test(route) || /^(GET|DELETE) \/v[12]\/(crawl|batch\/scrape|scrape|browser)\/:id/.test(route))
    required.push(['requests that passed every check (accepted, or 402: no credits)', (seen.get('accepted') ?? 0) + (seen.get(402) ?? 0) > 0]);
  return required;
}

export function checkRoutesInProcess(title: string, select: (route: string) => boolean, runsPerRoute: number): void {
  const gateway = inProcessGateway();
  // GET /health asks the database and Temporal themselves; the HTTP layers fuzz it.
  const valid = validRequests(gateway.fixtures);
  const routes = routeRequests(gateway.fixtures)
    .filter(([route]) => route !== 'GET /health' && select(route))
    .map(([route, arbitrary]): [string, fc.Arbitrary<Shot>] => {
      const validShot = valid.get(route);
      return [route, validShot ? fc.oneof({ weight: VALID_SHARE - 1, arbitrary }, { weight: 1, arbitrary: validShot }) : arbitrary];
    });

  describe(title, () => {
    beforeAll(async () => {
      // Every property needs the fixtures' key authenticated without the store: a fake that stopped
      // answering authentication would have each route generate REACH_BUDGET requests before failing.
      const answer = await gateway.send({
        method: 'GET',
        path: `/v2/crawl/${crypto.randomUUID()}`,
        headers: { authorization: `Bearer ${gateway.fixtures.apiKey}` },
        chunked: false,
      });
      expect({ status: answer.status, reachedStore: answer.reachedStore }, 'an unknown crawl with the fixtures key').toEqual({
        status: 404,
        reachedStore: false,
      });
    });

    for (const [route, arbitrary] of routes) {
      it(
        `${route}: ${runsPerRoute} generated requests and more until a valid one, each accepted or answered 4xx with the error envelope`,
        { timeout: 180_000 },
        async () => {
          const seen: Outcomes = new Map();
          const check = async (s: Shot) => {
            const answer = await gateway.send(s);
            const outcome = answer.reachedStore ? 'accepted' : answer.status;
            seen.set(outcome, (seen.get(outcome) ?? 0) + 1);
            // Past the checks, the answer is the store's (here a failure of every call): its status says nothing.
            if (!answer.reachedStore) expectNoServerError(answer, describeShot(s));
            if (answer.status >= 400 && s.method !== 'HEAD') expectEnvelope(answer.body, describeShot(s));
          };
          await fc.assert(fc.asyncProperty(arbitrary, check), { numRuns: runsPerRoute });
          let extra = 0;
          while (reachedOutcomes(route, seen).some(([, reached]) => !reached) && extra < REACH_BUDGET) {
            for (const s of fc.sample(arbitrary, 100)) await check(s);
            extra += 100;
          }
          const counts = [...seen.entries()].sort(([a], [b]) => String(a).localeCompare(String(b)));
          console.log(`${route}: ${counts.map(([outcome, n]) => `${outcome}×${n}`).join(' ')}`);
          // The generators reach past authentication and validation, not only the first check.
          for (const [outcome, reached] of reachedOutcomes(route, seen))
            expect(reached, `${outcome} within ${runsPerRoute + REACH_BUDGET} requests`).toBe(true);
        },
      );
    }

    it('left Object.prototype without properties of the requests', () => {
      const inherited: string[] = [];
      for (const name in {}) inherited.push(name);
      expect(inherited).toEqual([]);
    });
  });
}
