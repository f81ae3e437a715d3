// threatProtection of an agent run, as 'manual-only' enforces it: the whitelist
// wins over everything, then the blacklist and the blocked TLDs refuse a URL the
// agent's tools would read. 'off' enforces nothing; a request that gives lists
// without a mode gets them enforced (the service has no team policy to fall back on).
import type { AgentThreatProtection } from './agent-request.ts';

/** Whether `host` is named by `pattern`: `example.com` exactly, `*.example.com` any subdomain of it. */
export function domainMatches(pattern: string, host: string): boolean {
  if (pattern.startsWith('*.')) return host.endsWith(pattern.slice(1));
  return host === pattern;
}

/** The reason a URL is refused under these rules, or undefined when it may be read. */
export function threatRefusal(tp: AgentThreatProtection | undefined): (url: string) => string | undefined {
  if (!tp || tp.mode === 'off') return () => undefined;
  const whitelist = tp.whitelist ?? [];
  const blacklist = tp.blacklist ?? [];
  const blockedTlds = new Set(tp.blockedTlds ?? []);
  return (url) => {
    let host: string;
    try {
      host = new URL(url).hostname.toLowerCase().replace(/\.$/, '');
    } catch {
      return undefined;
    }
    if (whitelist.some((p) => domainMatches(p, host))) return undefined;
    const listed = blacklist.find((p) => domainMatches(p, host));
    if (listed) return `${host} is blocked by threatProtection.blacklist (${listed})`;
    const isIp = /^[\d.]+$/.test(host) || host.startsWith('[');
    const tld = host.slice(host.lastIndexOf('.') + 1);
    if (!isIp && blockedTlds.has(tld)) return `${host} is blocked by threatProtection.blockedTlds (.${tld})`;
    return undefined;
  };
}
