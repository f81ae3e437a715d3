// Which configured proxy a request to a host goes through, one router per worker
// process (its memory is the worker's own):
// - the candidates are the pools tagged with the request's `location.country`
//   (when some pool has country tags), else every pool;
// - `basic` uses the lowest candidate tier, `stealth` and `enhanced` the tier the
//   pools file names for them (else the highest); `auto` starts at the lowest and
//   moves a host one tier up each time its answer through a tier is blocked,
//   remembering for the host the tier that worked: later requests to that host
//   start there, other hosts stay where they are;
// - a host keeps its proxy (sticky, per mode and country) until that proxy is
//   benched or blocked there; new hosts are spread over the tier round-robin;
// - a proxy that fails (connect error, 407, timeout) is benched for benchMs and
//   its requests rotate to the others of its tier; when the whole tier is benched,
//   the one back soonest is tried rather than failing the page or going direct;
// - with a shared store (shared-tiers.ts), the tiers learned are written there
//   and read back for the hosts a worker is about to request (prime): a host
//   learned on one worker starts at that tier on every worker.
import { BoundedMap } from '../../bounded-map.ts';
import type { Logger } from '../../log.ts';
import { proxyMetrics } from './proxy-metrics.ts';
import type { ProxyEntry, ProxyPools } from './pools-file.ts';

export const PROXY_MODES = ['basic', 'stealth', 'enhanced', 'auto'] as const;
export type ProxyMode = (typeof PROXY_MODES)[number];

/** What a request asks of the pools: its `proxy` mode and `location.country` (upper case). */
export interface ProxyRoute {
  mode: ProxyMode;
  country?: string;
}

// Hosts remembered (sticky proxies, learned tiers): the hosts of the pages in flight and well beyond.
const MAX_REMEMBERED_HOSTS = 50_000;

export class UnknownProxyCountryError extends Error {
  constructor(country: string, tagged: ReadonlySet<string>) {
    super(
      `location.country ${country} has no proxy pool on this server (pools are tagged with ${[...tagged].sort().join(', ')}); ` +
        'pick one of those countries or leave location.country out.',
    );
    this.name = 'UnknownProxyCountryError';
  }
}

/** Why a request's `location.country` cannot be routed, or undefined when it can (or countries route nothing here). */
export function proxyCountryRefusal(pools: ProxyPools, country: string | undefined): string | undefined {
  if (country === undefined || pools.countries.size === 0 || pools.countries.has(country.toUpperCase())) return undefined;
  return new UnknownProxyCountryError(country.toUpperCase(), pools.countries).message;
}

/** Where learned tiers are shared between workers (shared-tiers.ts): keys are the router's `<COUNTRY>|<host>`. */
export interface TierStore {
  /** The live tiers of these keys. */
  load(keys: string[]): Promise<Map<string, number>>;
  /** Records a raise; a failure costs only the sharing, so the store logs it and nothing waits for it. */
  save(key: string, tier: number): void;
}

/** How long a host's shared tier is trusted before prime() reads it again. */
const RECHECK_MS = 10_000;

export interface ProxyRouterOptions {
  benchMs: number;
  now?: () => number;
  log?: Logger;
}

export class ProxyRouter {
  private readonly benchedUntil = new Map<string, number>();
  private readonly sticky = new BoundedMap<string, string>(MAX_REMEMBERED_HOSTS);
  private readonly learnedTier = new BoundedMap<string, number>(MAX_REMEMBERED_HOSTS);
  /** The proxy a host's answer was last blocked through: its next pick goes elsewhere when the tier has another. */
  private readonly blockedVia = new BoundedMap<string, string>(MAX_REMEMBERED_HOSTS);
  private readonly turn = new Map<string, number>();
  private readonly now: () => number;
  private store: TierStore | undefined;
  /** When prime() last read a learned key from the store. */
  private readonly checked = new BoundedMap<string, number>(MAX_REMEMBERED_HOSTS);

  constructor(
    readonly pools: ProxyPools,
    private readonly opts: ProxyRouterOptions,
  ) {
    this.now = opts.now ?? Date.now;
  }

  /** Whether any proxy is configured; without one, every request connects directly. */
  get configured(): boolean {
    return this.pools.proxies.length > 0;
  }

  /**
   * The proxy for a request to `host`, or undefined when none is configured or every candidate of
   * the route's tier is in `avoid` (proxies this request already tried). Throws
   * UnknownProxyCountryError for a country no pool is tagged with.
   */
  pick(route: ProxyRoute, host: string, avoid: ReadonlySet<string> = new Set()): ProxyEntry | undefined {
    if (!this.configured) return undefined;
    const candidates = this.candidates(route);
    const tier = this.tierFor(route, host, candidates);
    const inTier = candidates.filter((p) => p.tier === tier && !avoid.has(p.id));
    if (inTier.length === 0) return undefined;
    const now = this.now();
    const key = stickyKey(route, host, this.pools);
    const unbenched = inTier.filter((p) => (this.benchedUntil.get(p.id) ?? 0) <= now);
    const notBlocked = unbenched.filter((p) => p.id !== this.blockedVia.get(key));
    const available = notBlocked.length ? notBlocked : unbenched;
    const stuck = available.find((p) => p.id === this.sticky.get(key));
    let chosen = stuck;
    if (!chosen && available.length) {
      const turnKey = `${route.country ?? ''}|${tier}`;
      const turn = this.turn.get(turnKey) ?? 0;
      this.turn.set(turnKey, turn + 1);
      chosen = available[turn % available.length];
    }
    chosen ??= inTier.reduce((a, b) => ((this.benchedUntil.get(a.id) ?? 0) <= (this.benchedUntil.get(b.id) ?? 0) ? a : b));
    this.sticky.set(key, chosen.id);
    proxyMetrics.request(chosen.pool, chosen.tier);
    return chosen;
  }

