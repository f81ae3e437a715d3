// A seeded HTTP pass over every route: 25 generated requests per route (those of
// test/support/route-requests.ts, from a fixed seed, so a failure reproduces) through
// the harness's in-process gateway, one route after the other. It checks what only
// the real server shows: HTTP framing, the database and Temporal behind the
// parsers, and time. The parsers themselves get hundreds of requests per route
// in-process (test/support/route-parsing-properties.ts); `npm run fuzz`
// sends 10,000 per route over HTTP.
import { fuzzRoutesOverHttp } from '../support/route-fuzzing.ts';

fuzzRoutesOverHttp({
  runsPerRoute: 25,
  seed: 20261127,
  concurrent: false,
  testTimeoutMs: 120_000,
  // The slowest legitimate answers are to the largest bodies: a 1 MB prompt, or a gzip body that inflates past BODY_LIMIT
  // (refused after about a thousand event-loop turns of zlib output). Alone on an idle machine such a request takes 0.3 s;
  // here, one request at a time, the slowest took 1.4 s at a load average of 13 on the shared 2-core machine. 3 s is twice
  // that, and well under what a request stuck on a lock, a retry loop or a lost wake-up takes.
  answerWithinMs: 3000,
});
