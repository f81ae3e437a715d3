// How crawl traffic uses the proxy pools: requests per pool and tier, benchings, and
// auto's escalations. Labels name pools and tiers only, never a proxy's URL.
import { counter } from '../../metrics/registry.ts';

const requests = counter({
  name: 'proxy_requests_total',
  help: 'Requests sent through a proxy pool (HTTP fetches and Chromium requests and tunnels), by pool and tier',
  labelNames: ['pool', 'tier'],
});

const benched = counter({
  name: 'proxy_benched_total',
  help: 'Times a proxy was benched (PROXY_BENCH_MS) after a connect error, a 407 or a timeout, by pool',
  labelNames: ['pool'],
});

const escalations = counter({
  name: 'proxy_escalations_total',
  help: 'Hosts that proxy auto moved to a higher tier after a blocked answer, by the tier moved to',
  labelNames: ['tier'],
});

export const proxyMetrics = {
  request: (pool: string, tier: number) => requests.inc({ pool, tier: String(tier) }),
  benched: (pool: string) => benched.inc({ pool }),
  escalated: (tier: number) => escalations.inc({ tier: String(tier) }),
};
