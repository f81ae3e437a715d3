// The crawler's way out to the web, one per worker process: the address policy,
// guarded fetches for robots.txt, sitemaps and files, and the guard proxies
// Chromium goes through (one, and one more that also refuses given hosts, for
// blockAds). The proxy always runs, even with
// CRAWL_ALLOW_PRIVATE_ADDRESSES=true: the service's own listeners are refused
// in every mode, and Chromium never connects to anything directly.
import type { CrawlNetworkSettings } from './config.ts';
import type { AddressPolicy } from './address-policy.ts';
import { addressPolicyOf, type EndpointSettings } from './service-endpoints.ts';
import { startGuardProxy, type GuardProxy, type GuardProxyOptions, type UpstreamRoute } from './guard-proxy.ts';
import { guardedFetch, keepAliveAgents, type GuardedFetchResult } from './guarded-fetch.ts';
import type { FetchResource } from './fetch-resource.ts';
import { DEFAULT_USER_AGENTS, PRODUCT_TOKEN } from './user-agents.ts';
import type { Logger } from '../log.ts';
import { ProxyRouter, type ProxyRoute } from './proxy-pools/proxy-router.ts';
import { fetchThroughPools } from './proxy-pools/pooled-fetch.ts';

export interface CrawlNetwork {
  policy: AddressPolicy;
  userAgents: { desktop: string; mobile: string };
  /** GET outside the browser (robots.txt, sitemaps), every hop checked; bodies up to 50 MB, the sitemap protocol's cap. */
  fetch: FetchResource;
  /**
   * The same for files (PDFs, downloads), bodies up to CRAWL_MAX_FILE_BYTES (beyond: ResponseTooLargeError),
   * through the proxy pools as a page with that `proxy` route is.
   */
  fetchFile(url: string, proxy?: ProxyRoute): ReturnType<FetchResource>;
  /** The same, sending another User-Agent (robots.txt with robotsUserAgent). */
  fetchAs(userAgent: string): FetchResource;
  /**
   * A page over HTTP (CRAWL_RENDERING=auto), with the crawl's headers, bodies up to CRAWL_MAX_PAGE_BYTES,
   * through the proxy pools (`proxy`: the request's mode and country) when any is configured.
   */
  fetchPage(
    url: string,
    opts: { headers?: Record<string, string>; timeoutMs: number; insecureTls?: boolean; signal?: AbortSignal; proxy?: ProxyRoute },
  ): Promise<GuardedFetchResult>;
  /** The first CRAWL_IMAGE_PROBE_BYTES of an image (a Range request, cut off there whatever the answer). */
  fetchImageHead(
    url: string,
    opts: { headers?: Record<string, string>; timeoutMs: number; insecureTls?: boolean; signal?: AbortSignal },
  ): Promise<GuardedFetchResult>;
  /**
   * The --proxy-server for Chromium (the guard proxy, started on first use). With `refusedHosts`,
   * a guard proxy of its own that also refuses those hosts (blockAds' ad and tracker hosts). With
   * pools configured, one per `proxy` route (mode and country; `basic` when not given) too, which
   * sends each request through the proxy the router picks for its host.
   */
  proxyServer(opts?: { refusedHosts?: RefusedHosts; proxy?: ProxyRoute }): Promise<string>;
  /** Which proxy each host goes through (nothing configured: every request goes directly). */
  proxies: ProxyRouter;
  /** Why a guard proxy refused or could not reach `url`: the one at `proxyServer` when given, else any. */
  explainFailure(url: string, proxyServer?: string): string | undefined;
  close(): Promise<void>;
}

export type RefusedHosts = NonNullable<GuardProxyOptions['refusedHosts']>;

/** The guard proxy's per-request choice for one route: the router's pick, failures benched. */
function pickFor(router: ProxyRouter, route: ProxyRoute): UpstreamRoute {
  return (hostname, tried) => {
    const entry = router.pick(route, hostname, tried);
    return entry && { id: entry.id, upstream: entry.upstream, failed: (why) => router.failed(entry, why) };
  };
}

const RESOURCE_TIMEOUT_MS = 30_000;
const SITE_FILE_MAX_BYTES = 50 * 1024 * 1024;

/** What the crawl network reads: the deployment's listeners and the crawl's network settings and size limits. */
export type CrawlNetworkConfig = EndpointSettings & {
  crawl: CrawlNetworkSettings & { maxFileBytes: number; maxPageBytes: number; imageProbeBytes: number };
};

