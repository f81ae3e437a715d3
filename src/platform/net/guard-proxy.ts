// A local HTTP forward proxy between Chromium and the network, so that every
// connection the browser makes (page, subresources, redirects, WebSockets,
// WebRTC over TCP) is checked against the address policy on the IP and port
// actually connected to; Chromium has no hook of its own for that. Launch
// Chromium with
//   --proxy-server=<url> --proxy-bypass-list=<-loopback>
// (the second flag stops Chromium from connecting to localhost directly), as
// src/platform/browser/chromium-launch.ts does. The proxy refuses to connect to
// itself, like to every other listener of the service.
//
// A proxy pool configured by environment is used as `upstream`: this proxy
// still resolves and checks the target itself and then asks the upstream
// proxy for the checked IP (CONNECT ip:port, or an absolute URI naming the IP
// with the original Host header), so the upstream's own DNS never picks the
// address.
import http from 'node:http';
import net from 'node:net';
import type { Duplex } from 'node:stream';
import type { LookupAddress } from 'node:dns';
import { BlockedAddressError, type AddressPolicy } from './address-policy.ts';
import { checkHostAllowed, createGuardedLookup } from './guarded-lookup.ts';
import { urlPort } from './service-endpoints.ts';
import { BoundedMap } from '../bounded-map.ts';
import { splice } from './splice.ts';

export interface GuardProxyOptions {
  policy: AddressPolicy;
  /** http://user:pass@host:port of an upstream HTTP proxy. */
  upstream?: string;
  /** Interface to listen on; 127.0.0.1 unless set. */
  host?: string;
  /**
   * Host names refused (403) with their subdomains, before any lookup, and why: the ad and
   * tracker hosts of blockAds. Chromium then never reaches them, at no cost per page.
   */
  refusedHosts?: { hosts: readonly string[]; why: string };
}

export interface GuardProxy {
  /** http://127.0.0.1:<port>, for --proxy-server. */
  url: string;
  port: number;
  /** Why the proxy refused the host and port of `url` (a full BlockedAddressError message), if it did. */
  blockedReason(url: string): string | undefined;
  /**
   * Why the proxy could not reach `url` (DNS, refused, reset): its 502 answer
   * (plain HTTP) or failed tunnel (HTTPS) is not the site's own response.
   */
  failureReason(url: string): string | undefined;
  close(): Promise<void>;
}

interface Upstream {
  host: string;
  port: number;
  authorization?: string;
}

interface Refusal {
  status: number;
  message: string;
  blocked?: BlockedAddressError;
}

