// POST /v2/search after validation: the values that need a Firecrawl cloud service
// refused or named in `warning` (cloud-values.ts), the query as one SearchQuery, every
// provider asked at once within the request's timeout (what answered in time is the
// result, the rest is named in `warning`), the answers merged and threatProtection's
// lists applied, results scraped when scrapeOptions asks for formats, and the search
// charged once.
import { v7 as uuidv7 } from 'uuid';
import type { Team } from '../../generated/prisma/client.ts';
import type { GatewayDeps } from '../../platform/http/app.ts';
import { httpUrl } from '../../platform/http/common-schemas.ts';
import { DomainError } from '../../platform/domain-error.ts';
import { chargeOnce, creditsUsedByJob, searchCredits } from '../../platform/usage/credits.ts';
import { awaitScrape, createScrape, scrapeAnswerOf } from '../../jobs/scrape-job.ts';
import { checkModelFormats } from '../../jobs/job-model.ts';
import type { ScrapeRequest } from '../../page/scrape-request.ts';
import { mergeHits } from './merge.ts';
import { postFilter } from './post-filter.ts';
import type { ProviderHits, SearchProvider } from './provider.ts';
import { searchQueryOf } from './query/search-query-of.ts';
import type { SearchRequest } from './search-request.ts';
import { cloudValues } from './cloud-values.ts';
import { measuredAnswer, measuredSearch, searchKind } from './search-metrics.ts';
import { threatPolicy, threatRefusal, unscannedWarning } from '../../page/threat-policy.ts';
import type { SearchFeatureSettings } from './config.ts';

const ZDR_NOT_ENABLED = 'Zero Data Retention (ZDR) search is not enabled for your team. Contact support@firecrawl.com to enable this feature.';

interface Answered {
  provider: string;
  hits?: ProviderHits;
  error?: string;
}

async function askProviders(providers: SearchProvider[], req: SearchRequest, team: Team, query: ReturnType<typeof searchQueryOf>): Promise<Answered[]> {
  const signal = AbortSignal.timeout(req.timeout);
  const timedOut = new Promise<'timeout'>((resolve) => signal.addEventListener('abort', () => resolve('timeout'), { once: true }));
  return Promise.all(
    providers.map(async (p): Promise<Answered> => {
      try {
        const hits = await measuredAnswer(p.name, Promise.race([p.search(query, { teamId: team.id, signal }), timedOut]));
        if (hits === 'timeout') return { provider: p.name, error: `did not answer within the timeout of ${req.timeout} ms` };
        const filtered = postFilter(p.name, query, hits);
        return { provider: p.name, hits: { ...filtered.hits, warnings: [...hits.warnings, ...filtered.warnings] } };
      } catch (err) {
        return { provider: p.name, error: (err as Error).message };
      }
    }),
  );
}

type Item = { url: string; [key: string]: unknown };

/**
 * With redactPII, a result's title and description are its redacted page's (the provider's are page
 * text that was never redacted); a result whose page failed keeps neither.
 */
function keepRedactedText(item: Item): void {
  const metadata = item.metadata as { title?: unknown; description?: unknown } | undefined;
  for (const field of ['title', 'description'] as const) {
    if (typeof metadata?.[field] === 'string') item[field] = metadata[field];
    else delete item[field];
  }
}

/** Scrapes each result as POST /v2/scrape would, all at once (the team's concurrency limit paces the pages). */
async function scrapeResults(
  deps: GatewayDeps<SearchFeatureSettings>,
  team: Team,
  apiKeyId: string,
  req: SearchRequest,
  items: Item[],
  deadline: number,
  zdr: boolean,
): Promise<string[]> {
  const ids: string[] = [];
  const redacting = req.scrapeOptions?.redactPII !== undefined && req.scrapeOptions.redactPII !== false;
  await Promise.all(
    items.map(async (item) => {
      try {
        const scrapeReq = { ...req.scrapeOptions!, url: item.url, zeroDataRetention: zdr, origin: req.origin, integration: req.integration } as ScrapeRequest;
        const scrape = await createScrape(deps, team, apiKeyId, scrapeReq);
        ids.push(scrape.id);
        await awaitScrape(deps, scrape, Math.max(0, deadline - Date.now()));
        Object.assign(item, await scrapeAnswerOf(deps.db, scrape.id));
        if (redacting) keepRedactedText(item);
      } catch (err) {
        const status = err instanceof DomainError && err.kind === 'timeout' ? 408 : 500;
        item.metadata = { sourceURL: item.url, url: item.url, statusCode: status, error: (err as Error).message };
        if (redacting) keepRedactedText(item);
      }
    }),
  );
  return ids;
}

