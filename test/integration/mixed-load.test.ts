// "A job engine no mix of work can wedge": three teams (concurrency limits 2, 4
// and 8) start at the same moment crawls of a static, a script-rendered and a
// slow site, a batch scrape, single scrapes, a browser session and searches, on
// one worker with the default browser slots and CRAWL_RENDERING=auto. Every job
// must end with exactly its pages, each stored (and fetched) once, charged
// exactly, and leave nothing held: no slot, lease, demand, session or running job.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { jobsOfTeam, TEAM_LIMITS, type Api, type JobOutcome } from '../support/mixed-load-jobs.ts';
import { startTeamSites, type TeamSites } from '../support/mixed-load-sites.ts';
import { loadSnapshot, nothingHeld } from '../support/load-snapshot.ts';
import { startHarness, waitFor, type Harness } from '../support/harness.ts';

const CREDITS = 100_000;
/** Jobs that have not ended by then count as wedged; well inside the test's own timeout, so the snapshot is printed. */
const JOB_DEADLINE_MS = 140_000;

let h: Harness;
let teams: { teamId: string; apiKey: string }[];
let sites: TeamSites[];

beforeAll(async () => {
  h = await startHarness();
  await h.startWorker();
  await h.startBrowserHost();
  teams = await Promise.all(TEAM_LIMITS.map((concurrencyLimit) => h.newTeam({ concurrencyLimit, credits: CREDITS })));
  sites = await Promise.all(TEAM_LIMITS.map(() => startTeamSites()));
});

afterAll(async () => {
  await Promise.all((sites ?? []).map((s) => s.close()));
  await h?.stop();
});

const apiOf =
  (key: string): Api =>
  async (path, init = {}) => {
    const res = await h.api(path, { ...init, key });
    return { status: res.status, body: await res.json() };
  };

it('runs every job of three teams started together to its end, exactly, and frees everything', async () => {
  const teamIds = teams.map((t) => t.teamId);
  const deadline = Date.now() + JOB_DEADLINE_MS;
  const runs = teams.flatMap((_, i) => jobsOfTeam(i).map((job) => ({ team: i, job })));
  const settled = await Promise.allSettled(runs.map(({ team, job }) => job.run(apiOf(teams[team]!.apiKey), sites[team]!, deadline)));
  const failures = settled.flatMap((s, i) => (s.status === 'rejected' ? [`${runs[i]!.job.name}: ${(s.reason as Error).message}`] : []));
  if (failures.length > 0) throw new Error(`${failures.length} job(s) did not end as they must:\n${failures.join('\n')}\n${await loadSnapshot(h.db, teamIds)}`);
  const outcomes = settled.map((s) => (s as PromiseFulfilledResult<JobOutcome>).value);

  for (const [i, team] of teams.entries()) {
    const mine = outcomes.filter((_, k) => runs[k]!.team === i);
    // Each job of the crawl pipeline stored exactly its pages, each in one row.
    for (const { jobId, urls } of mine.flatMap((o) => o.stored)) {
      const rows = await h.db.jobPage.findMany({ where: { jobId: jobId }, select: { url: true, success: true } });
      expect(rows.map((r) => r.url).sort(), jobId).toEqual([...urls].sort());
      expect(
        rows.every((r) => r.success),
        jobId,
      ).toBe(true);
    }
    // Each crawl checked for itself that it fetched its HTTP pages once and never left its host.

    // Charged exactly: the ledger holds what the jobs' pages, searches and session cost, and so does the balance.
    const expected = mine.reduce((sum, o) => sum + o.credits, 0);
    const { _sum } = await h.db.usageEntry.aggregate({ where: { teamId: team.teamId }, _sum: { credits: true } });
    expect(_sum.credits, `ledger of team ${i}`).toBe(expected);
    expect((await h.db.team.findUniqueOrThrow({ where: { id: team.teamId } })).creditBalance).toBe(CREDITS - expected);
  }

  // Nothing is left running or held once every job has answered.
  await waitFor('every job to let go of what it held', () => nothingHeld(h.db, teamIds), 15_000).catch(async (err) => {
    throw new Error(`${(err as Error).message}\n${await loadSnapshot(h.db, teamIds)}`);
  });
  for (const [i, team] of teams.entries()) {
    const api = apiOf(team.apiKey);
    expect((await api('/v2/team/queue-status')).body).toMatchObject({
      success: true,
      jobsInQueue: 0,
      activeJobsInQueue: 0,
      waitingJobsInQueue: 0,
      maxConcurrency: TEAM_LIMITS[i],
    });
    expect((await api('/v2/concurrency-check')).body).toEqual({ success: true, concurrency: 0, maxConcurrency: TEAM_LIMITS[i] });
  }
}, 175_000);
