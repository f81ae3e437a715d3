// GATEWAY_TRUST_PROXY: which peers may tell the gateway, through X-Forwarded-For,
// -Proto and -Host, who the client is and which URL it used. Trusting everyone
// (Express's `true`) lets any client choose the host and scheme of the links we
// hand back, so nothing is trusted unless the operator names the proxies.
import { isIP } from 'node:net';

/** What Express's `trust proxy` setting takes: true/false, a hop count, or addresses. */
export type TrustProxy = boolean | number | string[];

/** proxy-addr's names for address ranges. */
const RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

function validAddressOrSubnet(entry: string): boolean {
  const match = /^([^/]+)(?:\/(\d{1,3}))?$/.exec(entry);
  const family = match ? isIP(match[1]) : 0;
  if (!match || family === 0) return false;
  return match[2] === undefined || Number(match[2]) <= (family === 4 ? 32 : 128);
}

/** Unset: false. `true`/`false`, a number of hops, or a comma-separated list of IPs, CIDRs and range names. */
export function parseTrustProxy(text: string | undefined): TrustProxy {
  if (text === undefined) return false;
  const value = text.trim();
  if (/^(true|false)$/i.test(value)) return value.toLowerCase() === 'true';
  if (/^\d+$/.test(value)) return Number(value);
  const entries = value
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e !== '');
  const invalid = entries.filter((e) => !RANGE_NAMES.includes(e) && !validAddressOrSubnet(e));
  if (entries.length === 0 || invalid.length > 0) {
    throw new Error(
      `GATEWAY_TRUST_PROXY must be true, false, a number of proxy hops, or a comma-separated list of IPs, CIDRs, loopback, linklocal and uniquelocal; got "${text}"`,
    );
  }
  return entries;
}
