// The mixed load: per team, crawls of a static, a script-rendered and a slow
// site, and spread over the teams a batch scrape, single scrapes, a browser
// session with executes, and searches (one with scrapeOptions). Each job checks
// its own answers through the API and says what it must have stored and cost,
// so the acceptance test can hold the database to it and the benches can time it
// (bench:load) or run its kinds for an hour (bench:soak).
import { searchCredits } from '../../src/platform/usage/credits.ts';
import { sessionCredits } from '../../src/features/browser-sessions/shared/session-credits.ts';
import { waitFor } from './wait-for.ts';
import { startWebhookReceiver, type ReceivedDelivery, type WebhookReceiver } from './webhook-receiver.ts';
import type { CrawlTarget, TeamSites } from './mixed-load-sites.ts';

/** Concurrency limits of the three teams that load the service at once. */
export const TEAM_LIMITS = [2, 4, 8] as const;

export type Api = (path: string, init?: { method?: string; json?: unknown }) => Promise<{ status: number; body: any }>;

export interface StoredPages {
  /** A job of the crawl pipeline (crawl, batch scrape, scrape). */
  jobId: string;
  urls: string[];
}

export interface JobOutcome {
  stored: StoredPages[];
  credits: number;
}

export interface MixedJob {
  name: string;
  /** Runs the job against its team's sites to its end, or throws saying how it did not end as it must. */
  run(api: Api, sites: TeamSites, deadline: number): Promise<JobOutcome>;
}

const POLL_MS = 250;

