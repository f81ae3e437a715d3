// HTTP for the requests the service makes outside the browser (robots.txt,
// sitemaps, webhook deliveries). Every hop goes through the guarded lookup, so
// the address checked is the address connected to, and redirects are followed
// here rather than by a library so that each hop is checked too.
import type { LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction, type Socket } from 'node:net';
import tls from 'node:tls';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { deadline } from '../deadline.ts';
import { BlockedAddressError, type AddressPolicy } from './address-policy.ts';
import { checkHostAllowed, createGuardedLookup } from './guarded-lookup.ts';
import { urlPort } from './service-endpoints.ts';
import { authority, type Upstream } from './guard-proxy/endpoints.ts';
import { proxyAuthorization, proxyFailure, tunnelThrough } from './proxy-pools/upstream-tunnel.ts';

export interface GuardedFetchOptions {
  policy: AddressPolicy;
  /** GET by default. A POST never follows redirects: its body was meant for the URL it was sent to. */
  method?: 'GET' | 'POST';
  body?: string | Buffer;
  headers?: Record<string, string>;
  userAgent?: string;
  /** For the whole fetch, redirects included. */
  timeoutMs?: number;
  /** Cap on the body, both as received and once decoded. */
  maxBytes?: number;
  /** Keep the first maxBytes of a longer body instead of refusing it (to read a file's header); asks for no encoding. */
  truncate?: boolean;
  maxRedirects?: number;
  insecureTls?: boolean;
  signal?: AbortSignal;
  /**
   * Keep-alive agents whose sockets may be reused, for fetches that all run under one policy (a
   * socket was checked when it connected, to the host and port it stays bound to). Without them
   * every hop opens a connection of its own.
   */
  agents?: ConnectionAgents;
  /**
   * An upstream proxy every hop goes through: the target is still resolved and checked here, and
   * the proxy is asked for the checked IP. Its own failures (connect error, 407) throw ProxyFailureError.
   */
  proxy?: Upstream;
}

export interface ConnectionAgents {
  http: http.Agent;
  https: https.Agent;
}

/** Agents for `agents`: idle sockets are kept a few seconds and never hold the process open. */
export function keepAliveAgents(): ConnectionAgents {
  const opts = { keepAlive: true, maxFreeSockets: 64, scheduling: 'lifo' as const, timeout: 15_000 };
  return { http: new http.Agent(opts), https: new https.Agent(opts) };
}

export interface GuardedFetchResult {
  status: number;
  /** As the server sent them (lower-case names, repeated values joined); `body` is already decoded. */
  headers: Record<string, string>;
  body: Buffer;
  finalUrl: string;
  /** Every URL redirected to, in order; the last one is `finalUrl`. */
  redirects: string[];
}

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_BYTES = 50 * 1024 * 1024;
const DEFAULT_MAX_REDIRECTS = 10;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
// Credentials meant for one origin must not be replayed to whatever it redirects to.
const ORIGIN_BOUND_HEADERS = ['authorization', 'cookie'];

const decoders: Record<string, (buf: Buffer, opts: zlib.ZlibOptions) => Promise<Buffer>> = {
  gzip: promisify(zlib.gunzip),
  'x-gzip': promisify(zlib.gunzip),
  // "deflate" is meant to be zlib-wrapped, but some servers send raw deflate;
  // a zlib stream's first byte always names method 8 in its low nibble.
  deflate: (buf, opts) => ((buf[0] & 0x0f) === 8 ? promisify(zlib.inflate)(buf, opts) : promisify(zlib.inflateRaw)(buf, opts)),
  br: promisify(zlib.brotliDecompress),
};

/** The body went past maxBytes; `status` says what the server answered all the same. */
export class ResponseTooLargeError extends Error {
  readonly status: number;

  constructor(url: string, maxBytes: number, status: number) {
    super(`The response of ${url} is larger than the ${maxBytes}-byte limit`);
    this.name = 'ResponseTooLargeError';
    this.status = status;
  }
}

export class FetchTimeoutError extends Error {
  readonly timeoutMs: number;

  constructor(url: string, timeoutMs: number, cause: unknown) {
    super(`Timed out after ${timeoutMs} ms fetching ${url}`, { cause });
    this.name = 'FetchTimeoutError';
    this.timeoutMs = timeoutMs;
  }
}

