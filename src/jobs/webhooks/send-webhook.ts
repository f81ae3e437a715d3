// One delivery attempt of a webhook: POST the body, signed when the crawl has a
// secret, and sort the outcome into delivered, worth retrying, or final. What
// happens next (waiting, retrying, giving up) is the caller's business.
import { headerSyntaxProblem, isForbiddenHeader } from '../../platform/http/header-fields.ts';
import { BlockedAddressError, type AddressPolicy } from '../../platform/net/address-policy.ts';
import { FetchTimeoutError, guardedFetch, ResponseTooLargeError } from '../../platform/net/guarded-fetch.ts';
import { parseRetryAfter } from './retry-policy.ts';
import { SIGNATURE_HEADER, signWebhookBody } from './signature.ts';
import { RESERVED_WEBHOOK_HEADERS } from './webhook-schema.ts';

export interface WebhookRequest {
  url: string;
  /** Sent byte for byte; the signature covers exactly these bytes. */
  body: string;
  /** As stored with the event: validated when the crawl was requested, but rows older than that check may hold anything. */
  headers: Record<string, unknown>;
  secret?: string | null;
  timeoutMs: number;
  policy: AddressPolicy;
  userAgent?: string;
  signal?: AbortSignal;
}

export interface WebhookAttemptResult {
  outcome: 'delivered' | 'retry' | 'final';
  statusCode?: number;
  durationMs: number;
  error?: string;
  /** What the receiver asked for with Retry-After (429, 503). */
  retryAfterMs?: number;
}

type Outcome = Omit<WebhookAttemptResult, 'durationMs'>;

// Receivers' answers are ignored but for an error snippet: there is no reason to read much of them.
const MAX_RESPONSE_BYTES = 64 * 1024;
const SNIPPET_CHARS = 200;
const NETWORK_ERRORS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset by the receiver',
  EPIPE: 'connection closed by the receiver',
  ETIMEDOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ENOTFOUND: 'DNS lookup failed: no such host',
  EAI_AGAIN: 'DNS lookup failed temporarily',
};
// Node refuses to build such a request; sending it again will not change that.
const UNBUILDABLE_REQUEST_ERRORS = new Set(['ERR_INVALID_HTTP_TOKEN', 'ERR_INVALID_CHAR', 'ERR_HTTP_INVALID_HEADER_VALUE']);

function outcomeOfStatus(status: number): Outcome['outcome'] {
  if (status >= 200 && status < 300) return 'delivered';
  // 408 and 429 say "not now"; every other 4xx says the request itself is wrong, and resending it will not help.
  if (status === 408 || status === 429) return 'retry';
  if (status >= 400 && status < 500) return 'final';
  // 5xx, and 3xx: a redirect is not followed (the signed body was meant for this URL) but may be fixed by the receiver.
  return 'retry';
}

function statusError(status: number, headers: Record<string, string>, body: Buffer | undefined): string | undefined {
  if (status >= 200 && status < 300) return undefined;
  if (status >= 300 && status < 400 && headers.location) return `HTTP ${status}: redirect to ${headers.location} not followed`;
  const snippet = body?.toString('utf8').replace(/\s+/g, ' ').trim().slice(0, SNIPPET_CHARS);
  return snippet ? `HTTP ${status}: ${snippet}` : `HTTP ${status}`;
}

function fromResponse(status: number, headers: Record<string, string>, body: Buffer | undefined): Outcome {
  return {
    outcome: outcomeOfStatus(status),
    statusCode: status,
    error: statusError(status, headers, body),
    retryAfterMs: status === 429 || status === 503 ? parseRetryAfter(headers['retry-after']) : undefined,
  };
}

function fromError(err: unknown, url: string): Outcome {
  if (err instanceof BlockedAddressError) return { outcome: 'final', error: err.forUrl(url, 'deliver webhooks to').message };
  // The receiver answered; only its (ignored) body was too long.
  if (err instanceof ResponseTooLargeError) return fromResponse(err.status, {}, undefined);
  if (err instanceof FetchTimeoutError) return { outcome: 'retry', error: `timed out after ${err.timeoutMs} ms` };
  const { code, message } = err as NodeJS.ErrnoException;
  if (code && UNBUILDABLE_REQUEST_ERRORS.has(code)) return { outcome: 'final', error: `The webhook request cannot be built: ${message}` };
  const known = code ? NETWORK_ERRORS[code] : undefined;
  return { outcome: 'retry', error: known ?? (message?.split('\n')[0] || String(err)) };
}

function invalidUrl(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `Invalid webhook URL ${url}`;
  }
  return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? undefined : `Invalid webhook URL ${url}: only http and https are supported`;
}

/** Why the stored headers can never be sent, if they cannot. */
function unsendableHeaders(headers: Record<string, unknown>): string | undefined {
  for (const [name, value] of Object.entries(headers)) {
    const problem = headerSyntaxProblem(name, value);
    if (problem) return `The webhook request cannot be built: ${problem}`;
  }
  return undefined;
}

function requestHeaders(req: WebhookRequest): Record<string, string> {
  // Compression would only shrink a body that is ignored, and a receiver's broken encoding would fail a delivery.
  const headers: Record<string, string> = { 'content-type': 'application/json', 'accept-encoding': 'identity' };
  for (const [name, value] of Object.entries(req.headers)) {
    // The signature is the service's word alone, and framing and hop-by-hop fields are the connection's,
    // even if a caller's header slipped past validation (rows stored before it).
    if (!isForbiddenHeader(name, RESERVED_WEBHOOK_HEADERS)) headers[name] = value as string;
  }
  if (req.secret) headers[SIGNATURE_HEADER] = signWebhookBody(req.body, req.secret);
  return headers;
}

/**
 * Makes one delivery attempt. HTTP and network outcomes, a blocked address
 * included, come back as a result; only the caller's `signal` aborting throws.
 */
export async function sendWebhook(req: WebhookRequest): Promise<WebhookAttemptResult> {
  const started = performance.now();
  const finish = (outcome: Outcome): WebhookAttemptResult => ({ ...outcome, durationMs: Math.round(performance.now() - started) });
  const badUrl = invalidUrl(req.url);
  if (badUrl) return finish({ outcome: 'final', error: badUrl });
  const badHeaders = unsendableHeaders(req.headers);
  if (badHeaders) return finish({ outcome: 'final', error: badHeaders });
  try {
    const res = await guardedFetch(req.url, {
      method: 'POST',
      body: req.body,
      headers: requestHeaders(req),
      policy: req.policy,
      userAgent: req.userAgent,
      timeoutMs: req.timeoutMs,
      maxBytes: MAX_RESPONSE_BYTES,
      signal: req.signal,
    });
    return finish(fromResponse(res.status, res.headers, res.body));
  } catch (err) {
    // Cancellation is the caller's own doing, not a delivery outcome.
    if (req.signal?.aborted) throw err;
    return finish(fromError(err, req.url));
  }
}
