// The full HTTP fuzzer of `npm run fuzz` (not part of `npm test`): 10,000 generated
// requests per route through the harness's in-process gateway, every route at once,
// none answered 500 or above, all with the error envelope. The same requests run in
// `npm test` in-process without HTTP (test/support/route-parsing-properties.ts)
// and as a small seeded HTTP pass (test/integration/route-answers.test.ts).
//
// Nothing is crawled: the requests use a team with 0 credits, so a body that
// happens to be a valid crawl request is answered 402 before any row or workflow
// exists (the fixtures the id routes read are inserted directly).
import { fuzzRoutesOverHttp } from '../support/route-fuzzing.ts';

/** FUZZ_RUNS_PER_ROUTE may lower it for a quick local run; the default is the acceptance bound. */
const runsPerRoute = Number(process.env.FUZZ_RUNS_PER_ROUTE ?? 10_000);

fuzzRoutesOverHttp({
  runsPerRoute,
  concurrent: true,
  // The routes share one event loop with the gateway and its database work: on a busy 2-core machine a route takes many minutes.
  testTimeoutMs: Math.max(180_000, runsPerRoute * 600),
  // Not 10 s: a gzip body that inflates past BODY_LIMIT takes about a thousand event-loop turns to refuse (zlib hands back 16 KB at
  // a time), and with every route fuzzed at once in the gateway's own process on a busy 2-core machine a turn can take 15 ms, so
  // such a legitimate 413 has taken over 10 s.
  answerWithinMs: 30_000,
});
