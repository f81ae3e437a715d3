// Which IP addresses the crawler may connect to. A crawl target is chosen by
// whoever submits the crawl, so without this check a URL (or a redirect, or a
// DNS answer) could make the worker read loopback services, the private
// network or a cloud metadata endpoint and hand the result back as a page.
import { BlockList, isIPv4, isIPv6 } from 'node:net';

/** A listener of this deployment (gateway, Temporal, PostgreSQL, the guard proxy): never a crawl target. */
export interface ServiceEndpoint {
  /** What it is, for the refusal: "Temporal UI". */
  name: string;
  /** As configured: an IP, a host name, or a wildcard (0.0.0.0, ::) for every address of this machine. */
  host: string;
  port: number;
}

export interface AddressPolicy {
  /** Local development and tests: no address is refused for being private (service endpoints still are). */
  allowPrivate: boolean;
  /** IPv4/IPv6 addresses or CIDRs let through even when they are not public. */
  allowlist: string[];
  /** Refused on their port whatever allowPrivate and the allowlist say. */
  serviceEndpoints?: ServiceEndpoint[];
}

type Family = 'ipv4' | 'ipv6';

function blockListOf(family: Family, cidrs: string[]): BlockList {
  const list = new BlockList();
  for (const cidr of cidrs) {
    const [address, prefix] = cidr.split('/');
    list.addSubnet(address, Number(prefix), family);
  }
  return list;
}

// First match wins, so the specific labels come before the ranges holding them.
// Separate lists per family because BlockList matches IPv4 addresses against
// IPv6 rules through their mapped form (::/3 would swallow all of IPv4).
const IPV4_RULES: [string, BlockList][] = [
  ['cloud-metadata', blockListOf('ipv4', ['169.254.169.254/32', '100.100.100.200/32'])],
  ['unspecified', blockListOf('ipv4', ['0.0.0.0/8'])],
  ['loopback', blockListOf('ipv4', ['127.0.0.0/8'])],
  ['private', blockListOf('ipv4', ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16'])],
  ['link-local', blockListOf('ipv4', ['169.254.0.0/16'])],
  ['CGNAT', blockListOf('ipv4', ['100.64.0.0/10'])],
  ['multicast', blockListOf('ipv4', ['224.0.0.0/4'])],
  ['reserved', blockListOf('ipv4', ['192.0.0.0/24', '192.0.2.0/24', '192.88.99.0/24', '198.18.0.0/15', '198.51.100.0/24', '203.0.113.0/24', '240.0.0.0/4'])],
];

const IPV6_RULES: [string, BlockList][] = [
  ['cloud-metadata', blockListOf('ipv6', ['fd00:ec2::254/128'])],
  ['unspecified', blockListOf('ipv6', ['::/128'])],
  ['loopback', blockListOf('ipv6', ['::1/128'])],
  ['unique-local', blockListOf('ipv6', ['fc00::/7'])],
  ['link-local', blockListOf('ipv6', ['fe80::/10'])],
  ['multicast', blockListOf('ipv6', ['ff00::/8'])],
  // IETF protocol assignments (Teredo among them) and the documentation prefixes.
  ['reserved', blockListOf('ipv6', ['2001::/23', '2001:db8::/32', '3fff::/20'])],
];

// Only 2000::/3 is handed out as global unicast; everything else outside the
// rules above (IPv4-compatible ::/96, discard 100::/64, site-local fec0::/10...)
// is not a place a public web page lives.
const IPV6_GLOBAL_UNICAST = blockListOf('ipv6', ['2000::/3']);

function hextets(ipv6: string): number[] {
  // The URL parser canonicalises the address (dotted tail, case, zeros) so that
  // only the '::' gap is left to expand.
  const canonical = new URL(`http://[${ipv6}]/`).hostname.slice(1, -1);
  const [head, tail] = canonical.split('::');
  const parse = (part: string | undefined) => (part ? part.split(':').map((h) => parseInt(h, 16)) : []);
  const left = parse(head);
  const right = parse(tail);
  return [...left, ...Array(8 - left.length - right.length).fill(0), ...right];
}

function ipv4From(high: number, low: number): string {
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
}

// NAT64 (64:ff9b::/96) and 6to4 (2002::/16) addresses are delivered to the
// IPv4 address they carry, so they are judged by it.
function embeddedIPv4(h: number[]): string | undefined {
  if (h[0] === 0x64 && h[1] === 0xff9b && h.slice(2, 6).every((x) => x === 0)) return ipv4From(h[6], h[7]);
  if (h[0] === 0x2002) return ipv4From(h[1], h[2]);
  return undefined;
}

interface Canonical {
  address: string;
  family: Family;
}

/**
 * The address as it is judged: brackets and zone id dropped, and IPv4-mapped
 * IPv6 (::ffff:a.b.c.d, what dual-stack sockets report) as the IPv4 it is.
 */
function canonicalise(ip: string): Canonical | undefined {
  const bare = ip.replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, '');
  if (isIPv4(bare)) return { address: bare, family: 'ipv4' };
  if (!isIPv6(bare)) return undefined;
  const h = hextets(bare);
  const mapped = h.slice(0, 5).every((x) => x === 0) && h[5] === 0xffff;
  return mapped ? { address: ipv4From(h[6], h[7]), family: 'ipv4' } : { address: bare, family: 'ipv6' };
}

/** The address in the form it is compared in (IPv4-mapped IPv6 as IPv4), or undefined when it is not an IP. */
export function canonicalAddress(ip: string): string | undefined {
  const canonical = canonicalise(ip);
  if (canonical?.family !== 'ipv6') return canonical?.address;
  // One spelling per address (zeros, case), so that addresses compare as strings.
  return new URL(`http://[${canonical.address}]/`).hostname.slice(1, -1);
}

function firstMatch(rules: [string, BlockList][], address: string, family: Family): string | undefined {
  return rules.find(([, list]) => list.check(address, family))?.[0];
}

/** A label such as 'loopback' or 'private' for a non-public address, undefined for a public one. */
export function classifyAddress(ip: string): string | undefined {
  const canonical = canonicalise(ip);
  if (!canonical) return 'invalid';
  const { address, family } = canonical;
  if (family === 'ipv4') return firstMatch(IPV4_RULES, address, family);
  const labelled = firstMatch(IPV6_RULES, address, family);
  if (labelled) return labelled;
  const embedded = embeddedIPv4(hextets(address));
  if (embedded) return classifyAddress(embedded);
  return IPV6_GLOBAL_UNICAST.check(address, family) ? undefined : 'reserved';
}

function invalidEntry(entry: string): Error {
  return new Error(`Invalid private-address allowlist entry "${entry}": expected an IPv4 or IPv6 address or CIDR, such as 10.1.2.3, 10.0.0.0/8 or fd00::/8`);
}

function addAllowlistEntry(list: BlockList, entry: string): void {
  const match = /^([^/]+)(?:\/(\d{1,3}))?$/.exec(entry);
  const family: Family | undefined = match && isIPv4(match[1]) ? 'ipv4' : match && isIPv6(match[1]) ? 'ipv6' : undefined;
  if (!match || !family) throw invalidEntry(entry);
  const maxPrefix = family === 'ipv4' ? 32 : 128;
  const prefix = match[2] === undefined ? maxPrefix : Number(match[2]);
  if (prefix > maxPrefix) throw invalidEntry(entry);
  list.addSubnet(match[1], prefix, family);
}

function compileAllowlist(entries: string[]): BlockList {
  const list = new BlockList();
  for (const entry of entries) addAllowlistEntry(list, entry);
  return list;
}

/** Splits a comma-separated setting (CRAWL_PRIVATE_ADDRESS_ALLOWLIST) and validates every entry. */
export function parseAllowlist(text: string | undefined): string[] {
  const entries = (text ?? '')
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e !== '');
  compileAllowlist(entries);
  return entries;
}

