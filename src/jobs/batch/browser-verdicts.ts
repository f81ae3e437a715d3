// What a page Chromium loaded is, decided before it is stored: a throttled answer
// (429, 503) is never the page (browser-turns.ts: loaded again after its host's
// pause, or failed); under `proxy: auto`, an answer that looks blocked moves its
// host a tier up and the page is loaded again in its batch, through that tier,
// up to MAX_POOLED_ATTEMPTS loads, as the HTTP path fetches it again; once no
// tier is left above, the page fails as blocked rather than being stored as the
// refusal. Explicit modes never climb: their blocked answer is stored as answered.
import { blockedAnswer } from '../../platform/net/proxy-pools/blocked-answer.ts';
import { MAX_POOLED_ATTEMPTS } from '../../platform/net/proxy-pools/pooled-fetch.ts';
import type { ProxyRoute, ProxyRouter } from '../../platform/net/proxy-pools/proxy-router.ts';
import type { FetchedPage } from '../../page/browser-scraper.ts';
import type { BrowserTurns } from '../politeness/browser-turns.ts';

export type BrowserVerdict = { kind: 'page' } | { kind: 'again' } | { kind: 'returned' } | { kind: 'failed'; error: string };

/** A page's failure once `proxy: auto` found no tier its host lets it through. */
export function blockedFailure(why: string, loads: number, tierLeft: boolean): string {
  const end = tierLeft ? `the most loads a page gets (${MAX_POOLED_ATTEMPTS})` : 'no higher proxy tier is left';
  return `Blocked by the site at every proxy tier tried: it answered with ${why} (loaded ${loads} times, a tier higher each time, until ${end}; proxy auto)`;
}

export interface VerdictDeps {
  turns: BrowserTurns;
  router: ProxyRouter;
  route: ProxyRoute;
}

/** One per browser batch: it counts the loads of each of its pages that came back blocked. */
export function browserVerdicts(d: VerdictDeps): (page: FetchedPage) => Promise<BrowserVerdict> {
  const blockedLoads = new Map<string, number>();
  return async (page) => {
    const throttled = await d.turns.answered(page.target, { status: page.statusCode, loadMs: page.loadMs, retryAfter: page.retryAfter });
    if (throttled === 'retry') return { kind: 'returned' };
    if (throttled === 'again') return { kind: 'again' };
    if (throttled) return { kind: 'failed', error: throttled.failed };
    if (!d.router.configured) return { kind: 'page' };
    const why = blockedAnswer(page.statusCode, page.rawHtml);
    if (!why) return { kind: 'page' };
    // Under an explicit mode the host only changes proxy for its next pages; under auto it climbs a tier.
    const climbed = d.router.blockedHost(d.route, new URL(page.finalUrl).hostname);
    if (d.route.mode !== 'auto') return { kind: 'page' };
    const loads = (blockedLoads.get(page.target.key) ?? 0) + 1;
    blockedLoads.set(page.target.key, loads);
    if (climbed && loads < MAX_POOLED_ATTEMPTS) return { kind: 'again' };
    return { kind: 'failed', error: blockedFailure(why, loads, climbed) };
  };
}