interface Target {
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

// Enough to explain the failures of the pages in flight; older hosts are forgotten first.
const MAX_REMEMBERED_HOSTS = 1000;

function parseUpstream(text: string): Upstream {
  const url = new URL(text);
  if (url.protocol !== 'http:') throw new Error(`The upstream proxy must be an http:// URL, got ${url.protocol}`);
  const upstream: Upstream = { host: unbracket(url.hostname), port: Number(url.port || 80) };
  if (url.username || url.password) {
    const credentials = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
    upstream.authorization = `Basic ${Buffer.from(credentials).toString('base64')}`;
  }
  return upstream;
}

function endToEndHeaders(headers: http.IncomingHttpHeaders): http.OutgoingHttpHeaders {
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

function authority(address: LookupAddress, port: number): string {
  return address.family === 6 ? `[${address.address}]:${port}` : `${address.address}:${port}`;
}

function parseConnectTarget(requestTarget: string): Target | undefined {
  const match = /^(?:\[([^\]]+)\]|([^:[\]]+)):(\d{1,5})$/.exec(requestTarget);
  const port = Number(match?.[3]);
  if (!match || port < 1 || port > 65535) return undefined;
  return { hostname: match[1] ?? match[2], port };
}

function unbracket(hostname: string): string {
  return hostname.replace(/^\[(.*)\]$/, '$1');
}

/** Whether `hostname` is one of `hosts` or a subdomain of one. */
export function hostListed(hostname: string, hosts: readonly string[]): boolean {
  const name = unbracket(hostname).toLowerCase().replace(/\.$/, '');
  return hosts.some((host) => name === host || name.endsWith(`.${host}`));
}

/** host:port, the unit the proxy refuses or fails to reach. */
function endpointKey(hostname: string, port: number): string {
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
function networkFailure(err: NodeJS.ErrnoException): string {
  const what = NETWORK_FAILURES[err.code ?? ''] ?? 'the connection failed';
  return `${what} (${err.message})`;
}

function refuseTunnel(socket: Duplex, { status, message }: Refusal): void {
  const body = `${message}\n`;
  socket.end(
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

export async function startGuardProxy(opts: GuardProxyOptions): Promise<GuardProxy> {
  // Completed with the proxy's own address once it listens.
  let policy: AddressPolicy = opts.policy;
  const upstream = opts.upstream ? parseUpstream(opts.upstream) : undefined;
  const blocked = new BoundedMap<string, BlockedAddressError>(MAX_REMEMBERED_HOSTS);
  const sockets = new Set<net.Socket>();

  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  };

  // Keyed by the URL (plain HTTP) or host:port (tunnels).
  const failures = new BoundedMap<string, string>(MAX_REMEMBERED_HOSTS);

  // Hosts of `refusedHosts` this proxy refused, by host:port, for blockedReason.
  const refusals = new BoundedMap<string, string>(MAX_REMEMBERED_HOSTS);

  // The checked addresses of the target, or why the client must be refused.
  const resolveTarget = async (hostname: string, port: number): Promise<LookupAddress[] | Refusal> => {
    const key = endpointKey(hostname, port);
    if (opts.refusedHosts && hostListed(hostname, opts.refusedHosts.hosts)) {
      const message = `${unbracket(hostname)} ${opts.refusedHosts.why}`;
      refusals.set(key, message);
      return { status: 403, message };
    }
    try {
      const addresses = await checkHostAllowed(hostname, policy, undefined, port);
      blocked.delete(key);
      return addresses;
    } catch (err) {
      if (!(err instanceof BlockedAddressError)) {
        return { status: 502, message: `Cannot resolve ${hostname}: ${(err as Error).message}` };
      }
      blocked.set(key, err);
      return { status: 403, message: err.message, blocked: err };
    }
  };

  // Connects to exactly the addresses that were checked: the lookup answers
  // from them instead of resolving again.
  const pinnedLookup = (addresses: LookupAddress[], port: number) => createGuardedLookup(policy, (_host, _options, cb) => cb(null, addresses), port);

  const openTunnel = (addresses: LookupAddress[], target: Target, onOpen: (socket: net.Socket, head: Buffer) => void, onFail: (message: string) => void) => {
    if (!upstream) {
      const socket = net.connect({ host: unbracket(target.hostname), port: target.port, lookup: pinnedLookup(addresses, target.port) });
      track(socket);
      const fail = (err: Error) => onFail(`Cannot connect to ${target.hostname}:${target.port}: ${networkFailure(err)}`);
      socket.once('error', fail);
      socket.once('connect', () => {
        socket.off('error', fail);
        onOpen(socket, Buffer.alloc(0));
      });
      return;
    }
    const path = authority(addresses[0], target.port);
    const req = http.request({
      host: upstream.host,
      port: upstream.port,
      method: 'CONNECT',
      path,
      agent: false,
      headers: { host: path, ...(upstream.authorization ? { 'proxy-authorization': upstream.authorization } : {}) },
    });
    req.on('socket', track);
    req.once('error', (err) => onFail(`The upstream proxy failed to connect to ${path}: ${networkFailure(err)}`));
    req.once('connect', (res, socket, head) => {
      if (res.statusCode === 200) {
        onOpen(socket as net.Socket, head);
      } else {
        socket.destroy();
        onFail(`The upstream proxy answered ${res.statusCode} to CONNECT ${path}`);
      }
    });
    req.end();
  };

  const handleConnect = async (req: http.IncomingMessage, client: Duplex, head: Buffer) => {
    client.on('error', () => client.destroy());
    const target = parseConnectTarget(req.url ?? '');
    if (!target) return refuseTunnel(client, { status: 400, message: `Not a host:port CONNECT target: ${req.url}` });
    const key = endpointKey(target.hostname, target.port);
    const addresses = await resolveTarget(target.hostname, target.port);
    if (!Array.isArray(addresses)) {
      // Only an unreachable target is a failure; a refusal is remembered as such.
      if (addresses.status === 502) failures.set(key, addresses.message);
      return refuseTunnel(client, addresses);
    }
    if (client.destroyed) return;
    openTunnel(
      addresses,
      target,
      (socket, upstreamHead) => {
        failures.delete(key);
        if (client.destroyed) return socket.destroy();
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        if (upstreamHead.length) client.write(upstreamHead);
        if (head.length) socket.write(head);
        splice(client, socket);
      },
      (message) => {
        failures.set(key, message);
        refuseTunnel(client, { status: 502, message });
      },
    );
  };

  const handleRequest = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const refuse = ({ status, message }: Refusal) => {
      if (status === 502 && req.url) failures.set(req.url, message);
      if (res.headersSent) return res.destroy();
      res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' }).end(`${message}\n`);
    };
    let url: URL;
    try {
      url = new URL(req.url ?? '');
    } catch {
      return refuse({ status: 400, message: 'This is a forward proxy: requests must name an absolute http:// URL' });
    }
    if (url.protocol !== 'http:') return refuse({ status: 400, message: `Only http:// URLs are forwarded; use CONNECT for ${url.protocol}` });
    const port = urlPort(url);
    const addresses = await resolveTarget(url.hostname, port);
    if (!Array.isArray(addresses)) {
      return refuse(addresses.blocked ? { status: 403, message: addresses.blocked.forUrl(url.href).message } : addresses);
    }
    const headers = { ...endToEndHeaders(req.headers), host: req.headers.host ?? url.host };
    const path = `${url.pathname}${url.search}`;
    const outgoing = upstream
      ? http.request({
          host: upstream.host,
          port: upstream.port,
          method: req.method,
          path: `http://${authority(addresses[0], port)}${path}`,
          agent: false,
          headers: upstream.authorization ? { ...headers, 'proxy-authorization': upstream.authorization } : headers,
        })
      : http.request({
          host: unbracket(url.hostname),
          port,
          method: req.method,
          path,
          agent: false,
          headers,
          lookup: pinnedLookup(addresses, port),
        });
    outgoing.on('socket', track);
    outgoing.on('error', (err) => refuse({ status: 502, message: `Cannot fetch ${url.href}: ${networkFailure(err)}` }));
    outgoing.on('response', (targetRes) => {
      failures.delete(req.url ?? '');
      res.writeHead(targetRes.statusCode ?? 502, targetRes.statusMessage, endToEndHeaders(targetRes.headers));
      targetRes.pipe(res);
      targetRes.on('error', () => res.destroy());
    });
    req.on('error', () => outgoing.destroy());
    res.on('close', () => outgoing.destroy());
    req.pipe(outgoing);
  };

  const server = http.createServer();
  server.on('connection', track);
  server.on('connect', (req, socket, head) => void handleConnect(req, socket, head));
  server.on('request', (req, res) => void handleRequest(req, res));

  const host = opts.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => resolve());
  });
  const { port } = server.address() as net.AddressInfo;
  policy = { ...policy, serviceEndpoints: [...(policy.serviceEndpoints ?? []), { name: 'guard proxy', host, port }] };

  return {
    url: `http://${net.isIPv6(host) ? `[${host}]` : host}:${port}`,
    port,
    blockedReason(url: string) {
      const parsed = URL.parse(url);
      if (!parsed) return undefined;
      const key = endpointKey(parsed.hostname, urlPort(parsed));
      return refusals.get(key) ?? blocked.get(key)?.forUrl(url).message;
    },
    failureReason(url: string) {
      const parsed = URL.parse(url);
      if (!parsed) return undefined;
      // Plain HTTP goes through the proxy per URL; everything else through a tunnel per host:port.
      if (parsed.protocol === 'http:') return failures.get(parsed.href);
      return failures.get(endpointKey(parsed.hostname, urlPort(parsed)));
    },
    close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      return closed;
    },
  };
}