function parseTarget(url: string): URL {
  const parsed = new URL(url);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new Error(`Refused to fetch ${url}: only http and https URLs can be fetched`);
  }
  return parsed;
}

function flattenHeaders(headers: http.IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

async function decodeBody(res: RawResponse, url: string, maxBytes: number): Promise<Buffer> {
  // Encodings are listed in the order they were applied, so they are undone from the end.
  const encodings = (res.headers['content-encoding'] ?? '')
    .split(',')
    .map((e) => e.trim().toLowerCase())
    .filter((e) => e !== '' && e !== 'identity')
    .reverse();
  let decoded = res.body;
  for (const encoding of encodings) {
    const decode = decoders[encoding];
    if (!decode) throw new Error(`Cannot decode the response of ${url}: unsupported Content-Encoding "${encoding}"`);
    try {
      decoded = await decode(decoded, { maxOutputLength: maxBytes });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw new ResponseTooLargeError(url, maxBytes, res.status);
      throw new Error(`Cannot decode the ${encoding} response of ${url}: ${(err as Error).message}`, { cause: err });
    }
  }
  return decoded;
}

/** How a hop connects: to the target (every address checked by `lookup`), or to a proxy asked for the checked `address`. */
type Route = { lookup: LookupFunction } | { proxy: Upstream; address: LookupAddress };

/** The request options of a hop through `proxy`: an absolute URI naming the IP (http), or a TLS session over a tunnel (https). */
async function proxiedRequest(
  url: URL,
  headers: Record<string, string>,
  proxy: Upstream,
  address: LookupAddress,
  opts: GuardedFetchOptions,
  signal: AbortSignal,
) {
  const port = urlPort(url);
  const common = { method: opts.method ?? 'GET', signal, headers: { ...headers, host: url.host } };
  if (url.protocol === 'http:') {
    return {
      ...common,
      host: proxy.host,
      port: proxy.port,
      path: `http://${authority(address, port)}${url.pathname}${url.search}`,
      agent: false as const,
      headers: { ...common.headers, ...proxyAuthorization(proxy) },
    };
  }
  const { socket, head } = await tunnelThrough(proxy, address, port, signal);
  if (head.length) socket.unshift(head);
  const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const secured = tls.connect({
    socket,
    servername: isIP(hostname) ? undefined : hostname,
    rejectUnauthorized: !opts.insecureTls,
    ALPNProtocols: ['http/1.1'],
  });
  return { ...common, path: `${url.pathname}${url.search}`, createConnection: (): Socket => secured };
}

async function requestOnce(
  url: URL,
  headers: Record<string, string>,
  route: Route,
  opts: GuardedFetchOptions,
  maxBytes: number,
  signal: AbortSignal,
): Promise<RawResponse> {
  const proxied = 'proxy' in route ? await proxiedRequest(url, headers, route.proxy, route.address, opts, signal) : undefined;
  return new Promise((resolve, reject) => {
    const client = url.protocol === 'https:' && !proxied ? https : http;
    const req = client.request(
      proxied ?? {
        host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        method: opts.method ?? 'GET',
        headers,
        lookup: (route as { lookup: LookupFunction }).lookup,
        signal,
        // Without agents of the caller's, a fresh connection per hop: a shared pool's sockets were checked under other policies.
        agent: opts.agents ? opts.agents[url.protocol === 'https:' ? 'https' : 'http'] : false,
        rejectUnauthorized: !opts.insecureTls,
      },
    );
    // Over plain HTTP the proxy answers for the target (a 502): an error here is the proxy's own.
    req.on('error', (err) =>
      reject('proxy' in route && url.protocol === 'http:' && !signal.aborted ? proxyFailure(route.proxy, `failed: ${err.message}`) : err),
    );
    req.on('response', (res) => {
      if ('proxy' in route && url.protocol === 'http:' && res.statusCode === 407) {
        req.destroy();
        return reject(proxyFailure(route.proxy, 'refused the credentials configured for it (407)'));
      }
      // Rejecting before destroying: a body already buffered in full would
      // otherwise still reach 'end' and resolve truncated.
      const refuseTooLarge = () => {
        reject(new ResponseTooLargeError(url.href, maxBytes, res.statusCode ?? 0));
        req.destroy();
      };
      const chunks: Buffer[] = [];
      const done = () => resolve({ status: res.statusCode ?? 0, headers: flattenHeaders(res.headers), body: Buffer.concat(chunks) });
      if (!opts.truncate && Number(res.headers['content-length']) > maxBytes) return refuseTooLarge();
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        if (size > maxBytes) return;
        size += chunk.length;
        if (size <= maxBytes) return void chunks.push(chunk);
        if (!opts.truncate) return refuseTooLarge();
        chunks.push(chunk.subarray(0, chunk.length - (size - maxBytes)));
        done();
        req.destroy();
      });
      res.on('error', reject);
      res.on('close', () => {
        if (!res.complete) reject(new Error(`The connection to ${url.host} closed before the response of ${url.href} was complete`));
      });
      res.on('end', done);
    });
    req.end(opts.body);
  });
}