// Checked on every connection, so each allowlist is compiled once.
const compiled = new WeakMap<string[], BlockList>();

function allowlistOf(policy: AddressPolicy): BlockList {
  let list = compiled.get(policy.allowlist);
  if (!list) {
    list = compileAllowlist(policy.allowlist);
    compiled.set(policy.allowlist, list);
  }
  return list;
}

/** Why the policy refuses a connection to `ip` (its classification), or undefined when it may be used. */
export function addressBlockReason(ip: string, policy: AddressPolicy): string | undefined {
  if (policy.allowPrivate) return undefined;
  const label = classifyAddress(ip);
  if (!label) return undefined;
  const canonical = canonicalise(ip);
  if (canonical && allowlistOf(policy).check(canonical.address, canonical.family)) return undefined;
  return label;
}

function withArticle(label: string): string {
  return /^([aeio]|un(?!i))/i.test(label) ? `an ${label}` : `a ${label}`;
}

function refusalText(host: string, address: string, reason: string, service: ServiceEndpoint | undefined): string {
  if (service) {
    const at = (h: string) => `${isIPv6(h) ? `[${h}]` : h}:${service.port}`;
    const resolution = host === address ? `${at(address)} is` : `${at(host)} resolves to ${at(address)},`;
    return (
      `${resolution} this service's ${service.name}. Crawls and webhooks never reach the service's own listeners, ` +
      'whatever CRAWL_ALLOW_PRIVATE_ADDRESSES and CRAWL_PRIVATE_ADDRESS_ALLOWLIST say.'
    );
  }
  const resolution = host === address ? `${address} is` : `${host} resolves to ${address},`;
  return (
    `${resolution} ${withArticle(reason)} address. Private, loopback, link-local and cloud-metadata addresses are blocked ` +
    '(set CRAWL_ALLOW_PRIVATE_ADDRESSES=true or CRAWL_PRIVATE_ADDRESS_ALLOWLIST to allow them).'
  );
}

export class BlockedAddressError extends Error {
  readonly code = 'BLOCKED_ADDRESS';
  readonly host: string;
  readonly address: string;
  /** The address's class ('loopback'...), or 'service' for one of the service's own listeners. */
  readonly reason: string;
  readonly url: string | undefined;
  /** Set when the refusal is for the service's own listener rather than the address's class. */
  readonly service: ServiceEndpoint | undefined;

  constructor(host: string, address: string, reason: string, url?: string, action = 'crawl', service?: ServiceEndpoint) {
    const subject = url ? `Refused to ${action} ${url}` : `Refused to connect to ${host}`;
    super(`${subject}: ${refusalText(host, address, reason, service)}`);
    this.name = 'BlockedAddressError';
    this.host = host;
    this.address = address;
    this.reason = reason;
    this.url = url;
    this.service = service;
  }

  /** The refusal of a connection to `service`, one of the service's own listeners. */
  static forService(host: string, address: string, service: ServiceEndpoint): BlockedAddressError {
    return new BlockedAddressError(host, address, 'service', undefined, 'crawl', service);
  }

  /** The same refusal, worded for the URL being crawled (or whatever `action` does with it). */
  forUrl(url: string, action = 'crawl'): BlockedAddressError {
    return new BlockedAddressError(this.host, this.address, this.reason, url, action, this.service);
  }
}
