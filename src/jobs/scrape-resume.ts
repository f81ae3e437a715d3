// The resume of a POST /v2/scrape that outlived its timeout. Its 408 says the work goes on
// (details.state "processing_continues", Retry-After); both official SDKs then wait and send
// the identical request again, with no header of their own. That request, and any identical
// one of the team while the scrape runs, is answered by the same scrape: the page is fetched
// and charged once. The scrape's row holds the request's key (unique per team), so the match
// is found by any gateway, also one started after the one that answered the 408.
import type { Team } from '../generated/prisma/client.ts';
import type { JobSettings } from './config.ts';
import { isUniqueViolation, type Db } from '../platform/db/prisma.ts';
import { DomainError } from '../platform/domain-error.ts';
import type { Logger } from '../platform/log.ts';
import type { Client } from '@temporalio/client';
import { commitScrape, type PreparedScrape, type ScrapeJob } from './scrape-job.ts';
import { eventually } from '../platform/retry-in-background.ts';
import { holderSettled, resumableTimeoutDetails, resumeChoice } from './scrape-resume-match.ts';

type Deps = { db: Db; temporal: Client; config: JobSettings; log: Logger };

/**
 * Looks for the key's holder at most this often per request: a unique violation means another
 * request committed a scrape with the key after this one looked, which the next look finds.
 */
const MAX_KEY_LOOKS = 3;

export interface ResumableScrape {
  job: ScrapeJob;
  /** Its answer is known (it ended, or its page is stored): it is read, not waited for. */
  settled: boolean;
}

/** The scrape that holds a request's key, if any. */
export async function findKeyHolder(db: Db, teamId: string, key: string) {
  const row = await db.job.findFirst({
    where: { teamId, resumeKey: key },
    select: { id: true, workflowId: true, status: true, resumableUntil: true, pages: { select: { id: true }, take: 1 } },
  });
  return row && { ...row, pageStored: row.pages.length > 0 };
}

export type KeyHolderRow = NonNullable<Awaited<ReturnType<typeof findKeyHolder>>>;

/** The holder answers the request (resumeChoice): the scrape to wait for or read. */
export function attachedScrape(holder: KeyHolderRow | null | undefined, team: Team, prepared: PreparedScrape): ResumableScrape | undefined {
  if (!holder || resumeChoice(holder, new Date()) !== 'attach') return undefined;
  return {
    job: { id: holder.id, teamId: team.id, workflowId: holder.workflowId, url: prepared.url, limit: prepared.options.limit, kind: 'scrape' },
    settled: holderSettled(holder),
  };
}

/**
 * The scrape that answers this checked request: the one at work (or, within its resume window,
 * settled) that holds its key, else a new one that takes the key over (`holder`: the key's holder
 * as the caller found it, looked up again after a unique violation).
 */
export async function startOrAttachScrape(
  deps: Deps,
  team: Team,
  apiKeyId: string,
  prepared: PreparedScrape,
  key: string,
  opts: { holder?: KeyHolderRow | null; step?: (name: string) => void } = {},
): Promise<ResumableScrape> {
  let holder = opts.holder === undefined ? await findKeyHolder(deps.db, team.id, key) : opts.holder;
  for (let look = 1; ; look++) {
    opts.step?.('key');
    const attached = attachedScrape(holder, team, prepared);
    if (attached) {
      deps.log.info('scrape request attached to the scrape of the same request', { crawlId: attached.job.id, settled: attached.settled });
      return attached;
    }
    try {
      const job = await commitScrape(deps, team, apiKeyId, prepared, { resume: { key, replaces: holder?.id } });
      opts.step?.('job');
      return { job, settled: false };
    } catch (err) {
      if (!isUniqueViolation(err) || look >= MAX_KEY_LOOKS) throw err;
    }
    holder = await findKeyHolder(deps.db, team.id, key);
  }
}

/** The 408 to answer, and its Retry-After when the scrape can be resumed. */
export interface ScrapeTimeoutAnswer {
  error: DomainError;
  retryAfterSeconds?: number;
}

/** Marks the scrape resumable for the window from now; false when another scrape has taken its key since. */
async function markResumable(db: Db, jobId: string, key: string, windowSeconds: number): Promise<boolean> {
  const until = new Date(Date.now() + windowSeconds * 1000).toISOString();
  // GREATEST keeps a later mark (another gateway's clock, a longer window before a settings change).
  const updated = await db.$executeRaw`
    UPDATE job SET resumable_until = GREATEST(resumable_until, ${until}::timestamptz) WHERE id = ${jobId}::uuid AND resume_key = ${key}`;
  return updated === 1;
}

/**
 * Turns awaitScrape's timeout into a resumable one: the scrape's row is marked resumable for
 * SCRAPE_RESUME_WINDOW_SECONDS before the 408 leaves, so a resume finds it after the scrape's end
 * and after a restart of every gateway. A row that cannot be marked (the database is away, another
 * scrape took the key) gets the plain 408: promising a resume that would start over would fetch
 * and charge the page twice.
 */
export async function resumableTimeout(deps: Deps, jobId: string, key: string, timeout: DomainError): Promise<ScrapeTimeoutAnswer> {
  const { resumeWindowSeconds, resumeRetryAfterSeconds } = deps.config.scrape;
  let marked = false;
  try {
    marked = await markResumable(deps.db, jobId, key, resumeWindowSeconds);
  } catch (err) {
    deps.log.warn('scrape not marked resumable; its 408 offers no resume', { crawlId: jobId, error: (err as Error).message });
  }
  if (!marked) return { error: timeout };
  const message = `${timeout.message} The same request sent again within ${resumeWindowSeconds} s answers with it instead of scraping again (the SDKs do so by themselves).`;
  return {
    error: new DomainError('timeout', message, timeout.code, resumableTimeoutDetails(jobId, resumeRetryAfterSeconds)),
    retryAfterSeconds: resumeRetryAfterSeconds,
  };
}

/** How often marking a scrape whose answer was lost to a dependency is tried again. */
const MARK_RETRY_MS = 1000;

/**
 * A scrape that began but could not be answered (a 503: the database or Temporal went away meanwhile)
 * is marked resumable as soon as the database takes it, so the request sent again, as a 503 asks,
 * is answered by this scrape instead of fetching and charging the page again. Resolves once marked,
 * or when the window has passed without the database back.
 */
export function keepResumable(deps: Deps, jobId: string, key: string): Promise<boolean> {
  const { resumeWindowSeconds } = deps.config.scrape;
  return eventually(() => markResumable(deps.db, jobId, key, resumeWindowSeconds), { everyMs: MARK_RETRY_MS, forMs: resumeWindowSeconds * 1000 });
}
