// Starting a crawl (POST /v2/crawl and POST /v1/crawl after validation): the crawl's own
// checks (team permissions, selectors, URL length, start and webhook addresses), then the
// job is committed like any other kind.
import type { Team } from '../generated/prisma/client.ts';
import type { CrawlSettings } from './config.ts';
import { DomainError } from '../platform/domain-error.ts';
import { checkAddress, checkSelectors, checkTeamPermissions, checkThreatProtection, commitJob, type JobDeps } from './commit-job.ts';
import type { JobOptions } from './crawl-request.ts';
import { canonicalUrl, urlKey } from './frontier/normalize-url.ts';
import { isTooLong, tooLongReason } from './frontier/url-length.ts';

/** The start URL becomes the crawl's first frontier row, so it is held to the same length limit as every URL found later. */
function checkUrlLength(req: JobOptions, config: { crawl: Pick<CrawlSettings, 'maxUrlLength'> }): void {
  const norm = { ignoreQueryParameters: req.ignoreQueryParameters };
  const start = { url: canonicalUrl(req.url, norm), urlKey: urlKey(req.url, norm) };
  if (isTooLong(start, config.crawl.maxUrlLength)) throw new DomainError('invalid', `The URL ${tooLongReason(start, config.crawl.maxUrlLength)}`);
}

export async function startCrawl(deps: JobDeps, team: Team, apiKeyId: string, req: JobOptions): Promise<string> {
  checkTeamPermissions(team, req);
  checkSelectors(req.scrapeOptions);
  checkUrlLength(req, deps.config);
  checkThreatProtection(req.url, req.scrapeOptions);
  await checkAddress(req.url, deps.config, `Refused to crawl ${req.url}`);
  // Webhook deliveries go through the same guard; refusing now beats failing every delivery later.
  if (req.webhook) await checkAddress(req.webhook.url, deps.config, `Refused to deliver webhooks to ${req.webhook.url}`);
  return (await commitJob(deps, team, apiKeyId, { kind: 'crawl', url: req.url, options: req })).id;
}
