// The lists of a search's threatProtection (mode manual-only, or lists without a
// mode): a result whose host is on the blacklist or under a blocked top-level domain
// is removed, unless the whitelist names its host, which wins over both. Scanning
// modes (normal, zscaler) are a cloud service and refused before (search-service.ts).
import type { ThreatProtection } from './search-request.ts';

/** A host pattern: an exact host, or a glob whose `*` stands for any run of characters (`*.example.com`). */
interface HostPattern {
  parts: string[];
}

const compile = (pattern: string): HostPattern => ({ parts: pattern.toLowerCase().replace(/\.$/, '').split('*') });

/** Whether the glob matches the whole host; literal parts are found in order, so time is linear in the host per part. */
export function hostMatches(host: string, { parts }: HostPattern): boolean {
  if (parts.length === 1) return host === parts[0];
  const [first, ...rest] = parts;
  const last = rest.pop()!;
  if (!host.startsWith(first) || host.length < first.length + last.length) return false;
  let at = first.length;
  const end = host.length - last.length;
  for (const part of rest) {
    const found = host.indexOf(part, at);
    if (found < 0 || found + part.length > end) return false;
    at = found + part.length;
  }
  return host.endsWith(last);
}

function hostOf(url: string): string | undefined {
  try {
    return new URL(url).hostname.toLowerCase().replace(/\.$/, '');
  } catch {
    return undefined;
  }
}

/** The test a result's URL must pass, or undefined when the request sets no list that removes anything. */
export function threatListFilter(policy: ThreatProtection | undefined): ((url: string) => boolean) | undefined {
  if (!policy || policy.mode === 'off') return undefined;
  const blocked = (policy.blacklist ?? []).map(compile);
  const tlds = new Set(policy.blockedTlds ?? []);
  if (blocked.length === 0 && tlds.size === 0) return undefined;
  const allowed = (policy.whitelist ?? []).map(compile);
  return (url) => {
    const host = hostOf(url);
    if (host === undefined) return true;
    if (allowed.some((p) => hostMatches(host, p))) return true;
    if (tlds.has(host.slice(host.lastIndexOf('.') + 1))) return false;
    return !blocked.some((p) => hostMatches(host, p));
  };
}
