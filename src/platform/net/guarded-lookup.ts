// Name resolution that refuses blocked addresses. Given to net/http/tls as the
// `lookup` option, the address it checks is the address the socket connects
// to: there is no second resolution a rebinding DNS server could answer
// differently. Given the port too, it also refuses the service's own listeners.
import dns from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { addressBlockReason, BlockedAddressError, type AddressPolicy } from './address-policy.ts';
import { serviceEndpointAt } from './service-endpoints.ts';

/** dns.lookup with `all: true`; tests substitute their own answers. */
export type Resolver = (
  hostname: string,
  options: dns.LookupAllOptions,
  callback: (err: NodeJS.ErrnoException | null, addresses: dns.LookupAddress[]) => void,
) => void;

type LookupCallback = Parameters<LookupFunction>[2];

const LOOPBACK: dns.LookupAddress[] = [
  { address: '127.0.0.1', family: 4 },
  { address: '::1', family: 6 },
];

type Done = (err: Error | null, addresses?: dns.LookupAddress[]) => void;

function checkAll(hostname: string, addresses: dns.LookupAddress[], policy: AddressPolicy): Error | null {
  if (addresses.length === 0) {
    return Object.assign(new Error(`${hostname} did not resolve to any address`), { code: 'ENOTFOUND', hostname });
  }
  // One blocked answer refuses the host: mixing public and private answers is
  // how rebinding attacks hedge which one gets used.
  for (const { address } of addresses) {
    const reason = addressBlockReason(address, policy);
    if (reason) return new BlockedAddressError(hostname, address, reason);
  }
  return null;
}

async function serviceRefusal(hostname: string, addresses: dns.LookupAddress[], policy: AddressPolicy, port: number): Promise<Error | null> {
  for (const { address } of addresses) {
    const service = await serviceEndpointAt(address, port, policy.serviceEndpoints ?? []);
    if (service) return BlockedAddressError.forService(hostname, address, service);
  }
  return null;
}

function lookupChecked(hostname: string, options: dns.LookupOptions, policy: AddressPolicy, resolve: Resolver, port: number | undefined, done: Done): void {
  const bare = hostname.replace(/^\[(.*)\]$/, '$1');
  const checked = (addresses: dns.LookupAddress[]) => {
    const blocked = checkAll(hostname, addresses, policy);
    if (blocked || port === undefined || !policy.serviceEndpoints?.length) return done(blocked, addresses);
    serviceRefusal(hostname, addresses, policy, port).then((refused) => done(refused, addresses), done);
  };
  const literalFamily = isIP(bare);
  if (literalFamily) {
    process.nextTick(checked, [{ address: bare, family: literalFamily }]);
    return;
  }
  // Names under .localhost are the loopback (RFC 6761), as browsers resolve them without DNS;
  // the policy then judges them like any loopback address.
  if (/\.localhost\.?$/i.test(bare)) {
    process.nextTick(
      checked,
      LOOPBACK.filter((a) => !options.family || a.family === options.family),
    );
    return;
  }
  resolve(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) done(err);
    else checked(addresses);
  });
}

/**
 * A `lookup` for net.connect / http.request / tls.connect. It handles the
 * `all: true` form Node uses for autoSelectFamily (happy eyeballs) as well as
 * the single-address and (hostname, callback) forms. `port` is the port the
 * socket will connect to: the service's own listeners are refused on it.
 */
export function createGuardedLookup(policy: AddressPolicy, resolve: Resolver = dns.lookup, port?: number): LookupFunction {
  return (hostname: string, options: dns.LookupOptions | number | LookupCallback, callback?: LookupCallback) => {
    const cb = typeof options === 'function' ? options : callback!;
    const opts: dns.LookupOptions = typeof options === 'number' ? { family: options } : typeof options === 'function' ? {} : (options ?? {});
    const { all, ...resolveOptions } = opts;
    lookupChecked(hostname, resolveOptions, policy, resolve, port, (err, addresses) => {
      if (err) cb(err, all ? [] : '');
      else if (all) cb(null, addresses!);
      else cb(null, addresses![0].address, addresses![0].family);
    });
  };
}

/**
 * Resolves every address of `hostname` (or takes a literal IP as is) and throws
 * BlockedAddressError when any is blocked, or, given the `port`, is one of the
 * service's own listeners; for pre-flight checks such as validating a start
 * URL. Returns the checked addresses.
 */
export function checkHostAllowed(hostname: string, policy: AddressPolicy, resolve: Resolver = dns.lookup, port?: number): Promise<dns.LookupAddress[]> {
  return new Promise((fulfil, reject) => {
    lookupChecked(hostname, {}, policy, resolve, port, (err, addresses) => (err ? reject(err) : fulfil(addresses!)));
  });
}
