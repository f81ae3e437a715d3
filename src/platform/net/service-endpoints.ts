// The service never crawls itself. Its own listeners (the gateway, Temporal's
// frontend, UI and HTTP API, PostgreSQL, the guard proxy) answer whoever
// connects from the worker's network, and some of them (the Temporal UI's API)
// hand out every team's data without a key. Allowlisting 127.0.0.1 for local
// sites must not open them, so they are refused by (address, port) whatever the
// address policy says.
import dns from 'node:dns';
import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';
import type { DatabaseSettings } from '../db/config.ts';
import type { GatewaySettings } from '../http/config.ts';
import type { TemporalSettings } from '../temporal/config.ts';
import type { CrawlNetworkSettings } from './config.ts';
import { canonicalAddress, classifyAddress, type AddressPolicy, type ServiceEndpoint } from './address-policy.ts';

type Resolve = (hostname: string) => Promise<string[]>;

const resolveAll: Resolve = async (hostname) => (await dns.promises.lookup(hostname, { all: true })).map((a) => a.address);

/** The port a URL connects to: its own, or its scheme's default. */
export function urlPort(url: URL): number {
  if (url.port) return Number(url.port);
  return url.protocol === 'https:' || url.protocol === 'wss:' ? 443 : 80;
}

/** `host:port` (IPv6 in brackets), the port defaulted when absent; undefined when it is neither. */
export function hostPort(text: string, defaultPort: number): { host: string; port: number } | undefined {
  const match = /^(?:\[([^\]]+)\]|([^:[\]]+))(?::(\d{1,5}))?$/.exec(text);
  if (!match) return undefined;
  return { host: match[1] ?? match[2], port: match[3] ? Number(match[3]) : defaultPort };
}

function fromUrl(text: string): { host: string; port: number } | undefined {
  try {
    const url = new URL(text);
    // A PostgreSQL URL without a host connects over a Unix socket: nothing to refuse.
    if (!url.hostname) return undefined;
    return { host: url.hostname.replace(/^\[(.*)\]$/, '$1'), port: url.port ? Number(url.port) : url.protocol.startsWith('postgres') ? 5432 : urlPort(url) };
  } catch {
    return undefined;
  }
}

/** The listeners this deployment's settings name; the guard proxy adds itself when it starts. */
/** The sections of the settings that name this deployment's listeners and the guard's exceptions. */
export interface EndpointSettings {
  gateway: Pick<GatewaySettings, 'host' | 'port' | 'publicBaseUrl'>;
  temporal: Pick<TemporalSettings, 'address' | 'devPort' | 'devUiPort' | 'devHttpPort' | 'devMetricsPort' | 'uiUrl'>;
  database: Pick<DatabaseSettings, 'url' | 'embeddedPort'>;
  crawl: Pick<CrawlNetworkSettings, 'allowPrivateAddresses' | 'privateAddressAllowlist' | 'refusedEndpoints'>;
}

export function serviceEndpoints(config: EndpointSettings): ServiceEndpoint[] {
  const found: (ServiceEndpoint | undefined)[] = [];
  const add = (name: string, where: { host: string; port: number } | undefined) => found.push(where && { name, ...where });
  add('gateway', { host: config.gateway.host, port: config.gateway.port });
  add('gateway (PUBLIC_BASE_URL)', fromUrl(config.gateway.publicBaseUrl));
  // Unset, `npm start` runs the dev server on 127.0.0.1 with its UI, HTTP API and metrics beside it.
  const temporal = config.temporal.address ? hostPort(config.temporal.address, 7233) : { host: '127.0.0.1', port: config.temporal.devPort };
  add('Temporal frontend', temporal);
  if (temporal) {
    add('Temporal UI', { host: temporal.host, port: config.temporal.devUiPort });
    add('Temporal HTTP API', { host: temporal.host, port: config.temporal.devHttpPort });
    add('Temporal metrics endpoint', { host: temporal.host, port: config.temporal.devMetricsPort });
  }
  if (config.temporal.uiUrl) add('Temporal UI (TEMPORAL_UI_URL)', fromUrl(config.temporal.uiUrl));
  add('PostgreSQL', config.database.url ? fromUrl(config.database.url) : { host: '127.0.0.1', port: config.database.embeddedPort });
  for (const endpoint of config.crawl.refusedEndpoints) add('listener (CRAWL_REFUSED_ENDPOINTS)', endpoint);
  return found.filter((e): e is ServiceEndpoint => e !== undefined);
}

/** The address policy of this deployment: the guard settings plus its own listeners. */
export function addressPolicyOf(config: EndpointSettings): AddressPolicy {
  return {
    allowPrivate: config.crawl.allowPrivateAddresses,
    allowlist: config.crawl.privateAddressAllowlist,
    serviceEndpoints: serviceEndpoints(config),
  };
}

function isWildcard(host: string): boolean {
  return host === '' || canonicalAddress(host) === '0.0.0.0' || canonicalAddress(host) === '::';
}

/** Whether a connection to `address` stays on this machine (loopback, unspecified, or one of its interfaces). */
function isLocal(address: string): boolean {
  const label = classifyAddress(address);
  if (label === 'loopback' || label === 'unspecified') return true;
  return Object.values(networkInterfaces())
    .flat()
    .some((iface) => iface && canonicalAddress(iface.address) === address);
}

/** Whether connecting to `target` reaches a socket listening on `listener` (both canonical IPs). */
function reaches(target: string, listener: string): boolean {
  if (target === listener) return true;
  // Linux delivers a connection to 0.0.0.0 (or ::) to the local machine.
  return (target === '0.0.0.0' || target === '::') && isLocal(listener);
}

async function listenerAddresses(host: string, resolve: Resolve): Promise<string[]> {
  const bare = host.replace(/^\[(.*)\]$/, '$1');
  if (isIP(bare)) return [canonicalAddress(bare)!];
  try {
    return (await resolve(bare)).map((a) => canonicalAddress(a) ?? a);
  } catch {
    // A listener whose name does not resolve from here cannot be reached from here either.
    return [];
  }
}

/** The service's listener that a connection to `address`:`port` would reach, if any. */
export async function serviceEndpointAt(
  address: string,
  port: number,
  endpoints: ServiceEndpoint[],
  resolve: Resolve = resolveAll,
): Promise<ServiceEndpoint | undefined> {
  const target = canonicalAddress(address);
  if (!target) return undefined;
  for (const endpoint of endpoints) {
    if (endpoint.port !== port) continue;
    if (isWildcard(endpoint.host) ? isLocal(target) : (await listenerAddresses(endpoint.host, resolve)).some((l) => reaches(target, l))) return endpoint;
  }
  return undefined;
}

/** Whether any of the service's listeners uses `port` (no lookup is needed for the others). */
export function servesPort(policy: AddressPolicy, port: number): boolean {
  return policy.serviceEndpoints?.some((e) => e.port === port) ?? false;
}
