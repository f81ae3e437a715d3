// bench:scale, part 2: a thousand jobs at once. SCALE_JOBS single scrapes,
// SCALE_CRAWLS small crawls and SCALE_BATCHES batch scrapes spread over
// SCALE_TEAMS teams, plus SCALE_SESSIONS browser sessions with executes (teams of
// their own: a session is refused, not queued, at its team's limit), all started
// within SCALE_START_SECONDS (0: at once). Then the same jobs on fresh teams in
// groups of ten, one group after the other. Each job checks its answers (the
// mixed load's checks). Prints the starts per second the gateway accepted, the
// time to the last completion against the groups' sum, the p95 of each route,
// and whether anything is still held once every job has ended.
import type { Config } from '../src/config.ts';
import type { Db } from '../src/platform/db/prisma.ts';
import type { Logger } from '../src/platform/log.ts';
import { loadSnapshot, nothingHeld } from '../test/support/load-snapshot.ts';
import { batchJob, checkEnded, ended, ok, scrape, sessionJob, type MixedJob } from '../test/support/mixed-load-jobs.ts';
import type { TeamSites } from '../test/support/mixed-load-sites.ts';
import { waitFor } from '../test/support/wait-for.ts';
import type { BenchTeam } from './bench-team.ts';
import { startScaleService, type ScaleService } from './scale-service.ts';
import { jobsChart, type JobsRun } from './scale-figures.ts';
import { SMALL_CRAWL_PAGES, startScaleSite } from './scale-site.ts';
import { latencies, requestKind } from './soak-figures.ts';

export interface JobsPartSettings {
  scrapes: number;
  crawls: number;
  batches: number;
  sessions: number;
  teams: number;
  teamLimit: number;
  startSeconds: number;
}

const GROUP = 10;
/** However long a job may take before it counts as incorrect. */
const JOB_DEADLINE_MS = 15 * 60_000;
/** Hundreds of crawls and batches poll their status: once a second each, not four times. */
const POLL_MS = 1_000;
const SETTLE_MS = 30_000;

interface Entry {
  job: MixedJob;
  /** Index of the job's team; sessions have teams of their own after the others. */
  team: number;
}

function smallCrawlJob(name: string, siteUrl: string, k: number): MixedJob {
  return {
    name,
    async run(api, _sites, deadline) {
      const root = `${siteUrl}/c${k}/`;
      const urls = [root, ...Array.from({ length: SMALL_CRAWL_PAGES - 1 }, (_, j) => `${root}p${j + 1}`)];
      const { id } = ok(name, await api('/v2/crawl', { method: 'POST', json: { url: root, limit: SMALL_CRAWL_PAGES } }));
      checkEnded(`${name} ${id}`, await ended(api, `/v2/crawl/${id}`, deadline, POLL_MS), urls, urls.length);
      return { stored: [{ jobId: id, urls }], credits: urls.length };
    },
  };
}

function singleScrapeJob(name: string, siteUrl: string, i: number): MixedJob {
  return {
    name,
    async run(api, _sites, deadline) {
      return { stored: [await scrape(api, `${siteUrl}/item/${i}`, deadline)], credits: 1 };
    },
  };
}

/** Every job of the run, the kinds interleaved (so each group of ten mixes them as the whole does). */
function entries(s: JobsPartSettings, siteUrl: string): Entry[] {
  const kinds: [number, (n: number) => MixedJob][] = [
    [s.scrapes, (n) => singleScrapeJob(`scrape ${n}`, siteUrl, n)],
    [s.crawls, (n) => smallCrawlJob(`crawl ${n}`, siteUrl, n)],
    [s.batches, (n) => batchJob(`batch scrape ${n}`, { pollMs: POLL_MS })],
  ];
  const placed = kinds.flatMap(([count, make]) =>
    Array.from({ length: count }, (_, n) => ({ at: (n + 0.5) / count, job: make(n), session: undefined as number | undefined })),
  );
  const sessions = Array.from({ length: s.sessions }, (_, n) => ({ at: (n + 0.5) / s.sessions, job: sessionJob(`browser session ${n}`), session: n }));
  return [...placed, ...sessions]
    .sort((a, b) => a.at - b.at)
    .map((e, i) => ({ job: e.job, team: e.session === undefined ? i % s.teams : s.teams + e.session }));
}

