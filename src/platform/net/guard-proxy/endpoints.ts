// The guard proxy's pure parts: reading the upstream proxy's URL and a CONNECT target,
// naming an endpoint, the headers that go end to end, and a failure in words.
import type http from 'node:http';
import type { LookupAddress } from 'node:dns';

export interface Upstream {
  host: string;
  port: number;
  authorization?: string;
}

export interface Target {
  hostname: string;
  port: number;
}

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

export function parseUpstream(text: string): Upstream {
  const url = new URL(text);
  if (url.protocol !== 'http:') throw new Error(`The upstream proxy must be an http:// URL, got ${url.protocol}`);
  const upstream: Upstream = { host: unbracket(url.hostname), port: Number(url.port || 80) };
  if (url.username || url.password) {
    const credentials = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
    upstream.authorization = `Basic ${Buffer.from(credentials).toString('base64')}`;
  }
  return upstream;
}

export function endToEndHeaders(headers: http.IncomingHttpHeaders): http.OutgoingHttpHeaders {
  const named = new Set(
    String(headers.connection ?? '')
      .split(',')
      .map((h) => h.trim().toLowerCase()),
  );
  const kept: http.OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(name) && !named.has(name)) kept[name] = value;
  }
  return kept;
}

export function authority(address: LookupAddress, port: number): string {
  return address.family === 6 ? `[${address.address}]:${port}` : `${address.address}:${port}`;
}

export function parseConnectTarget(requestTarget: string): Target | undefined {
  const match = /^(?:\[([^\]]+)\]|([^:[\]]+)):(\d{1,5})$/.exec(requestTarget);
  const port = Number(match?.[3]);
  if (!match || port < 1 || port > 65535) return undefined;
  return { hostname: match[1] ?? match[2], port };
}

export function unbracket(hostname: string): string {
  return hostname.replace(/^\[(.*)\]$/, '$1');
}

/** Whether `hostname` is one of `hosts` or a subdomain of one. */
export function hostListed(hostname: string, hosts: readonly string[]): boolean {
  const name = unbracket(hostname).toLowerCase().replace(/\.$/, '');
  return hosts.some((host) => name === host || name.endsWith(`.${host}`));
}

/** host:port, the unit the proxy refuses or fails to reach. */
export function endpointKey(hostname: string, port: number): string {
  return `${unbracket(hostname).toLowerCase()}:${port}`;
}

// What a page's error says about a connection the proxy could not make, in words before codes.
const NETWORK_FAILURES: Record<string, string> = {
  ECONNREFUSED: 'the connection was refused',
  ECONNRESET: 'the server closed the connection without answering',
  ETIMEDOUT: 'the connection timed out',
  EHOSTUNREACH: 'the host is unreachable',
  ENETUNREACH: 'the network is unreachable',
};

/** "<what happened> (<Node's message>)": readable, with the code still there for whoever looks closer. */
export function networkFailure(err: NodeJS.ErrnoException): string {
  const what = NETWORK_FAILURES[err.code ?? ''] ?? 'the connection failed';
  return `${what} (${err.message})`;
}
