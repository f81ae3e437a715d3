// Header fields a caller hands us to send on its behalf: scrapeOptions.headers
// (to every page the browser loads) and webhook.headers (to the receiver). They
// are checked against HTTP's grammar when the request arrives, because a field
// HTTP cannot carry fails only later, far from the caller (a batch, or a webhook
// retried for a day), and CR/LF in a value would be header injection.
import { z } from 'zod';

export const MAX_HEADER_COUNT = 50;
export const MAX_HEADER_NAME_LENGTH = 256;
export const MAX_HEADER_VALUE_LENGTH = 8192;
/** Names and values together; 16 KiB is the request-head size many servers (Node among them) accept. */
export const MAX_HEADER_TOTAL_LENGTH = 16_384;

/** RFC 9110 5.6.2: a field name is a token. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** RFC 9110 5.5: VCHAR, obs-text, SP and HTAB; no CR, LF, NUL or other controls (and nothing above U+00FF, which is not a byte). */
const FIELD_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/**
 * Fields the connection or the service owns: message framing, hop-by-hop fields (RFC 9110 7.6.1),
 * the target host, and anything meant for a proxy (the service's own CRAWL_PROXY_URL included).
 */
const FORBIDDEN_NAMES = new Set(['host', 'content-length', 'transfer-encoding', 'connection', 'keep-alive', 'upgrade', 'te', 'trailer', 'expect']);
const FORBIDDEN_PREFIX = 'proxy-';

/** The name as it can be quoted in a message: escaped, and short. */
export function quoteHeaderName(name: string): string {
  return JSON.stringify(name.length > 64 ? `${name.slice(0, 64)}…` : name);
}

export function isForbiddenHeader(name: string, reserved: readonly string[] = []): boolean {
  const lower = name.toLowerCase();
  return FORBIDDEN_NAMES.has(lower) || lower.startsWith(FORBIDDEN_PREFIX) || reserved.includes(lower);
}

/** Why HTTP cannot carry this field, or undefined when it can (whether we let the caller set it is another question). */
export function headerSyntaxProblem(name: string, value: unknown): string | undefined {
  if (name.length > MAX_HEADER_NAME_LENGTH) return `Header name ${quoteHeaderName(name)} is longer than ${MAX_HEADER_NAME_LENGTH} characters`;
  if (!TOKEN.test(name)) {
    return `Header name ${quoteHeaderName(name)} is not a valid HTTP field name (letters, digits and !#$%&'*+-.^_\`|~ only)`;
  }
  if (typeof value !== 'string') return `Header ${quoteHeaderName(name)} must have a string value`;
  if (value.length > MAX_HEADER_VALUE_LENGTH) return `Header ${quoteHeaderName(name)} has a value longer than ${MAX_HEADER_VALUE_LENGTH} characters`;
  if (!FIELD_VALUE.test(value)) {
    return `Header ${quoteHeaderName(name)} has a value with a character HTTP does not allow (CR, LF, NUL, another control character, or one above U+00FF)`;
  }
  return undefined;
}

/**
 * A map of header names to values, as a caller may send it: valid names and values, within the
 * size limits, no name twice (in any case), none of the forbidden or `reserved` (lower-case) names.
 */
export function headerMapSchema(reserved: readonly string[] = []) {
  return z.record(z.string(), z.string()).superRefine((headers, ctx) => {
    const entries = Object.entries(headers);
    const fail = (message: string) => ctx.addIssue({ code: 'custom', message, input: headers });
    if (entries.length > MAX_HEADER_COUNT) return fail(`At most ${MAX_HEADER_COUNT} headers are allowed, got ${entries.length}`);
    const forbidden = [...new Set(entries.map(([name]) => name.toLowerCase()).filter((name) => isForbiddenHeader(name, reserved)))];
    if (forbidden.length > 0) return fail(`The following headers are not allowed: ${forbidden.join(', ')}`);
    const seen = new Set<string>();
    let total = 0;
    for (const [name, value] of entries) {
      const problem = headerSyntaxProblem(name, value);
      if (problem) return fail(problem);
      if (seen.has(name.toLowerCase())) return fail(`Header ${quoteHeaderName(name)} is given more than once (names are case-insensitive)`);
      seen.add(name.toLowerCase());
      total += name.length + value.length;
    }
    if (total > MAX_HEADER_TOTAL_LENGTH) fail(`Headers may total at most ${MAX_HEADER_TOTAL_LENGTH} characters (names and values), got ${total}`);
  });
}
