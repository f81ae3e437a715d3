// What the engine's activities know of a job once they have read its row: its
// options and kind, its team, how its URLs are normalised, its robots.txt and its
// link filter. Read afresh by every activity, so no worker's memory matters.
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { ApplicationFailure } from '@temporalio/common';
import type { JobSettings } from './config.ts';
import type { Db } from '../platform/db/prisma.ts';
import type { CrawlNetwork } from '../platform/net/outbound-network.ts';
import { crawlOptions } from './crawl-options.ts';
import { crawlRobots } from './frontier/crawl-robots.ts';
import type { NewFrontierUrl } from './frontier/frontier.ts';
import { createLinkFilter } from './frontier/link-filter.ts';
import { canonicalUrl, urlKey, type NormalizeOptions } from './frontier/normalize-url.ts';
import { isTooLong } from './frontier/url-length.ts';
import { jobKind } from './job-kind.ts';
import { readJobWithTeam } from './job-row.ts';
import { threatRefusal, threatPolicy } from '../page/threat-policy.ts';

/**
 * Checking links runs user patterns and robots rules on site-supplied URLs; a long
 * list gives the event loop back this often, so heartbeats and other batches go on.
 */
const LINK_CHECK_SLICE_MS = 50;

export interface JobContextDeps {
  db: Db;
  config: JobSettings;
  network: CrawlNetwork;
}

export async function readJob({ db, network }: JobContextDeps, crawlId: string) {
  const crawl = await readJobWithTeam(db, crawlId);
  if (!crawl) throw ApplicationFailure.nonRetryable(`crawl ${crawlId} does not exist`, 'CrawlNotFound');
  const options = crawlOptions(crawl);
  // robotsUserAgent both fetches and is evaluated against robots.txt.
  const robotsAgent = options.robotsUserAgent ?? network.userAgents.desktop;
  const robotsFetch = options.robotsUserAgent ? network.fetchAs(options.robotsUserAgent) : network.fetch;
  return { crawl, options, robotsAgent, robotsFetch };
}

export type JobRow = Awaited<ReturnType<typeof readJob>>;

export function jobContext({ config }: Pick<JobContextDeps, 'config'>, { crawl, options, robotsAgent, robotsFetch }: JobRow) {
  const norm: NormalizeOptions = { ignoreQueryParameters: options.ignoreQueryParameters };
  const robots = crawlRobots({
    crawlId: crawl.id,
    startUrl: options.url,
    startRobotsTxt: crawl.robotsTxt,
    userAgent: robotsAgent,
    ignore: options.ignoreRobotsTxt,
    fetch: robotsFetch,
    maxBytes: config.crawl.robotsMaxBytes,
  });
  return {
    crawl,
    kind: jobKind(crawl),
    team: crawl.team,
    options,
    norm,
    robots,
    filter: createLinkFilter(options.url, options),
    threat: threatPolicy(options.scrapeOptions.threatProtection),
    startKey: urlKey(options.url, norm),
  };
}

export type JobContext = ReturnType<typeof jobContext>;

export async function loadJob(deps: JobContextDeps, crawlId: string): Promise<JobContext> {
  return jobContext(deps, await readJob(deps, crawlId));
}

export interface SortedLinks {
  follow: NewFrontierUrl[];
  robotsBlocked: { url: string; urlKey: string }[];
  /** Links threat protection keeps out, with why: never queued, listed as failed pages. */
  threatBlocked: { url: string; urlKey: string; error: string }[];
  /** Links dropped for being longer than CRAWL_MAX_URL_LENGTH. */
  tooLong: number;
}

/** Splits links into those to follow and those robots.txt or threat protection keep out; over-long ones are dropped and counted. */
export async function sortLinks(
  job: Pick<JobContext, 'filter' | 'norm' | 'robots' | 'threat'>,
  maxUrlLength: number,
  links: string[],
  depth: number,
): Promise<SortedLinks> {
  const follow: NewFrontierUrl[] = [];
  const robotsBlocked: { url: string; urlKey: string }[] = [];
  const threatBlocked: SortedLinks['threatBlocked'] = [];
  let sliceStart = performance.now();
  let tooLong = 0;
  for (const link of links) {
    if (performance.now() - sliceStart > LINK_CHECK_SLICE_MS) {
      await yieldToEventLoop();
      sliceStart = performance.now();
    }
    if (!job.filter.check(link).allowed) continue;
    const entry = { url: canonicalUrl(link, job.norm), urlKey: urlKey(link, job.norm) };
    if (isTooLong(entry, maxUrlLength)) {
      tooLong++;
      continue;
    }
    // Before robots.txt: a blocked host's robots.txt is never fetched either.
    const threat = threatRefusal(entry.url, job.threat);
    if (threat) threatBlocked.push({ ...entry, error: threat });
    else if (await job.robots.isAllowed(entry.url)) follow.push({ ...entry, depth });
    else robotsBlocked.push(entry);
  }
  return { follow, robotsBlocked, threatBlocked, tooLong };
}
