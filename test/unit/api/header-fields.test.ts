import { describe, expect, it } from 'vitest';
import { crawlRequestSchema } from '../../../src/jobs/crawl-request.ts';
import { scrapeOptionsSchema } from '../../../src/page/scrape-options.ts';
import { MAX_METADATA_DEPTH, webhookSchema } from '../../../src/jobs/webhooks/webhook-schema.ts';
import { MAX_HEADER_COUNT, MAX_HEADER_TOTAL_LENGTH, MAX_HEADER_VALUE_LENGTH } from '../../../src/platform/http/header-fields.ts';
import { rejectMessage } from './helpers.ts';

const HOOK = 'https://hooks.example.com/h';

describe('scrapeOptions.headers and webhook.headers follow HTTP', () => {
  it.each([
    [
      { Cookie: 'a=b\r\nX-Injected: 1' },
      'Header "Cookie" has a value with a character HTTP does not allow (CR, LF, NUL, another control character, or one above U+00FF)',
    ],
    [{ Cookie: 'a=b\nc' }, 'Header "Cookie" has a value with a character HTTP does not allow (CR, LF, NUL, another control character, or one above U+00FF)'],
    [{ 'X-A': 'nul\u0000' }, 'Header "X-A" has a value with a character HTTP does not allow (CR, LF, NUL, another control character, or one above U+00FF)'],
    [{ 'X-A': 'del\u007f' }, 'Header "X-A" has a value with a character HTTP does not allow (CR, LF, NUL, another control character, or one above U+00FF)'],
    [{ 'X-A': 'emoji ☕' }, 'Header "X-A" has a value with a character HTTP does not allow (CR, LF, NUL, another control character, or one above U+00FF)'],
    [{ 'Bad Name': 'v' }, 'Header name "Bad Name" is not a valid HTTP field name (letters, digits and !#$%&\'*+-.^_`|~ only)'],
    [{ 'X-A:': 'v' }, 'Header name "X-A:" is not a valid HTTP field name (letters, digits and !#$%&\'*+-.^_`|~ only)'],
    [{ '': 'v' }, 'Header name "" is not a valid HTTP field name (letters, digits and !#$%&\'*+-.^_`|~ only)'],
    [{ 'X-Ä': 'v' }, 'Header name "X-Ä" is not a valid HTTP field name (letters, digits and !#$%&\'*+-.^_`|~ only)'],
    [{ 'a\r\nb': 'v' }, 'Header name "a\\r\\nb" is not a valid HTTP field name (letters, digits and !#$%&\'*+-.^_`|~ only)'],
    [{ ['x'.repeat(257)]: 'v' }, `Header name "${'x'.repeat(64)}…" is longer than 256 characters`],
    [{ 'X-A': 'v'.repeat(MAX_HEADER_VALUE_LENGTH + 1) }, `Header "X-A" has a value longer than ${MAX_HEADER_VALUE_LENGTH} characters`],
    [{ Cookie: 'a', cookie: 'b' }, 'Header "cookie" is given more than once (names are case-insensitive)'],
    [{ Host: 'internal.test' }, 'The following headers are not allowed: host'],
    [{ 'Content-Length': '0', 'transfer-encoding': 'chunked' }, 'The following headers are not allowed: content-length, transfer-encoding'],
    [
      { Connection: 'close', 'Keep-Alive': '1', Upgrade: 'h2c', TE: 'trailers', Trailer: 'x', Expect: '100-continue' },
      'The following headers are not allowed: connection, keep-alive, upgrade, te, trailer, expect',
    ],
    [{ 'Proxy-Authorization': 'Basic x' }, 'The following headers are not allowed: proxy-authorization'],
  ])('rejects %j in both maps, naming the header', (headers, message) => {
    expect(rejectMessage(scrapeOptionsSchema, { headers }).error).toBe(`headers: ${message}`);
    expect(rejectMessage(webhookSchema, { url: HOOK, headers }).error).toBe(`headers: ${message}`);
  });

  it('bounds the number of headers and their total size', () => {
    const many = Object.fromEntries(Array.from({ length: MAX_HEADER_COUNT + 1 }, (_, i) => [`X-${i}`, 'v']));
    expect(rejectMessage(scrapeOptionsSchema, { headers: many }).error).toBe(
      `headers: At most ${MAX_HEADER_COUNT} headers are allowed, got ${MAX_HEADER_COUNT + 1}`,
    );
    const big = Object.fromEntries(Array.from({ length: 3 }, (_, i) => [`X-${i}`, 'v'.repeat(MAX_HEADER_VALUE_LENGTH)]));
    expect(rejectMessage(webhookSchema, { url: HOOK, headers: big }).error).toBe(
      `headers: Headers may total at most ${MAX_HEADER_TOTAL_LENGTH} characters (names and values), got ${3 * (3 + MAX_HEADER_VALUE_LENGTH)}`,
    );
  });

  it('keeps the webhook signature header reserved', () => {
    expect(rejectMessage(webhookSchema, { url: HOOK, headers: { 'X-Service-Signature': 'forged' } }).error).toBe(
      'headers: The following headers are not allowed: x-service-signature',
    );
    expect(scrapeOptionsSchema.parse({ headers: { 'X-Service-Signature': 'a page may want it' } }).headers).toEqual({
      'X-Service-Signature': 'a page may want it',
    });
  });

  it('accepts every token character in names, and tabs, spaces, visible ASCII and obs-text in values', () => {
    const headers = { "!#$%&'*+-.^_`|~09AZaz": 'v', Cookie: 'a=b; c="d e"\tf', 'X-Latin1': 'caf\u00e9', 'X-Empty': '', Authorization: 'Bearer t' };
    expect(scrapeOptionsSchema.parse({ headers }).headers).toEqual(headers);
    expect(webhookSchema.parse({ url: HOOK, headers }).headers).toEqual(headers);
  });

  it('reports the full path from the crawl body', () => {
    expect(rejectMessage(crawlRequestSchema, { url: 'https://example.com', scrapeOptions: { headers: { Cookie: 'a\r\nb' } } }).error).toMatch(
      /^scrapeOptions\.headers: Header "Cookie" has a value with a character HTTP does not allow/,
    );
    expect(rejectMessage(crawlRequestSchema, { url: 'https://example.com', webhook: { url: HOOK, headers: { host: 'x' } } }).error).toBe(
      'webhook.headers: The following headers are not allowed: host',
    );
  });
});

describe('webhook.metadata', () => {
  function nested(depth: number): unknown {
    let value: unknown = 'leaf';
    for (let i = 0; i < depth; i++) value = i % 2 ? { k: value } : [value];
    return value;
  }

  it(`accepts metadata nested ${MAX_METADATA_DEPTH} levels deep`, () => {
    expect(webhookSchema.parse({ url: HOOK, metadata: { a: nested(MAX_METADATA_DEPTH - 1) } }).metadata).toEqual({ a: nested(MAX_METADATA_DEPTH - 1) });
  });

  it('rejects deeper metadata with a 400 message instead of overflowing the stack', () => {
    expect(rejectMessage(webhookSchema, { url: HOOK, metadata: { a: nested(MAX_METADATA_DEPTH) } }).error).toBe(
      `metadata: webhook.metadata may be nested at most ${MAX_METADATA_DEPTH} levels deep`,
    );
    expect(rejectMessage(webhookSchema, { url: HOOK, metadata: { a: nested(100_000) } }).error).toBe(
      `metadata: webhook.metadata may be nested at most ${MAX_METADATA_DEPTH} levels deep`,
    );
  });
});
