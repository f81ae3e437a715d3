// Whether an answer is a site refusing the route it came by rather than the page:
// what makes `proxy: auto` move a host to a higher tier. 429 and 503 are not
// here: they say "slower", which the per-host throttling answers, not "elsewhere".

/** Statuses bot filters and proxies refuse a client's address with. */
const BLOCKED_STATUSES = new Set([401, 403, 407]);

// Markers of the common bot-challenge interstitials (Cloudflare, Akamai, PerimeterX, DataDome,
// Imperva, AWS WAF), matched in the first bytes only: a challenge page is small, a hostile page long.
const CHALLENGE_MARKERS =
  /<title>\s*(?:just a moment\.\.\.|attention required!? \| cloudflare|access denied|pardon our interruption)\s*<\/title>|cf-chl-|challenge-platform|_pxCaptcha|px-captcha|captcha-delivery\.com|_Incapsula_Resource|aws-waf-token/i;
const SCANNED_BYTES = 32 * 1024;

/** Why the answer looks blocked (for the log), or undefined when it looks like the page. */
export function blockedAnswer(status: number, body: string | Buffer | undefined): string | undefined {
  if (BLOCKED_STATUSES.has(status)) return `HTTP ${status}`;
  if (status >= 300 && status < 400) return undefined;
  const head = typeof body === 'string' ? body.slice(0, SCANNED_BYTES) : (body?.subarray(0, SCANNED_BYTES).toString('latin1') ?? '');
  if (status >= 200 && status < 300 && head.trim() === '') return 'an empty body';
  if (CHALLENGE_MARKERS.test(head)) return 'a bot challenge page';
  return undefined;
}
