// Threat protection (the SDKs' ThreatProtectionOptions) for every URL a job fetches:
// its own, the links a crawl finds, redirect targets. Only the local rules run here
// (whitelist, blacklist, blocked TLDs); the cloud scanners of modes "normal" (Google
// Web Risk) and "zscaler" do not exist on this service, so a URL no local rule
// decides is what upstream calls a provider failure and failurePolicy decides it.
// Rule order as upstream: whitelist, blacklist, blocked TLD, then the scan.
// Pure and linear in the URL and the lists, so it runs anywhere, on hostile links.

export interface ThreatProtectionOptions {
  mode?: 'off' | 'manual-only' | 'normal' | 'zscaler';
  riskScoreThreshold?: number;
  blacklist?: string[];
  whitelist?: string[];
  blockedTlds?: string[];
  failurePolicy?: 'open' | 'closed';
}

export type ThreatRule = 'whitelist' | 'blacklist' | 'blocked-tld' | 'provider-failure' | 'default-allow';

export type ThreatDecision = { allowed: true; rule: ThreatRule; unscanned?: true } | { allowed: false; rule: ThreatRule; reason: string };

/** The scanner each cloud mode would ask. */
const SCANNERS = { normal: 'Google Web Risk', zscaler: "the organization's Zscaler connection" } as const;

/** What upstream uses when a request names no failurePolicy (THREAT_PROTECTION_POLICY_DEFAULTS). */
export const DEFAULT_FAILURE_POLICY = 'closed';

export interface ThreatPolicy {
  mode: 'manual-only' | 'normal' | 'zscaler';
  whitelist: string[];
  blacklist: string[];
  blockedTlds: string[];
  failurePolicy: 'open' | 'closed';
}

/** An entry as it is compared: lower case, no trailing dot (TLDs: no leading dot either). */
function normalEntry(entry: string): string {
  return entry.trim().toLowerCase().replace(/\.$/, '');
}

/**
 * The policy a request's options ask for; undefined when threat protection is off. Lists given
 * without a mode are enforced as mode "manual-only" (upstream would merge them into the team's
 * policy, which this service does not have).
 */
export function threatPolicy(options: ThreatProtectionOptions | undefined): ThreatPolicy | undefined {
  if (!options) return undefined;
  const hasLists = [options.blacklist, options.whitelist, options.blockedTlds].some((list) => (list?.length ?? 0) > 0);
  const mode = options.mode ?? (hasLists ? 'manual-only' : 'off');
  if (mode === 'off') return undefined;
  return {
    mode,
    whitelist: (options.whitelist ?? []).map(normalEntry).filter(Boolean),
    blacklist: (options.blacklist ?? []).map(normalEntry).filter(Boolean),
    blockedTlds: (options.blockedTlds ?? []).map((t) => normalEntry(t).replace(/^\.+/, '')).filter(Boolean),
    failurePolicy: options.failurePolicy ?? DEFAULT_FAILURE_POLICY,
  };
}

/**
 * Whether `text` matches the glob `pattern`, where `*` stands for any run of characters (dots
 * included, as upstream). Greedy matching of the literal parts in order: with the last `*`
 * remembered, each part is found once, so the work is bounded by host × entry length.
 */
export function globMatches(pattern: string, text: string): boolean {
  const parts = pattern.split('*');
  if (parts.length === 1) return pattern === text;
  const first = parts[0]!;
  const last = parts[parts.length - 1]!;
  if (text.length < first.length + last.length || !text.startsWith(first) || !text.endsWith(last)) return false;
  let at = first.length;
  const end = text.length - last.length;
  for (const part of parts.slice(1, -1)) {
    if (part === '') continue;
    const found = text.indexOf(part, at);
    if (found === -1 || found + part.length > end) return false;
    at = found + part.length;
  }
  return true;
}

/** A glob matches as written (`*.example.com`: subdomains, not the apex); a plain domain matches itself and its subdomains. */
export function hostMatchesEntry(host: string, entry: string): boolean {
  if (entry.includes('*')) return globMatches(entry, host);
  return host === entry || host.endsWith(`.${entry}`);
}

/** The host as rules see it: the URL parser's (lower case, punycode, IPv4 in dotted form), without a trailing dot. */
export function ruleHost(url: string): string | undefined {
  try {
    return new URL(url).hostname.replace(/\.$/, '');
  } catch {
    return undefined;
  }
}

function entryAsHost(entry: string): string {
  if (entry.includes('*')) return entry;
  // Written in Unicode, an IDN entry is compared in the URL parser's punycode form.
  return ruleHost(`http://${entry}/`) ?? entry;
}

function blocked(url: string, rule: ThreatRule, why: string): ThreatDecision {
  return { allowed: false, rule, reason: `This URL (${url}) is blocked by threat protection (rule: ${rule}: ${why}).` };
}

/** Whether a job may fetch `url` under `policy`. */
export function checkThreat(url: string, policy: ThreatPolicy): ThreatDecision {
  const host = ruleHost(url);
  if (host === undefined) return blocked(url, 'blacklist', 'the URL has no host the rules can read');
  if (policy.whitelist.some((e) => hostMatchesEntry(host, entryAsHost(e)))) return { allowed: true, rule: 'whitelist' };
  const listed = policy.blacklist.find((e) => hostMatchesEntry(host, entryAsHost(e)));
  if (listed !== undefined) return blocked(url, 'blacklist', `threatProtection.blacklist lists "${listed}"`);
  const tld = policy.blockedTlds.find((t) => host === t || host.endsWith(`.${t}`));
  if (tld !== undefined) return blocked(url, 'blocked-tld', `threatProtection.blockedTlds lists "${tld}"`);
  if (policy.mode === 'manual-only') return { allowed: true, rule: 'default-allow' };
  if (policy.failurePolicy === 'open') return { allowed: true, rule: 'provider-failure', unscanned: true };
  return blocked(url, 'provider-failure', noScannerWhy(policy.mode));
}

function noScannerWhy(mode: 'normal' | 'zscaler'): string {
  return `threatProtection.mode "${mode}" scans with ${SCANNERS[mode]}, which this service does not have, and failurePolicy "closed" blocks every URL no scan cleared; use mode "manual-only", whitelist the host, or failurePolicy "open"`;
}

/** The warning a page fetched under a cloud mode with failurePolicy "open" carries: nothing scanned it. */
export function unscannedWarning(policy: ThreatPolicy | undefined): string | undefined {
  if (!policy || policy.mode === 'manual-only' || policy.failurePolicy !== 'open') return undefined;
  return `threatProtection: mode "${policy.mode}" scans with ${SCANNERS[policy.mode]}, which this service does not have; failurePolicy "open" let the page through without a scan (the whitelist, blacklist and blockedTlds were applied).`;
}

/** Why a job must not fetch `url`, or undefined when it may (or threat protection is off). */
export function threatRefusal(url: string, policy: ThreatPolicy | undefined): string | undefined {
  if (!policy) return undefined;
  const decision = checkThreat(url, policy);
  return decision.allowed ? undefined : decision.reason;
}