export function ok<T extends { status: number; body: any }>(what: string, res: T): T['body'] {
  if (res.status !== 200) throw new Error(`${what}: HTTP ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

const sameSet = (a: string[], b: string[]) => a.length === b.length && [...a].sort().join('\n') === [...b].sort().join('\n');

/** Polls a crawl's or batch's status every `pollMs` until it leaves `scraping`; then reads all of its documents. */
export async function ended(api: Api, statusPath: string, deadline: number, pollMs = POLL_MS): Promise<any> {
  let last: any;
  const hasEnded = async () => (last = ok(statusPath, await api(`${statusPath}?limit=1`))).status !== 'scraping';
  await waitFor(`${statusPath} to end`, hasEnded, Math.max(0, deadline - Date.now()), pollMs).catch((err: Error) => {
    throw new Error(`${err.message}: ${last?.completed} of ${last?.total} pages stored so far`);
  });
  return ok(statusPath, await api(`${statusPath}?limit=1000`));
}

/** A crawl or batch must complete with exactly the expected pages, each once, at exactly the expected credits. */
export function checkEnded(what: string, body: any, urls: string[], credits: number, mustContain?: string): void {
  const got = body.data.map((d: any) => d.metadata.sourceURL as string);
  if (body.status !== 'completed' || body.completed !== urls.length || !sameSet(got, urls)) {
    throw new Error(
      `${what} ended ${body.status} with ${body.completed} of ${urls.length} pages; missing ${urls.filter((u) => !got.includes(u)).join(', ') || 'none'}; stored ${got.length}`,
    );
  }
  if (body.creditsUsed !== credits) throw new Error(`${what} used ${body.creditsUsed} credits, expected ${credits}`);
  const unrendered = mustContain ? body.data.filter((d: any) => !d.markdown?.includes(mustContain)).map((d: any) => d.metadata.sourceURL) : [];
  if (unrendered.length > 0) throw new Error(`${what}: pages without their script-written text: ${unrendered.join(', ')}`);
}

/** Pages that go over HTTP alone are fetched exactly once; no crawl leaves its host. */
function checkFetched(what: string, target: CrawlTarget, external: TeamSites['external']): void {
  const twice = target.fetchedOnce ? target.paths.filter((p) => target.site.hits.get(p) !== 1) : [];
  if (twice.length > 0) throw new Error(`${what}: pages not fetched exactly once: ${twice.map((p) => `${p} ${target.site.hits.get(p) ?? 0}x`).join(', ')}`);
  if (external.hits.size > 0) throw new Error(`${what} left its host: ${[...external.hits.keys()].join(', ')}`);
}

/**
 * Once the crawl's final event has arrived (it is sent after every other): exactly one
 * crawl.started, one crawl.page per page (each page once) and one crawl.completed, each sent once.
 */
async function checkWebhooks(
  what: string,
  receiver: WebhookReceiver,
  crawlId: string,
  urls: string[],
  deadline: number,
  { redeliveries = false } = {},
): Promise<void> {
  const mine = () => receiver.deliveries.filter((d) => d.payload.id === crawlId);
  const final = (d: ReceivedDelivery) => d.payload.type === 'crawl.completed' || d.payload.type === 'crawl.failed';
  await waitFor(`${what}'s final webhook`, () => mine().some(final), Math.max(0, deadline - Date.now()), POLL_MS);
  const all = mine();
  const ids = all.map((d) => d.payload.webhookId);
  if (!redeliveries && new Set(ids).size !== ids.length) throw new Error(`${what}: ${ids.length - new Set(ids).size} webhook(s) delivered more than once`);
  // A redelivery is told by its webhookId: the events are the first delivery of each.
  const events = all.filter((d, i) => ids.indexOf(d.payload.webhookId) === i);
  const count = (type: string) => events.filter((d) => d.payload.type === type).length;
  const pages = events.filter((d) => d.payload.type === 'crawl.page').map((d) => (d.payload.data[0] as { metadata: { sourceURL: string } }).metadata.sourceURL);
  if (count('crawl.started') !== 1 || count('crawl.completed') !== 1 || count('crawl.failed') !== 0 || !sameSet(pages, urls)) {
    throw new Error(
      `${what}: webhooks ${JSON.stringify(events.map((d) => d.payload.type))}; crawl.page for ${pages.length} pages, expected ${urls.length} (missing ${urls.filter((u) => !pages.includes(u)).join(', ') || 'none'})`,
    );
  }
}

/**
 * `webhook`: the crawl sends its events to a receiver of its own, and every one must arrive once.
 * `throughFaults`: the crawl runs through a dependency fault, so a page may be fetched again (its batch retried; the
 * site's hits say how often) and an event delivered again under its own webhookId (its delivery's record lost), which
 * a receiver tells by that id: each event must still arrive, under one webhookId.
 */
export function crawlJob(name: string, targetOf: (sites: TeamSites) => CrawlTarget, { webhook = false, throughFaults = false } = {}): MixedJob {
  return {
    name,
    async run(api, sites, deadline) {
      const target = targetOf(sites);
      const urls = target.paths.map((p) => `${target.site.url}${p}`);
      const receiver = webhook ? await startWebhookReceiver() : undefined;
      try {
        const json = { url: `${target.site.url}/`, limit: 100, ...(receiver && { webhook: receiver.url }) };
        const { id } = ok(name, await api('/v2/crawl', { method: 'POST', json }));
        checkEnded(`${name} ${id}`, await ended(api, `/v2/crawl/${id}`, deadline), urls, target.credits, target.mustContain);
        if (!throughFaults) checkFetched(`${name} ${id}`, target, sites.external);
        if (receiver) await checkWebhooks(`${name} ${id}`, receiver, id, urls, deadline, { redeliveries: throughFaults });
        return { stored: [{ jobId: id, urls }], credits: target.credits };
      } finally {
        await receiver?.close();
      }
    },
  };
}

/** `pollMs`: how often its status is polled (bench:scale's hundreds of batches poll less often). */
export function batchJob(name: string, { pollMs = POLL_MS } = {}): MixedJob {
  return {
    name,
    async run(api, sites, deadline) {
      const urls = [1, 2, 3, 4, 5, 6].map((i) => `${sites.scrape.url}/item/${i}`);
      const { id } = ok(name, await api('/v2/batch/scrape', { method: 'POST', json: { urls, formats: ['markdown'] } }));
      checkEnded(`${name} ${id}`, await ended(api, `/v2/batch/scrape/${id}`, deadline, pollMs), urls, urls.length);
      return { stored: [{ jobId: id, urls }], credits: urls.length };
    },
  };
}

/** POST /v2/scrape answers once the page is stored; its timeout is the deadline, so a stuck scrape is a 408. */
export async function scrape(api: Api, url: string, deadline: number): Promise<StoredPages> {
  const res = await api('/v2/scrape', {
    method: 'POST',
    json: { url, formats: ['markdown'], timeout: Math.min(300_000, Math.max(1000, deadline - Date.now())) },
  });
  const doc = ok(`scrape of ${url}`, res).data;
  if (doc.metadata.statusCode !== 200 || !doc.markdown) throw new Error(`scrape of ${url}: ${JSON.stringify(doc.metadata)}`);
  return { jobId: doc.metadata.scrapeId, urls: [url] };
}

export function scrapesJob(name: string): MixedJob {
  return {
    name,
    async run(api, sites, deadline) {
      const stored = await Promise.all([6, 7, 8].map((i) => scrape(api, `${sites.scrape.url}/item/${i}`, deadline)));
      return { stored, credits: stored.length };
    },
  };
}

/**
 * Scrapes the notes, then searches for their word: the local index holds exactly
 * what the team stored, so the results are those notes (the web, and with
 * `images` their pictures), whatever else runs. With scrapeOptions each result
 * is scraped again as a page of its own (1 credit each, from the team's cache).
 */
export function searchJob(name: string, request: { sources?: string[]; scrapeOptions?: { formats: string[] } }): MixedJob {
  return {
    name,
    async run(api, sites, deadline) {
      const notes = [1, 2].map((i) => `${sites.scrape.url}/note/${i}`);
      const stored = await Promise.all(notes.map((url) => scrape(api, url, deadline)));
      const body = ok(
        name,
        await api('/v2/search', { method: 'POST', json: { query: sites.noteWord, limit: 5, timeout: Math.max(1000, deadline - Date.now()), ...request } }),
      );
      const web = (body.data.web ?? []) as any[];
      const images = (body.data.images ?? []) as any[];
      if (
        !sameSet(
          web.map((r) => r.url),
          notes,
        )
      )
        throw new Error(`${name}: web results ${JSON.stringify(web.map((r) => r.url))}, expected the notes`);
      if (request.sources?.includes('images') && images.length !== notes.length)
        throw new Error(`${name}: ${images.length} image results, expected ${notes.length}`);
      const scraped = request.scrapeOptions ? web.length : 0;
      if (request.scrapeOptions && !web.every((r) => r.metadata?.statusCode === 200 && r.markdown?.includes(sites.noteWord))) {
        throw new Error(`${name}: results not scraped: ${JSON.stringify(web.map((r) => r.metadata))}`);
      }
      const credits = searchCredits(web.length + images.length, false) + scraped;
      if (body.creditsUsed !== credits) throw new Error(`${name}: creditsUsed ${body.creditsUsed}, expected ${credits}`);
      return { stored, credits: stored.length + credits };
    },
  };
}

export function sessionJob(name: string): MixedJob {
  return {
    name,
    async run(api, sites) {
      const session = ok(name, await api('/v2/browser', { method: 'POST', json: { ttl: 300, activityTtl: 120 } }));
      for (const i of [1, 2]) {
        const code = `await page.goto(${JSON.stringify(`${sites.scrape.url}/item/${i}`)}); await page.title()`;
        const exec = ok(`${name} execute ${i}`, await api(`/v2/browser/${session.id}/execute`, { method: 'POST', json: { code } }));
        if (exec.result !== `Item ${i}` || exec.error !== null) throw new Error(`${name} execute ${i}: ${JSON.stringify(exec)}`);
      }
      const end = ok(`${name} delete`, await api(`/v2/browser/${session.id}`, { method: 'DELETE' }));
      if (end.creditsBilled !== sessionCredits(end.sessionDurationMs)) throw new Error(`${name}: billed ${end.creditsBilled} for ${end.sessionDurationMs} ms`);
      return { stored: [], credits: end.creditsBilled };
    },
  };
}

/** The jobs of the team with limit TEAM_LIMITS[team]; every team crawls its three sites. */
export function jobsOfTeam(team: number): MixedJob[] {
  const prefix = `team(limit ${TEAM_LIMITS[team]})`;
  const crawls = [
    crawlJob(`${prefix} crawl of the static site`, (s) => s.static),
    crawlJob(`${prefix} crawl of the scripted site`, (s) => s.scripted),
    crawlJob(`${prefix} crawl of the slow site`, (s) => s.slow),
  ];
  const extras = [
    [scrapesJob(`${prefix} single scrapes`), searchJob(`${prefix} search`, {})],
    [batchJob(`${prefix} batch scrape`), searchJob(`${prefix} search with scrapeOptions`, { scrapeOptions: { formats: ['markdown'] } })],
    [sessionJob(`${prefix} browser session`), searchJob(`${prefix} search of web and images`, { sources: ['web', 'images'] })],
  ][team]!;
  return [...crawls, ...extras];
}
