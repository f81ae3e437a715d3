import { isIP } from 'node:net';
import { z } from 'zod';

/**
 * Shared schema pieces for the v2 request bodies.
 *
 * `httpUrl` mirrors Firecrawl's `url` schema: the value is trimmed, `http://` is prepended when no
 * scheme is present, the result must parse with the WHATWG `URL` parser, use http(s), and name a host
 * that is an IP address, `localhost`, or a dotted name ending in a plausible top-level domain.
 * The output is the trimmed (and possibly scheme-prefixed) string, not `URL#href`.
 */

export const UNSUPPORTED_PROTOCOL_MESSAGE = 'URL uses unsupported protocol';
export const INVALID_TLD_MESSAGE = 'URL must have a valid top-level domain or be an IP address';
export const INVALID_URL_MESSAGE = 'Invalid URL';
export const UNSTORABLE_URL_MESSAGE = 'URL contains U+0000 or a lone UTF-16 surrogate, which no URL can hold';

/** What the URL parser would percent-encode but the job row (text, jsonb) cannot store as the URL was sent. */
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** `scheme://...`, or `scheme:` followed by something that is not a port number (`mailto:x`, `javascript:x`). */
function hasScheme(value: string): boolean {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return true;
  const m = /^([a-z][a-z0-9+.-]*):(.*)$/is.exec(value);
  if (!m) return false;
  // `example.com:8080/path` and `localhost:3000` carry a port, not a scheme.
  return !/^\d+(?:[/?#]|$)/.test(m[2]);
}

/** A plausible TLD: ASCII letters (2..63) or an IDNA A-label (`xn--...`); the URL parser has already punycoded hosts. */
const TLD_RE = /^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/i;
const LABEL_RE = /^(?!-)[a-z0-9_-]{1,63}$/i;

/** Returns null when the host is acceptable, otherwise the message to report. */
function checkHost(url: URL, raw: string): string | null {
  let host = url.hostname;
  if (host.startsWith('[') && host.endsWith(']')) {
    return isIP(host.slice(1, -1)) === 6 ? null : INVALID_TLD_MESSAGE;
  }
  if (isIP(host) === 4) {
    // The WHATWG parser rewrites `http://123` or `http://0x7f.1` into dotted quads; only accept an
    // IPv4 address that was written as one.
    return raw.toLowerCase().includes(`//${host}`) || raw.toLowerCase().includes(`@${host}`) ? null : INVALID_TLD_MESSAGE;
  }
  if (host.endsWith('.')) host = host.slice(0, -1);
  if (host.toLowerCase() === 'localhost') return null;
  const labels = host.split('.');
  if (labels.length < 2) return INVALID_TLD_MESSAGE;
  if (!labels.every((l) => LABEL_RE.test(l))) return INVALID_TLD_MESSAGE;
  return TLD_RE.test(labels[labels.length - 1]) ? null : INVALID_TLD_MESSAGE;
}

/** Normalises and validates a URL string; returns either the URL or the message of the failure. */
export function normaliseHttpUrl(input: string): { ok: true; url: string } | { ok: false; message: string } {
  let value = input.trim();
  if (value === '') return { ok: false, message: INVALID_URL_MESSAGE };
  if (UNSTORABLE.test(value)) return { ok: false, message: UNSTORABLE_URL_MESSAGE };
  if (!hasScheme(value)) value = `http://${value}`;
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    return { ok: false, message: INVALID_URL_MESSAGE };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    return { ok: false, message: UNSUPPORTED_PROTOCOL_MESSAGE };
  }
  const hostProblem = checkHost(parsed, value);
  if (hostProblem) return { ok: false, message: hostProblem };
  return { ok: true, url: value };
}

/** An http(s) URL string; see the module comment. */
export const httpUrl = z
  .string({
    error: (iss) => (iss.input === undefined ? 'url is required' : 'url must be a string'),
  })
  .transform((value, ctx) => {
    const result = normaliseHttpUrl(value);
    if (!result.ok) {
      ctx.issues.push({ code: 'custom', message: result.message, input: value });
      return z.NEVER;
    }
    return result.url;
  });

/** Added by the official SDKs (`js-sdk@x.y.z`, `python-sdk@x.y.z`) to every POST body. */
export const origin = z.string().max(256).optional();

/** Name of the integration that issued the request, if any. */
export const integration = z.string().max(256).nullable().optional();