  /**
   * The answer from `host` through `proxy` was blocked (a bot filter's status, a challenge page, an
   * empty body). The host leaves that proxy; under `auto` it also moves to the next tier up, if any.
   * True when a retry has somewhere new to go.
   */
  blocked(route: ProxyRoute, host: string, proxy: ProxyEntry): boolean {
    const key = stickyKey(route, host, this.pools);
    if (this.sticky.get(key) === proxy.id) this.sticky.delete(key);
    this.blockedVia.set(key, proxy.id);
    if (route.mode !== 'auto') return false;
    const next = this.candidateTiers(this.candidates(route)).find((t) => t > proxy.tier);
    if (next === undefined) return false;
    const tierKey = learnedKey(route, host, this.pools);
    if ((this.learnedTier.get(tierKey) ?? -1) < next) {
      this.learnedTier.set(tierKey, next);
      this.store?.save(tierKey, next);
      proxyMetrics.escalated(next);
      this.opts.log?.info('proxy tier raised for host', { host, tier: next, pool: proxy.pool });
    }
    return true;
  }

  /** Shares what `auto` learns with the other workers through `store`. */
  shareTiers(store: TierStore): void {
    this.store = store;
  }

  /**
   * Reads the shared tiers of the hosts a request is about to go to (those not read within
   * RECHECK_MS): a tier another worker learned is taken when it is higher than this worker's.
   */
  async prime(route: ProxyRoute, hosts: readonly string[]): Promise<void> {
    if (!this.store || route.mode !== 'auto' || !this.configured) return;
    const now = this.now();
    const keys = [...new Set(hosts.map((h) => learnedKey(route, h, this.pools)))].filter((k) => (this.checked.get(k) ?? -Infinity) + RECHECK_MS <= now);
    if (keys.length === 0) return;
    for (const k of keys) this.checked.set(k, now);
    for (const [key, tier] of await this.store.load(keys)) {
      if ((this.learnedTier.get(key) ?? -1) < tier) this.learnedTier.set(key, tier);
    }
  }

  /** As blocked(), for an answer that came through the proxy `host` is stuck to (a page Chromium loaded through the guard proxy). */
  blockedHost(route: ProxyRoute, host: string): boolean {
    const id = this.sticky.get(stickyKey(route, host, this.pools));
    const proxy = this.pools.proxies.find((p) => p.id === id);
    return proxy ? this.blocked(route, host, proxy) : false;
  }

  /** The proxy could not carry the request (connect error, 407, timeout): benched, its hosts rotate. */
  failed(proxy: ProxyEntry, why: string): void {
    const until = this.now() + this.opts.benchMs;
    if ((this.benchedUntil.get(proxy.id) ?? 0) >= until) return;
    this.benchedUntil.set(proxy.id, until);
    proxyMetrics.benched(proxy.pool);
    // `why` names the target and the proxy's host:port, never its credentials.
    this.opts.log?.warn('proxy benched', { proxy: proxy.id, at: proxy.label, forMs: this.opts.benchMs, why });
  }

  /** Throws UnknownProxyCountryError when no pool serves the route's country. */
  checkRoute(route: ProxyRoute): void {
    if (this.configured) this.candidates(route);
  }

  /** The tier `auto` starts `host` at (for tests and the docs' promise: learned per host). */
  autoTier(route: Omit<ProxyRoute, 'mode'>, host: string): number | undefined {
    if (!this.configured) return undefined;
    return this.tierFor({ ...route, mode: 'auto' }, host, this.candidates({ ...route, mode: 'auto' }));
  }

  private candidates(route: ProxyRoute): readonly ProxyEntry[] {
    const { proxies, countries } = this.pools;
    if (route.country === undefined || countries.size === 0) return proxies;
    const country = route.country.toUpperCase();
    if (!countries.has(country)) throw new UnknownProxyCountryError(country, countries);
    return proxies.filter((p) => p.countries.includes(country));
  }

  private candidateTiers(candidates: readonly ProxyEntry[]): number[] {
    return [...new Set(candidates.map((p) => p.tier))].sort((a, b) => a - b);
  }

  private tierFor(route: ProxyRoute, host: string, candidates: readonly ProxyEntry[]): number {
    const tiers = this.candidateTiers(candidates);
    if (route.mode === 'basic') return tiers[0];
    if (route.mode === 'auto') {
      // A tier shared by a worker with other pools may be none of these: the nearest above it, else the highest.
      const learned = this.learnedTier.get(learnedKey(route, host, this.pools));
      return learned === undefined ? tiers[0] : (tiers.find((t) => t >= learned) ?? tiers.at(-1)!);
    }
    const wanted = this.pools.modeTiers[route.mode];
    return tiers.find((t) => t >= wanted) ?? tiers.at(-1)!;
  }
}

function hostKey(host: string): string {
  return host.toLowerCase().replace(/\.$/, '');
}

/** A route's country as it selects pools: upper case, and none when no pool has country tags. */
function countryOf(route: ProxyRoute, pools: ProxyPools): string {
  return pools.countries.size === 0 ? '' : (route.country?.toUpperCase() ?? '');
}

function stickyKey(route: ProxyRoute, host: string, pools: ProxyPools): string {
  return `${route.mode}|${countryOf(route, pools)}|${hostKey(host)}`;
}

function learnedKey(route: ProxyRoute, host: string, pools: ProxyPools): string {
  return `${countryOf(route, pools)}|${hostKey(host)}`;
}
