// A page fetched over HTTP through the proxy pools: the router picks the proxy for
// the page's host; a proxy that fails is benched and the fetch tried through
// another; under `proxy: auto` an answer that looks blocked moves the host a tier
// up and the page is fetched again there, until a tier answers or none is left
// (then the last answer is returned as it is).
import { FetchTimeoutError, type GuardedFetchResult } from '../guarded-fetch.ts';
import type { Upstream } from '../guard-proxy/endpoints.ts';
import { blockedAnswer } from './blocked-answer.ts';
import type { ProxyRoute, ProxyRouter } from './proxy-router.ts';
import { ProxyFailureError } from './upstream-tunnel.ts';

/** Fetches through each proxy tried and tier climbed, in all. */
export const MAX_POOLED_ATTEMPTS = 4;

export async function fetchThroughPools(
  router: ProxyRouter,
  route: ProxyRoute,
  url: string,
  fetchVia: (proxy: Upstream | undefined) => Promise<GuardedFetchResult>,
): Promise<GuardedFetchResult> {
  const host = new URL(url).hostname;
  const tried = new Set<string>();
  let last: GuardedFetchResult | undefined;
  let failure: Error | undefined;
  for (let attempt = 0; attempt < MAX_POOLED_ATTEMPTS; attempt++) {
    const proxy = router.pick(route, host, tried);
    if (!proxy) break;
    tried.add(proxy.id);
    let res: GuardedFetchResult;
    try {
      res = await fetchVia(proxy.upstream);
    } catch (err) {
      if (err instanceof ProxyFailureError) {
        router.failed(proxy, err.message);
        failure = err;
        continue;
      }
      // The page's whole time went by: benched, but not tried again past the caller's timeout.
      if (err instanceof FetchTimeoutError) router.failed(proxy, `timed out after ${err.timeoutMs} ms`);
      throw err;
    }
    last = res;
    const blocked = blockedAnswer(res.status, res.body);
    if (!blocked || !router.blocked(route, host, proxy)) return res;
  }
  if (last) return last;
  if (!router.configured) return fetchVia(undefined);
  throw failure ?? new Error(`No proxy could carry the request to ${host}`);
}
