// What the guard proxy knows while it runs (its policy, the upstream proxy, the
// sockets it holds, what it refused and failed to reach) and how it checks a
// target: every connection goes to exactly the addresses the policy allowed.
import type { LookupAddress } from 'node:dns';
import type net from 'node:net';
import { BlockedAddressError, type AddressPolicy } from '../address-policy.ts';
import { checkHostAllowed, createGuardedLookup } from '../guarded-lookup.ts';
import { BoundedMap } from '../../bounded-map.ts';
import { endpointKey, hostListed, unbracket, type Upstream } from './endpoints.ts';

// Enough to explain the failures of the pages in flight; older hosts are forgotten first.
const MAX_REMEMBERED_HOSTS = 1000;

export interface Refusal {
  status: number;
  message: string;
  blocked?: BlockedAddressError;
}

/** The upstream proxy a request goes through, and how to report that it failed (to bench it). */
export interface RoutedUpstream {
  id: string;
  upstream: Upstream;
  failed(why: string): void;
}

/**
 * The upstream proxy for a request to `hostname`, skipping the ones in `tried`; undefined when
 * every candidate was tried, or (with none tried) when requests go directly.
 */
export type UpstreamRoute = (hostname: string, tried: ReadonlySet<string>) => RoutedUpstream | undefined;

/** Attempts per request through upstream proxies that fail (each failure benches one). */
export const MAX_UPSTREAM_ATTEMPTS = 3;

export interface ProxyState {
  /** Completed with the proxy's own address once it listens. */
  policy: AddressPolicy;
  route?: UpstreamRoute;
  refusedHosts?: { hosts: readonly string[]; why: string };
  /** Why a host:port was blocked by the policy. */
  blocked: BoundedMap<string, BlockedAddressError>;
  /** Why a target could not be reached, keyed by the URL (plain HTTP) or host:port (tunnels). */
  failures: BoundedMap<string, string>;
  /** Hosts of `refusedHosts` this proxy refused, by host:port, for blockedReason. */
  refusals: BoundedMap<string, string>;
  /** Every socket open, destroyed on close. */
  sockets: Set<net.Socket>;
}

export function createProxyState(policy: AddressPolicy, route: UpstreamRoute | undefined, refusedHosts: ProxyState['refusedHosts']): ProxyState {
  return {
    policy,
    route,
    refusedHosts,
    blocked: new BoundedMap(MAX_REMEMBERED_HOSTS),
    failures: new BoundedMap(MAX_REMEMBERED_HOSTS),
    refusals: new BoundedMap(MAX_REMEMBERED_HOSTS),
    sockets: new Set(),
  };
}

export function track(state: ProxyState, socket: net.Socket): void {
  state.sockets.add(socket);
  socket.on('close', () => state.sockets.delete(socket));
}

/** The checked addresses of the target, or why the client must be refused. */
export async function resolveTarget(state: ProxyState, hostname: string, port: number): Promise<LookupAddress[] | Refusal> {
  const key = endpointKey(hostname, port);
  if (state.refusedHosts && hostListed(hostname, state.refusedHosts.hosts)) {
    const message = `${unbracket(hostname)} ${state.refusedHosts.why}`;
    state.refusals.set(key, message);
    return { status: 403, message };
  }
  try {
    const addresses = await checkHostAllowed(hostname, state.policy, undefined, port);
    state.blocked.delete(key);
    return addresses;
  } catch (err) {
    if (!(err instanceof BlockedAddressError)) {
      return { status: 502, message: `Cannot resolve ${hostname}: ${(err as Error).message}` };
    }
    state.blocked.set(key, err);
    return { status: 403, message: err.message, blocked: err };
  }
}

/** Connects to exactly the addresses that were checked: the lookup answers from them instead of resolving again. */
export function pinnedLookup(state: ProxyState, addresses: LookupAddress[], port: number) {
  return createGuardedLookup(state.policy, (_host, _options, cb) => cb(null, addresses), port);
}