interface RunResult extends JobsRun {
  incorrect: string[];
}

/** Runs the entries on these teams, the n-th started at n/total of `startSeconds`; times each from the first start. */
async function runJobs(list: Entry[], teams: BenchTeam[], sites: TeamSites, startSeconds: number): Promise<RunResult> {
  const started = Date.now();
  const deadline = started + startSeconds * 1000 + JOB_DEADLINE_MS;
  const ends: number[] = [];
  const incorrect: string[] = [];
  await Promise.all(
    list.map(async (e, n) => {
      await new Promise((r) => setTimeout(r, (n / list.length) * startSeconds * 1000));
      try {
        await e.job.run(teams[e.team]!.api, sites, deadline);
        ends.push((Date.now() - started) / 1000);
      } catch (err) {
        incorrect.push(`${e.job.name}: ${(err as Error).message}`);
      }
    }),
  );
  return { ends, last: (Date.now() - started) / 1000, incorrect };
}

/** Jobs (and sessions) of these teams the gateway committed, per second since `since`. */
async function startsPerSecond(db: Db, teamIds: string[], since: number): Promise<{ perSecond: [number, number][]; overall: number; count: number }> {
  const rows = await db.$queryRaw<{ at: Date }[]>`
    SELECT created_at AS at FROM job WHERE team_id = ANY(${teamIds}::uuid[])
    UNION ALL SELECT created_at FROM browser_session WHERE team_id = ANY(${teamIds}::uuid[])`;
  const seconds = rows.map((r) => (r.at.getTime() - since) / 1000);
  const buckets = new Map<number, number>();
  for (const s of seconds) buckets.set(Math.floor(s), (buckets.get(Math.floor(s)) ?? 0) + 1);
  const last = Math.max(...seconds);
  const perSecond = [...buckets].sort(([a], [b]) => a - b).map(([s, n]) => [s, n] as [number, number]);
  return { perSecond, overall: rows.length / Math.max(last, 1e-3), count: rows.length };
}

async function teamsFor(service: ScaleService, s: JobsPartSettings, label: string, timed?: (method: string, path: string, status: number, ms: number) => void) {
  const teams: BenchTeam[] = [];
  for (let t = 0; t < s.teams; t++) teams.push(await service.team(`${label} team ${t}`, s.teamLimit, timed));
  for (let t = 0; t < s.sessions; t++) teams.push(await service.team(`${label} session team ${t}`, 2, timed));
  return teams;
}

