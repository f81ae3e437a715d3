// The concurrent part of bench:scrape: scrapes in flight at once from several teams, as agents of
// several customers send them. Each round starts `teams` × `perTeam` scrapes of distinct static
// pages (maxAge 0: each is loaded) at the same moment and waits for all; the round trips of every
// round are pooled.
import type { Db } from '../src/platform/db/prisma.ts';
import { benchTeam } from './bench-team.ts';

export interface ConcurrentScrapes {
  teams: number;
  perTeam: number;
  rounds: number;
}

/** The round trips (ms) of every scrape of every round; `pageUrl(i)` is the i-th distinct page. */
export async function concurrentScrapes(db: Db, gatewayUrl: string, pageUrl: (i: number) => string, part: ConcurrentScrapes): Promise<number[]> {
  const teams = await Promise.all(
    Array.from({ length: part.teams }, (_, t) =>
      // Each team may have all its scrapes loading at once.
      benchTeam(db, gatewayUrl, { name: `bench-concurrent-${t}`, concurrencyLimit: part.perTeam, credits: 1_000_000 }),
    ),
  );
  const times: number[] = [];
  let page = 0;
  for (let round = 0; round < part.rounds; round++) {
    const scrapes = teams.flatMap((team) =>
      Array.from({ length: part.perTeam }, () => {
        const url = pageUrl(page++);
        return (async () => {
          const started = performance.now();
          const { status, body } = await team.api('/v2/scrape', { method: 'POST', json: { url, formats: ['markdown'], maxAge: 0 } });
          if (status !== 200) throw new Error(`concurrent scrape of ${url} answered ${status}: ${JSON.stringify(body)}`);
          return performance.now() - started;
        })();
      }),
    );
    times.push(...(await Promise.all(scrapes)));
  }
  return times;
}