export interface SearchRun {
  onCreated?(id: string): void;
  /** The search's id (a tool call's), instead of a new one: its charge is made once per id. */
  id?: string;
}

export function runSearch(
  deps: GatewayDeps<SearchFeatureSettings>,
  providers: SearchProvider[],
  team: Team,
  apiKeyId: string,
  req: SearchRequest,
  run: SearchRun = {},
) {
  return measuredSearch(searchKind(req.sources), () => search(deps, providers, team, apiKeyId, req, run));
}

async function search(deps: GatewayDeps<SearchFeatureSettings>, providers: SearchProvider[], team: Team, apiKeyId: string, req: SearchRequest, run: SearchRun) {
  const started = Date.now();
  const { toolsWarning } = cloudValues(req);
  const zdr = req.enterprise?.includes('zdr') ?? false;
  const anon = req.enterprise?.includes('anon') ?? false;
  if ((zdr && !team.flagSearchZdr) || (anon && !team.flagSearchAnon)) throw new DomainError('forbidden', ZDR_NOT_ENABLED, 'FORBIDDEN');
  // Each result's scrape would be refused alike: one clear 400 instead.
  if (team.creditBalance < 1) {
    throw new DomainError(
      'payment-required',
      `Insufficient credits to perform this request: a search needs credits and the team has ${Math.max(0, team.creditBalance)}.`,
      'PAYMENT_REQUIRED',
    );
  }
  // Here and not only per result: a model format the search cannot have is the request's 400, not each result's error.
  if (req.scrapeOptions) checkModelFormats(req.scrapeOptions, zdr, deps.config.llm);
  if (providers.length === 0)
    throw new DomainError('unavailable', 'No search provider is configured (SEARCH_LOCAL is off and SEARXNG_URL is unset).', 'NO_SEARCH_PROVIDER');
  const query = searchQueryOf(req, new Date());
  const id = run.id ?? uuidv7();
  run.onCreated?.(id);

  const answered = await askProviders(providers, req, team, query);
  if (answered.every((a) => a.error)) {
    throw new DomainError('unavailable', `No search provider answered: ${answered.map((a) => `${a.provider}: ${a.error}`).join('; ')}`, 'SEARCH_UNAVAILABLE');
  }
  const warnings: string[] = [];
  for (const a of answered) {
    if (a.error) warnings.push(`${a.provider}: ${a.error}`);
    warnings.push(...(a.hits?.warnings ?? []).map((w) => `${a.provider}: ${w}`));
  }
  const merged = mergeHits(
    answered.flatMap((a) => (a.hits ? [a.hits] : [])),
    req.limit,
  );
  const threat = threatPolicy(req.threatProtection);
  const valid = (url: string) => (!req.ignoreInvalidURLs || httpUrl.safeParse(url).success) && threatRefusal(url, threat) === undefined;
  const unscanned = unscannedWarning(threat);
  if (unscanned) warnings.push(unscanned);
  const data: Record<string, Item[]> = {};
  if (query.sources.includes('web')) data.web = merged.web.filter((h) => valid(h.url)).map(({ date: _d, ...h }) => h);
  if (query.sources.includes('news'))
    data.news = merged.news.filter((h) => valid(h.url)).map(({ date, ...h }) => ({ ...h, ...(date && { date: date.toISOString() }) }));
  if (query.sources.includes('images')) data.images = merged.images.filter((h) => valid(h.url)).map((h) => ({ ...h }));
  if (toolsWarning) {
    data.tools = [];
    warnings.push(toolsWarning);
  }

  let scrapeIds: string[] = [];
  if (req.scrapeOptions && req.scrapeOptions.formats.length > 0) {
    scrapeIds = await scrapeResults(deps, team, apiKeyId, req, [...(data.web ?? []), ...(data.news ?? [])], started + req.timeout, zdr);
  }
  const results = Object.values(data).reduce((n, list) => n + list.length, 0);
  const credits = searchCredits(results, zdr);
  if (credits > 0) await deps.db.$transaction((tx) => chargeOnce(tx, { teamId: team.id, apiKeyId, endpoint: 'search', jobId: id, itemKey: '', credits }));
  const scrapeCredits = (await Promise.all(scrapeIds.map((s) => creditsUsedByJob(deps.db, s)))).reduce((a, b) => a + b, 0);
  return { success: true, data, warning: warnings.length ? warnings.join('; ') : null, id, creditsUsed: credits + scrapeCredits };
}