export function createCrawlNetwork(config: CrawlNetworkConfig, log?: Logger): CrawlNetwork {
  const policy: AddressPolicy = addressPolicyOf(config);
  const userAgents = {
    desktop: config.crawl.userAgent ?? DEFAULT_USER_AGENTS.desktop,
    mobile: config.crawl.mobileUserAgent ?? DEFAULT_USER_AGENTS.mobile,
  };
  // Checked here, at worker start-up, so a bad setting stops the worker instead of failing every batch.
  for (const [name, ua] of [
    ['CRAWL_USER_AGENT', userAgents.desktop],
    ['CRAWL_MOBILE_USER_AGENT', userAgents.mobile],
  ]) {
    if (!ua.includes(PRODUCT_TOKEN)) throw new Error(`${name} must contain ${PRODUCT_TOKEN}, the token robots.txt rules and site owners know the crawler by`);
  }
  const router = new ProxyRouter(config.crawl.proxyPools, { benchMs: config.crawl.proxyBenchMs, log });
  // Country tags are the only part of a route that selects anything beyond the mode when some pool has them.
  const routeOf = (route: ProxyRoute | undefined): ProxyRoute | undefined =>
    router.configured
      ? { mode: route?.mode ?? 'basic', ...(route?.country && router.pools.countries.size && { country: route.country.toUpperCase() }) }
      : undefined;
  const fetchUpTo =
    (maxBytes: number, userAgent: string): FetchResource =>
    (url) =>
      guardedFetch(url, { policy, userAgent, timeoutMs: RESOURCE_TIMEOUT_MS, maxBytes });
  const fetchAs = (userAgent: string) => fetchUpTo(SITE_FILE_MAX_BYTES, userAgent);
  // Pages are fetched one after another from the same few hosts: their connections are kept open.
  const pageAgents = keepAliveAgents();
  const guards = guardProxies(policy, router, routeOf);

  return {
    policy,
    userAgents,
    fetch: fetchAs(userAgents.desktop),
    fetchFile: (url, route) =>
      fetchThroughPools(router, routeOf(route) ?? { mode: 'basic' }, url, (proxy) =>
        guardedFetch(url, {
          policy,
          userAgent: userAgents.desktop,
          timeoutMs: RESOURCE_TIMEOUT_MS,
          maxBytes: config.crawl.maxFileBytes,
          ...(proxy && { proxy }),
        }),
      ),
    fetchAs,
    fetchPage: (url, { proxy: route, ...opts }) =>
      fetchThroughPools(router, routeOf(route) ?? { mode: 'basic' }, url, (proxy) =>
        // Through a proxy, every fetch opens a connection of its own (the proxy is asked for the checked IP each time).
        guardedFetch(url, {
          policy,
          userAgent: userAgents.desktop,
          maxBytes: config.crawl.maxPageBytes,
          ...(proxy ? { proxy } : { agents: pageAgents }),
          ...opts,
        }),
      ),
    fetchImageHead: (url, { headers, ...opts }) =>
      guardedFetch(url, {
        policy,
        userAgent: userAgents.desktop,
        maxBytes: config.crawl.imageProbeBytes,
        truncate: true,
        // As Chromium asks for an <img>.
        headers: {
          ...headers,
          accept: 'image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8',
          range: `bytes=0-${config.crawl.imageProbeBytes - 1}`,
        },
        ...opts,
      }),
    proxies: router,
    proxyServer: guards.proxyServer,
    explainFailure: guards.explainFailure,
    async close() {
      pageAgents.http.destroy();
      pageAgents.https.destroy();
      await guards.close();
    },
  };
}

/**
 * The guard proxies Chromium goes through, started on first use: one per list of refused hosts
 * (none, blockAds' list) and, with pools, per route (mode and country) in use: a handful at most.
 */
function guardProxies(policy: AddressPolicy, router: ProxyRouter, routeOf: (route: ProxyRoute | undefined) => ProxyRoute | undefined) {
  const proxies = new Map<string, Promise<GuardProxy>>();
  const started = new Map<string, GuardProxy>();
  return {
    async proxyServer({ refusedHosts, proxy: requested }: { refusedHosts?: RefusedHosts; proxy?: ProxyRoute } = {}): Promise<string> {
      const route = routeOf(requested);
      // Checked here, before a listener exists for the route: its requests then always find a proxy.
      if (route) router.checkRoute(route);
      const key = JSON.stringify([refusedHosts ?? null, route ?? null]);
      let proxy = proxies.get(key);
      if (!proxy) {
        proxy = startGuardProxy({ policy, route: route && pickFor(router, route), refusedHosts }).then(
          (p) => (started.set(p.url, p), p),
          (err: unknown) => {
            proxies.delete(key);
            throw err;
          },
        );
        proxies.set(key, proxy);
      }
      return (await proxy).url;
    },
    explainFailure(url: string, proxyServer?: string): string | undefined {
      for (const p of proxyServer === undefined ? started.values() : [started.get(proxyServer)]) {
        const why = p?.blockedReason(url) ?? p?.failureReason(url);
        if (why) return why;
      }
      return undefined;
    },
    async close(): Promise<void> {
      await Promise.all([...proxies.values()].map(async (p) => (await p).close()));
    },
  };
}