export async function jobsPart(config: Config, log: Logger, s: JobsPartSettings): Promise<{ summary: string[]; svg: string }> {
  const site = await startScaleSite(1);
  const service = await startScaleService(config, log, { browserHost: true });
  try {
    // batchJob and sessionJob load the items of `sites.scrape`: here the generated site's /item/<i>.
    const sites = { scrape: { url: site.url } } as unknown as TeamSites;
    const list = entries(s, site.url);
    console.log(
      `part 2: ${list.length} jobs (${s.scrapes} scrapes, ${s.crawls} crawls of ${SMALL_CRAWL_PAGES} pages, ${s.batches} batch scrapes of 6 pages over ${s.teams} teams of limit ${s.teamLimit}; ${s.sessions} browser sessions with 2 executes, a team each) started ${s.startSeconds ? `within ${s.startSeconds} s` : 'at once'}, after an uncounted group of ${GROUP}`,
    );
    const latency = new Map<string, number[]>();
    let recording = true;
    const timed = (method: string, path: string, status: number, ms: number) => {
      if (!recording) return;
      const kind = requestKind(method, path, status);
      latency.set(kind, [...(latency.get(kind) ?? []), ms]);
    };
    // A fresh worker's first jobs of each kind also pay for loading and compiling code: one uncounted group first.
    await runJobs(list.slice(0, GROUP), await teamsFor(service, s, 'warm-up'), sites, 0);
    const teams = await teamsFor(service, s, 'together', timed);
    const started = Date.now();
    const cpuBefore = service.cpu();
    const together = await runJobs(list, teams, sites, s.startSeconds);
    const cpuUsed = Object.entries(service.cpu()).map(([name, seconds]) => [name, seconds - (cpuBefore[name] ?? 0)] as const);
    recording = false;
    const starts = await startsPerSecond(
      service.db,
      teams.map((t) => t.id),
      started,
    );
    const teamIds = teams.map((t) => t.id);
    const held = await waitFor('nothing held', () => nothingHeld(service.db, teamIds), SETTLE_MS).then(
      () => 'nothing',
      () => loadSnapshot(service.db, teamIds),
    );

    const groupTeams = await teamsFor(service, s, 'grouped');
    const groupedEnds: number[] = [];
    let groupedSum = 0;
    const groupedIncorrect: string[] = [];
    for (let g = 0; g < list.length; g += GROUP) {
      const run = await runJobs(list.slice(g, g + GROUP), groupTeams, sites, 0);
      groupedEnds.push(...run.ends.map((t) => groupedSum + t));
      groupedIncorrect.push(...run.incorrect);
      groupedSum += run.last;
    }
    const p95 = latencies(latency);
    const summary = [
      `all at once: ${list.length - together.incorrect.length} of ${list.length} jobs correct; last completion after ${together.last.toFixed(1)} s`,
      `starts the gateway accepted: ${starts.count} in ${(starts.count / starts.overall).toFixed(1)} s, ${starts.overall.toFixed(1)} starts/s (peak ${Math.max(...starts.perSecond.map(([, n]) => n))} in one second)`,
      `in groups of ten: ${list.length - groupedIncorrect.length} of ${list.length} correct; ${groupedSum.toFixed(1)} s in sum; ratio all at once / groups ${(together.last / groupedSum).toFixed(2)}`,
      `throughput all at once: ${(list.length / together.last).toFixed(1)} jobs/s, ${(pagesOf(s) / together.last).toFixed(1)} pages/s (${pagesOf(s)} pages)`,
      // Which process the run waited on: one near a whole core (1.00) is the bottleneck; all well below it, a wait that is not CPU.
      `CPU during the run, seconds (cores busy on average): ${cpuUsed.map(([name, used]) => `${name} ${used.toFixed(1)} (${(used / together.last).toFixed(2)})`).join(', ')}`,
      ...Object.entries(p95).map(
        ([kind, l]) =>
          `  ${kind.padEnd(40)} ${String(l.count).padStart(6)} requests   p50 ${l.p50.toFixed(0).padStart(6)} ms   p95 ${l.p95.toFixed(0).padStart(6)} ms`,
      ),
      `held after the last job (jobs scraping, team slots, browser and host leases, browser demand, live sessions): ${held}`,
      ...incorrectLines('all at once', together.incorrect),
      ...incorrectLines('groups', groupedIncorrect),
    ];
    for (const line of summary) console.log(line);
    const bars = Object.fromEntries(Object.entries(p95).map(([kind, l]) => [kind, l.p95]));
    return { summary, svg: jobsChart(`bench:scale part 2: ${list.length} jobs at once`, together, groupedEnds, bars, starts.perSecond) };
  } finally {
    await service.close();
    await site.close();
  }
}

/** Pages the jobs store: one a scrape, SMALL_CRAWL_PAGES a crawl, six a batch. */
function pagesOf(s: JobsPartSettings): number {
  return s.scrapes + s.crawls * SMALL_CRAWL_PAGES + s.batches * 6;
}

/** Every incorrect job's reason, counted: the same reason (the job's name and ids cut off) once with its count. */
function incorrectLines(run: string, incorrect: string[]): string[] {
  const reasons = new Map<string, number>();
  for (const why of incorrect) {
    const reason = why
      .replace(/^[^:]*: /, '')
      .replace(/[0-9a-f]{8}-[0-9a-f-]{27}/g, '<id>')
      .replace(/\b\d+\b/g, 'N');
    reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
  }
  return [...reasons].map(([reason, n]) => `  INCORRECT (${run}) x${n}: ${reason}`);
}
