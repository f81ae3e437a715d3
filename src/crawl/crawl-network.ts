// The crawler's way out to the web, one per worker process: the address policy,
// guarded fetches for robots.txt, sitemaps and files, and the guard proxy
// Chromium goes through. The proxy runs only when it has work: when private
// addresses are refused or an upstream proxy is configured.
import type { Config } from '../config.ts';
import type { AddressPolicy } from '../net/address-policy.ts';
import { startGuardProxy, type GuardProxy } from '../net/guard-proxy.ts';
import { guardedFetch } from '../net/guarded-fetch.ts';
import type { FetchResource } from './fetch-text.ts';
import { DEFAULT_USER_AGENTS } from '../scrape/page-context.ts';

export interface CrawlNetwork {
  policy: AddressPolicy;
  userAgents: { desktop: string; mobile: string };
  /** GET outside the browser (robots.txt, sitemaps, files), every hop checked. */
  fetch: FetchResource;
  /** The --proxy-server for Chromium, or undefined when the browser connects directly. */
  proxyServer(): Promise<string | undefined>;
  explainFailure(url: string): string | undefined;
  close(): Promise<void>;
}

const RESOURCE_TIMEOUT_MS = 30_000;
const RESOURCE_MAX_BYTES = 50 * 1024 * 1024;

export function createCrawlNetwork(config: Config): CrawlNetwork {
  const policy: AddressPolicy = { allowPrivate: config.crawl.allowPrivateAddresses, allowlist: config.crawl.privateAddressAllowlist };
  const userAgents = {
    desktop: config.crawl.userAgent ?? DEFAULT_USER_AGENTS.desktop,
    mobile: config.crawl.mobileUserAgent ?? DEFAULT_USER_AGENTS.mobile,
  };
  const needsProxy = !policy.allowPrivate || config.crawl.proxyUrl !== undefined;
  let proxy: Promise<GuardProxy> | undefined;
  let started: GuardProxy | undefined;

  return {
    policy,
    userAgents,
    fetch: (url) => guardedFetch(url, { policy, userAgent: userAgents.desktop, timeoutMs: RESOURCE_TIMEOUT_MS, maxBytes: RESOURCE_MAX_BYTES }),
    async proxyServer() {
      if (!needsProxy) return undefined;
      proxy ??= startGuardProxy({ policy, upstream: config.crawl.proxyUrl }).then((p) => (started = p));
      return (await proxy).url;
    },
    explainFailure: (url) => started?.blockedReason(url),
    async close() {
      if (proxy) await (await proxy).close();
    },
  };
}