async function follow(url: string, opts: GuardedFetchOptions, signal: AbortSignal): Promise<GuardedFetchResult> {
  const maxBytes = opts.maxBytes ?? DEFAULT_MAX_BYTES;
  const maxRedirects = opts.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  const headers: Record<string, string> = { 'accept-encoding': opts.truncate ? 'identity' : 'gzip, deflate, br' };
  if (opts.userAgent) headers['user-agent'] = opts.userAgent;
  for (const [name, value] of Object.entries(opts.headers ?? {})) headers[name.toLowerCase()] = value;
  // Ours over any the caller passed: a wrong length truncates the body or stalls the request.
  if (opts.body !== undefined) headers['content-length'] = String(Buffer.byteLength(opts.body));
  const followRedirects = (opts.method ?? 'GET') === 'GET';
  const redirects: string[] = [];
  let current = parseTarget(url);
  for (;;) {
    try {
      let route: Route;
      if (opts.proxy) {
        // The proxy connects where it is told: the target is resolved and checked here, and the proxy told the IP.
        const [address] = await checkHostAllowed(current.hostname, opts.policy, undefined, urlPort(current));
        route = { proxy: opts.proxy, address };
      } else {
        // Node connects to a literal IP without calling `lookup`, so it is checked here.
        if (isIP(current.hostname.replace(/^\[(.*)\]$/, '$1'))) await checkHostAllowed(current.hostname, opts.policy, undefined, urlPort(current));
        // Per hop: the lookup checks the port the hop connects to.
        route = { lookup: createGuardedLookup(opts.policy, undefined, urlPort(current)) };
      }
      const res = await requestOnce(current, headers, route, opts, maxBytes, signal);
      const location = followRedirects && REDIRECT_STATUSES.has(res.status) ? res.headers.location : undefined;
      if (location === undefined) {
        const body = await decodeBody(res, current.href, maxBytes);
        return { status: res.status, headers: res.headers, body, finalUrl: current.href, redirects };
      }
      if (redirects.length >= maxRedirects) throw new Error(`Too many redirects fetching ${url}: more than ${maxRedirects}`);
      const next = parseTarget(new URL(location, current).href);
      if (next.origin !== current.origin) for (const name of ORIGIN_BOUND_HEADERS) delete headers[name];
      redirects.push(next.href);
      current = next;
    } catch (err) {
      if (err instanceof BlockedAddressError && !err.url) throw err.forUrl(current.href);
      throw err;
    }
  }
}

/**
 * Requests `url` (GET unless `method` says otherwise), following a GET's
 * redirects, with every connection checked against the address policy. Non-2xx
 * responses are returned, not thrown; blocked addresses throw
 * BlockedAddressError, a body over maxBytes ResponseTooLargeError and running
 * out of time FetchTimeoutError.
 */
export async function guardedFetch(url: string, opts: GuardedFetchOptions): Promise<GuardedFetchResult> {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const limit = deadline(timeoutMs, opts.signal);
  try {
    return await follow(url, opts, limit.signal);
  } catch (err) {
    if (limit.expired && !opts.signal?.aborted) throw new FetchTimeoutError(url, timeoutMs, err);
    throw err;
  } finally {
    limit.clear();
  }
}
