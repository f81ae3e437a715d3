// The crawler's way out to the web, one per worker process: the address policy,
// guarded fetches for robots.txt, sitemaps and files, and the guard proxies
// Chromium goes through (one, and one more that also refuses given hosts, for
// blockAds). The proxy always runs, even with
// CRAWL_ALLOW_PRIVATE_ADDRESSES=true: the service's own listeners are refused
// in every mode, and Chromium never connects to anything directly.
import type { CrawlNetworkSettings } from './config.ts';
import type { AddressPolicy } from './address-policy.ts';
import { addressPolicyOf, type EndpointSettings } from './service-endpoints.ts';
import { startGuardProxy, type GuardProxy, type GuardProxyOptions } from './guard-proxy.ts';
import { guardedFetch, keepAliveAgents, type GuardedFetchResult } from './guarded-fetch.ts';
import type { FetchResource } from './fetch-resource.ts';
import { DEFAULT_USER_AGENTS, PRODUCT_TOKEN } from './user-agents.ts';

export interface CrawlNetwork {
  policy: AddressPolicy;
  userAgents: { desktop: string; mobile: string };
  /** GET outside the browser (robots.txt, sitemaps), every hop checked; bodies up to 50 MB, the sitemap protocol's cap. */
  fetch: FetchResource;
  /** The same for files (PDFs, downloads), bodies up to CRAWL_MAX_FILE_BYTES (beyond: ResponseTooLargeError). */
  fetchFile: FetchResource;
  /** The same, sending another User-Agent (robots.txt with robotsUserAgent). */
  fetchAs(userAgent: string): FetchResource;
  /** A page over HTTP (CRAWL_RENDERING=auto), with the crawl's headers, bodies up to CRAWL_MAX_PAGE_BYTES. */
  fetchPage(
    url: string,
    opts: { headers?: Record<string, string>; timeoutMs: number; insecureTls?: boolean; signal?: AbortSignal },
  ): Promise<GuardedFetchResult>;
  /** The first CRAWL_IMAGE_PROBE_BYTES of an image (a Range request, cut off there whatever the answer). */
  fetchImageHead(
    url: string,
    opts: { headers?: Record<string, string>; timeoutMs: number; insecureTls?: boolean; signal?: AbortSignal },
  ): Promise<GuardedFetchResult>;
  /**
   * The --proxy-server for Chromium (the guard proxy, started on first use). With `refusedHosts`,
   * a guard proxy of its own that also refuses those hosts (blockAds' ad and tracker hosts).
   */
  proxyServer(opts?: { refusedHosts?: RefusedHosts }): Promise<string>;
  /** Why a guard proxy refused or could not reach `url`: the one at `proxyServer` when given, else any. */
  explainFailure(url: string, proxyServer?: string): string | undefined;
  close(): Promise<void>;
}

export type RefusedHosts = NonNullable<GuardProxyOptions['refusedHosts']>;

const RESOURCE_TIMEOUT_MS = 30_000;
const SITE_FILE_MAX_BYTES = 50 * 1024 * 1024;

/** What the crawl network reads: the deployment's listeners and the crawl's network settings and size limits. */
export type CrawlNetworkConfig = EndpointSettings & {
  crawl: CrawlNetworkSettings & { maxFileBytes: number; maxPageBytes: number; imageProbeBytes: number };
};

export function createCrawlNetwork(config: CrawlNetworkConfig): CrawlNetwork {
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
  if (config.crawl.proxyUrl !== undefined && !/^http:\/\/[^/]+/.test(config.crawl.proxyUrl)) {
    throw new Error(`CRAWL_PROXY_URL must be an http:// proxy URL (http://user:pass@host:port), got "${config.crawl.proxyUrl}"`);
  }
  const fetchUpTo =
    (maxBytes: number, userAgent: string): FetchResource =>
    (url) =>
      guardedFetch(url, { policy, userAgent, timeoutMs: RESOURCE_TIMEOUT_MS, maxBytes });
  const fetchAs = (userAgent: string) => fetchUpTo(SITE_FILE_MAX_BYTES, userAgent);
  // Pages are fetched one after another from the same few hosts: their connections are kept open.
  const pageAgents = keepAliveAgents();
  // One guard proxy per list of refused hosts (none, blockAds' list): a handful at most.
  const proxies = new Map<string, Promise<GuardProxy>>();
  const started = new Map<string, GuardProxy>();

  return {
    policy,
    userAgents,
    fetch: fetchAs(userAgents.desktop),
    fetchFile: fetchUpTo(config.crawl.maxFileBytes, userAgents.desktop),
    fetchAs,
    fetchPage: (url, opts) => guardedFetch(url, { policy, userAgent: userAgents.desktop, maxBytes: config.crawl.maxPageBytes, agents: pageAgents, ...opts }),
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
    async proxyServer({ refusedHosts } = {}) {
      const key = JSON.stringify(refusedHosts ?? null);
      let proxy = proxies.get(key);
      if (!proxy) {
        proxy = startGuardProxy({ policy, upstream: config.crawl.proxyUrl, refusedHosts }).then(
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
    explainFailure: (url, proxyServer) => {
      for (const p of proxyServer === undefined ? started.values() : [started.get(proxyServer)]) {
        const why = p?.blockedReason(url) ?? p?.failureReason(url);
        if (why) return why;
      }
      return undefined;
    },
    async close() {
      pageAgents.http.destroy();
      pageAgents.https.destroy();
      await Promise.all([...proxies.values()].map(async (p) => (await p).close()));
    },
  };
}
