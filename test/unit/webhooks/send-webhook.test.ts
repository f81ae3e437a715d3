import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AddressPolicy } from '../../../src/platform/net/address-policy.ts';
import { sendWebhook, type WebhookRequest } from '../../../src/jobs/webhooks/send-webhook.ts';
import { verifyWebhookSignature } from '../../../src/jobs/webhooks/signature.ts';

const POLICY: AddressPolicy = { allowPrivate: false, allowlist: ['127.0.0.1'] };
const SECRET = 'whsec_test';
// Non-ASCII and odd spacing: the signature must cover these exact bytes, not a re-serialisation.
const BODY = '{"type":"crawl.page",  "data":{"title":"Café ☕"}}';

interface Received {
  path: string;
  method: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

let server: http.Server;
let port: number;
const received: Received[] = [];

function respond(path: string, res: http.ServerResponse): void {
  const status = /^\/status\/(\d{3})$/.exec(path);
  if (status) {
    res.writeHead(Number(status[1])).end(`failure\n  ${status[1]}`);
    return;
  }
  switch (path) {
    case '/ok':
      res.end('thanks');
      return;
    case '/no-content':
      res.writeHead(204).end();
      return;
    case '/too-many':
      res.writeHead(429, { 'retry-after': '7' }).end();
      return;
    case '/unavailable':
      res.writeHead(503, { 'retry-after': '3' }).end('down for maintenance');
      return;
    case '/redirect':
      res.writeHead(302, { location: '/ok' }).end();
      return;
    case '/big-ok':
      res.end(Buffer.alloc(1_000_000, 'a'));
      return;
    case '/long-error':
      res.writeHead(500).end('x'.repeat(1000));
      return;
    case '/stall':
      return;
    default:
      res.writeHead(404).end();
  }
}

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ path: req.url!, method: req.method!, headers: req.headers, body: Buffer.concat(chunks) });
      respond(req.url!, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

afterEach(() => {
  received.length = 0;
});

function send(path: string, overrides: Partial<WebhookRequest> = {}) {
  return sendWebhook({ url: `http://127.0.0.1:${port}${path}`, body: BODY, headers: {}, timeoutMs: 5000, policy: POLICY, ...overrides });
}

describe('sendWebhook', () => {
  it('POSTs the body as JSON, signed over the exact bytes received', async () => {
    const result = await send('/ok', { secret: SECRET, userAgent: 'webhook-test/1' });
    expect(result).toMatchObject({ outcome: 'delivered', statusCode: 200 });
    expect(result.error).toBeUndefined();
    expect(received).toHaveLength(1);
    const [{ method, headers, body }] = received;
    expect(method).toBe('POST');
    expect(body.equals(Buffer.from(BODY, 'utf8'))).toBe(true);
    expect(headers['content-type']).toBe('application/json');
    expect(headers['content-length']).toBe(String(Buffer.byteLength(BODY)));
    expect(headers['user-agent']).toBe('webhook-test/1');
    expect(headers['x-service-signature']).toBe(`sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`);
    expect(verifyWebhookSignature(body, headers['x-service-signature'] as string, SECRET)).toBe(true);
  });

  it('sends no signature without a secret, and the caller headers either way', async () => {
    for (const secret of [undefined, null, '']) {
      await send('/ok', { secret, headers: { Authorization: 'Bearer abc', 'X-Custom': 'yes' } });
    }
    expect(received).toHaveLength(3);
    for (const { headers } of received) {
      expect(headers['x-service-signature']).toBeUndefined();
      expect(headers).toMatchObject({ authorization: 'Bearer abc', 'x-custom': 'yes' });
    }
  });

  it('never lets a caller header stand in for the signature', async () => {
    await send('/ok', { headers: { 'x-service-signature': 'sha256=forged' } });
    await send('/ok', { headers: { 'X-SERVICE-SIGNATURE': 'sha256=forged' }, secret: SECRET });
    expect(received[0].headers['x-service-signature']).toBeUndefined();
    expect(verifyWebhookSignature(received[1].body, received[1].headers['x-service-signature'] as string, SECRET)).toBe(true);
  });

  it.each([
    ['/ok', 200],
    ['/no-content', 204],
  ])('counts %s as delivered', async (path, statusCode) => {
    expect(await send(path)).toMatchObject({ outcome: 'delivered', statusCode });
  });

  it('counts a 2xx as delivered however long its (ignored) body', async () => {
    expect(await send('/big-ok')).toMatchObject({ outcome: 'delivered', statusCode: 200 });
  });

  it.each([
    [500, 'retry'],
    [502, 'retry'],
    [408, 'retry'],
    [410, 'final'],
    [400, 'final'],
    [404, 'final'],
  ])('classifies HTTP %i as %s, with the body in the error', async (code, outcome) => {
    expect(await send(`/status/${code}`)).toMatchObject({ outcome, statusCode: code, error: `HTTP ${code}: failure ${code}` });
  });

  it('keeps the first 200 characters of an error body', async () => {
    expect((await send('/long-error')).error).toBe(`HTTP 500: ${'x'.repeat(200)}`);
  });

  it('retries a 429 no sooner than its Retry-After', async () => {
    const result = await send('/too-many');
    expect(result).toMatchObject({ outcome: 'retry', statusCode: 429, retryAfterMs: 7000, error: 'HTTP 429' });
  });

  it('honours Retry-After on a 503', async () => {
    expect(await send('/unavailable')).toMatchObject({ outcome: 'retry', statusCode: 503, retryAfterMs: 3000 });
  });

  it('does not follow a redirect: the signed body was meant for this URL', async () => {
    const result = await send('/redirect', { secret: SECRET });
    expect(result).toMatchObject({ outcome: 'retry', statusCode: 302, error: 'HTTP 302: redirect to /ok not followed' });
    expect(received.map((r) => r.path)).toEqual(['/redirect']);
  });

  it('retries after a timeout, reporting it', async () => {
    const result = await send('/stall', { timeoutMs: 300 });
    expect(result).toMatchObject({ outcome: 'retry', error: 'timed out after 300 ms' });
    expect(result.statusCode).toBeUndefined();
    expect(result.durationMs).toBeGreaterThanOrEqual(290);
    expect(result.durationMs).toBeLessThan(2000);
  });

  it('retries when the connection is refused', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const result = await sendWebhook({ url: `http://127.0.0.1:${closedPort}/`, body: BODY, headers: {}, timeoutMs: 5000, policy: POLICY });
    expect(result).toMatchObject({ outcome: 'retry', error: 'connection refused' });
  });

  it('gives up at once on an address the default policy refuses', async () => {
    const result = await send('/ok', { policy: { allowPrivate: false, allowlist: [] } });
    expect(result.outcome).toBe('final');
    expect(result.error).toMatch(/127\.0\.0\.1 is a loopback address/);
    expect(received).toEqual([]);
  });

  it('gives up at once on a URL that is not http(s)', async () => {
    expect(await sendWebhook({ url: 'ftp://example.com/hook', body: BODY, headers: {}, timeoutMs: 5000, policy: POLICY })).toMatchObject({
      outcome: 'final',
      error: 'Invalid webhook URL ftp://example.com/hook: only http and https are supported',
    });
  });

  // Rows stored before headers were validated may hold what HTTP cannot carry: no attempt can ever succeed.
  it.each([
    [{ 'X-Token': 'a\r\nX-Injected: 1' }, /^The webhook request cannot be built: Header "X-Token" has a value with a character HTTP does not allow/],
    [{ 'X-Token': 'a\u0000b' }, /^The webhook request cannot be built: Header "X-Token" has a value/],
    [{ 'Bad Name': 'v' }, /^The webhook request cannot be built: Header name "Bad Name" is not a valid HTTP field name/],
    [{ 'X-Count': 7 }, /^The webhook request cannot be built: Header "X-Count" must have a string value/],
  ])('gives up at once on stored headers %j that HTTP cannot carry, sending nothing', async (headers, error) => {
    const result = await send('/ok', { headers });
    expect(result.outcome).toBe('final');
    expect(result.error).toMatch(error);
    expect(received).toEqual([]);
  });

  it('leaves out stored framing and hop-by-hop headers instead of sending them', async () => {
    const result = await send('/ok', {
      headers: { Host: 'other.test', 'Content-Length': '1', Connection: 'upgrade', 'Proxy-Authorization': 'Basic x', 'X-Kept': 'yes' },
    });
    expect(result.outcome).toBe('delivered');
    const [{ headers }] = received;
    expect(headers.host).toBe(`127.0.0.1:${port}`);
    expect(headers['content-length']).toBe(String(Buffer.byteLength(BODY)));
    expect(headers['proxy-authorization']).toBeUndefined();
    expect(headers['x-kept']).toBe('yes');
  });

  it('throws when the caller cancels, rather than reporting a delivery outcome', async () => {
    await expect(send('/stall', { signal: AbortSignal.timeout(100) })).rejects.toThrow();
  });
});
