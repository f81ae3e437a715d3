// The crawl settings that shape every outbound request (outbound-network.ts, service-endpoints.ts):
// part of the `crawl` section, which src/jobs/config.ts completes.
import { parseAllowlist } from './address-policy.ts';
import { bool, endpoints, str } from '../config/env.ts';

export function crawlNetworkConfig() {
  return {
    /** Off by default: crawl targets on loopback/private/link-local/metadata addresses are refused. */
    allowPrivateAddresses: bool('CRAWL_ALLOW_PRIVATE_ADDRESSES', false),
    /** IPs or CIDRs allowed even though private (e.g. an intranet host). */
    privateAddressAllowlist: parseAllowlist(str('CRAWL_PRIVATE_ADDRESS_ALLOWLIST')),
    /** More listeners of this deployment that crawls and webhooks never reach, besides those the settings name. */
    refusedEndpoints: endpoints('CRAWL_REFUSED_ENDPOINTS'),
    /** Upstream HTTP proxy for every crawl request; none by default (no proxy pool). */
    proxyUrl: str('CRAWL_PROXY_URL'),
    userAgent: str('CRAWL_USER_AGENT'),
    mobileUserAgent: str('CRAWL_MOBILE_USER_AGENT'),
  };
}

export type CrawlNetworkSettings = ReturnType<typeof crawlNetworkConfig>;
