// Reads and commands on a team's crawls other than start and status: the
// active list, cancellation, and the errors listing.
import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { DomainError } from '../platform/domain-error.ts';
import type { Db } from '../platform/db/prisma.ts';
import type { Job } from '../generated/prisma/client.ts';
import { jobWorkflowId } from './definitions.ts';
import { crawlOptions } from './crawl-options.ts';
import type { JobErrors } from './job-responses.ts';

const CRAWLER_OPTION_KEYS = [
  'includePaths',
  'excludePaths',
  'limit',
  'crawlEntireDomain',
  'allowExternalLinks',
  'allowSubdomains',
  'ignoreRobotsTxt',
  'robotsUserAgent',
  'sitemap',
  'deduplicateSimilarURLs',
  'ignoreQueryParameters',
  'regexOnFullURL',
  'maxDiscoveryDepth',
  'delay',
  'maxConcurrency',
  'zeroDataRetention',
  'maxPathDepth',
] as const;

/** What a listing shows instead of a header's value. */
const REDACTED = '[redacted]';

/** Header names stay (they say what the crawl sends); values go: they carry cookies and tokens. */
function redactHeaders(headers: Record<string, string> | undefined): Record<string, string> | undefined {
  return headers && Object.fromEntries(Object.keys(headers).map((name) => [name, REDACTED]));
}

export function activeCrawlRecord(crawl: Job) {
  const options = crawlOptions(crawl);
  const scrapeOptions = options.scrapeOptions && { ...options.scrapeOptions, headers: redactHeaders(options.scrapeOptions.headers) };
  return {
    id: crawl.id,
    teamId: crawl.teamId,
    url: crawl.url,
    created_at: crawl.createdAt.toISOString(),
    options: {
      ...Object.fromEntries(CRAWLER_OPTION_KEYS.filter((k) => options[k] !== undefined).map((k) => [k, options[k]])),
      scrapeOptions,
    },
  };
}

export async function activeCrawls(db: Db, teamId: string) {
  const crawls = await db.job.findMany({ where: { teamId, status: 'scraping', kind: 'crawl' }, orderBy: { createdAt: 'asc' } });
  return crawls.map(activeCrawlRecord);
}

/**
 * Cancels the workflow first, so a cancelled crawl never keeps scraping
 * behind our back; then the row says cancelled at once, whatever the workflow's
 * own cleanup is still doing. A crawl whose workflow has not started yet is only
 * marked: the workflow the reconciler (or a late gateway start) runs for it plans
 * nothing and records the end.
 */
export async function cancelCrawl(db: Db, temporal: Client, crawl: Job): Promise<void> {
  if (crawl.status === 'completed') throw new DomainError('conflict', 'Crawl is already completed');
  if (crawl.status === 'failed') throw new DomainError('conflict', 'Crawl has already failed');
  if (crawl.status === 'cancelled') return;
  try {
    await temporal.workflow.getHandle(jobWorkflowId(crawl)).cancel();
  } catch (err) {
    if (!(err instanceof WorkflowNotFoundError)) {
      throw new DomainError('unavailable', `The crawl could not be cancelled: ${(err as Error).message}`, 'TEMPORAL_UNAVAILABLE');
    }
  }
  const { count } = await db.job.updateMany({
    where: { id: crawl.id, status: 'scraping' },
    data: { status: 'cancelled', completedAt: new Date() },
  });
  if (count === 0) {
    const now = await db.job.findUniqueOrThrow({ where: { id: crawl.id } });
    if (now.status === 'completed') throw new DomainError('conflict', 'Crawl is already completed');
  }
}

export async function crawlErrors(db: Db, crawlId: string): Promise<JobErrors> {
  const [failed, blocked] = await Promise.all([
    db.jobPage.findMany({ where: { jobId: crawlId, success: false }, orderBy: { id: 'asc' }, select: { id: true, url: true, error: true, createdAt: true } }),
    db.crawlRobotsBlocked.findMany({ where: { crawlId }, orderBy: { createdAt: 'asc' }, select: { url: true } }),
  ]);
  return {
    errors: failed.map((p) => ({ id: String(p.id), timestamp: p.createdAt.toISOString(), url: p.url, error: p.error ?? 'Unknown error' })),
    robotsBlocked: blocked.map((b) => b.url),
  };
}
