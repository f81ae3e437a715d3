// TEAM_MAX_ACTIVE_CRAWLS: how many crawls a team may have running or waiting
// (status scraping) at once. Every crawl holds workflow, frontier and webhook
// work until it ends, so one team's flood would crowd out everyone else's.
import { DomainError } from '../platform/domain-error.ts';
import type { Tx } from '../platform/db/prisma.ts';

/**
 * Inside the transaction that creates the crawl row: refuses it when the team is at its cap.
 * Concurrent starts of one team are serialised by an advisory lock, so two of them cannot both
 * see room for one; the count is a statement after the lock, so it sees what the lock waited for.
 */
export async function checkActiveCrawlCap(tx: Tx, teamId: string, cap: number): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`crawl-start:${teamId}`}, 0))`;
  // Batch scrapes hold the same work as crawls; single scrapes end while their caller waits.
  const active = await tx.job.count({ where: { teamId, status: 'scraping', kind: { not: 'scrape' } } });
  if (active >= cap) {
    throw new DomainError(
      'limit-reached',
      `Too many active crawls: this team has ${active} crawls running or waiting and may have at most ${cap} at once (TEAM_MAX_ACTIVE_CRAWLS). ` +
        'Start this one when another has finished, or cancel one.',
      'ACTIVE_CRAWL_LIMIT',
    );
  }
}
