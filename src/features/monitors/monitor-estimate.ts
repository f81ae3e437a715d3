// estimatedCreditsPerMonth: the pages a check loads (a scrape target's URLs, a crawl
// target's page limit) times what one page costs with the target's formats, plus a
// search target's queries at its maxResults, times
// the checks the schedule runs in an average month. An upper bound: a crawl that
// finds fewer pages than its limit costs less, and product and menu are counted as
// if their pages needed a model.
import { pageCredits } from '../../platform/usage/credits.ts';
import { mostFormatCredits } from '../../page/formats/format-costs.ts';
import { targetJob } from './target-jobs.ts';
import { targetSchema } from './monitor-request.ts';
import { searchTargetCredits, type SearchTarget } from './search-targets.ts';

/** Credits one check costs at most. */
export function creditsPerCheck(targets: unknown[], monitorId: string): number {
  let credits = 0;
  for (const target of targets) {
    const job = targetJob(target, monitorId);
    if (!job) {
      credits += searchTargetCredits(targetSchema.parse(target) as SearchTarget);
      continue;
    }
    const so = job.options.scrapeOptions;
    const perPage = pageCredits({ zeroDataRetention: false, formatCredits: mostFormatCredits(so.formats) });
    credits += perPage * (job.urls ? job.urls.length : job.options.limit);
  }
  return credits;
}

export function estimatedCreditsPerMonth(runsPerYear: number, perCheck: number): number {
  return Math.ceil((runsPerYear / 12) * perCheck);
}
