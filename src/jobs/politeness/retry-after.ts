// A throttled answer's Retry-After (RFC 9110 10.2.3): delay-seconds or an HTTP
// date. Hostile input: read with one bounded pattern or Date.parse of a short
// string, and capped by the caller's setting so a site cannot stop a host's
// crawls for longer than the operator allows.

/** Longest header value read: an HTTP date is 29 characters, and nothing longer is a valid value. */
const MAX_VALUE_LENGTH = 64;

/**
 * Milliseconds to wait from `now`, at most `capMs`; 0 for a date in the past; undefined when the
 * header is absent or is neither form (then the caller backs off on its own).
 */
export function retryAfterMs(value: string | string[] | undefined, now: number, capMs: number): number | undefined {
  const text = (Array.isArray(value) ? value[0] : value)?.trim();
  if (!text || text.length > MAX_VALUE_LENGTH) return undefined;
  if (/^\d+$/.test(text)) return Math.min(capMs, Number(text) * 1000);
  // An HTTP date names its weekday and zone (IMF-fixdate, or the obsolete RFC 850 and asctime forms).
  if (!/^[A-Za-z]{3}/.test(text)) return undefined;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.min(capMs, Math.max(0, at - now));
}
