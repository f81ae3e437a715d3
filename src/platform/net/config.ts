// The crawl settings that shape every outbound request (outbound-network.ts, service-endpoints.ts):
// part of the `crawl` section, which src/jobs/config.ts completes.
import { readFileSync } from 'node:fs';
import { parseAllowlist } from './address-policy.ts';
import { parseProxyPools, type ProxyPools } from './proxy-pools/pools-file.ts';
import { bool, endpoints, positiveInt, str } from '../config/env.ts';

/** PROXY_POOLS_FILE's JSON, or PROXY_POOLS inline (not both), with CRAWL_PROXY_URL as the base tier's "default" pool. */
function proxyPoolsConfig(): ProxyPools {
  const file = str('PROXY_POOLS_FILE');
  const inline = str('PROXY_POOLS');
  if (file !== undefined && inline !== undefined) throw new Error('Set PROXY_POOLS_FILE or PROXY_POOLS, not both');
  let text = inline;
  if (file !== undefined) {
    try {
      text = readFileSync(file, 'utf8');
    } catch (err) {
      throw new Error(`PROXY_POOLS_FILE names ${file}, which cannot be read: ${(err as Error).message}`, { cause: err });
    }
  }
  return parseProxyPools(text, file !== undefined ? `PROXY_POOLS_FILE (${file})` : 'PROXY_POOLS', str('CRAWL_PROXY_URL'));
}

export function crawlNetworkConfig() {
  return {
    /** Off by default: crawl targets on loopback/private/link-local/metadata addresses are refused. */
    allowPrivateAddresses: bool('CRAWL_ALLOW_PRIVATE_ADDRESSES', false),
    /** IPs or CIDRs allowed even though private (e.g. an intranet host). */
    privateAddressAllowlist: parseAllowlist(str('CRAWL_PRIVATE_ADDRESS_ALLOWLIST')),
    /** More listeners of this deployment that crawls and webhooks never reach, besides those the settings name. */
    refusedEndpoints: endpoints('CRAWL_REFUSED_ENDPOINTS'),
    /** Upstream proxies for crawl traffic (HTTP fetches of pages and Chromium); none by default: direct connections. */
    proxyPools: proxyPoolsConfig(),
    /** How long a proxy that failed (connect error, 407, timeout) is left out of its pool. */
    proxyBenchMs: positiveInt('PROXY_BENCH_MS', 60_000),
    /** How long the tier proxy auto learned for a host is shared with the other workers after its last raise. */
    proxyTierShareMs: positiveInt('PROXY_TIER_SHARE_MS', 86_400_000),
    userAgent: str('CRAWL_USER_AGENT'),
    mobileUserAgent: str('CRAWL_MOBILE_USER_AGENT'),
  };
}

export type CrawlNetworkSettings = ReturnType<typeof crawlNetworkConfig>;
