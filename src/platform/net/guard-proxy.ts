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
// With proxy pools (`route`, or one fixed `upstream`), this proxy still
// resolves and checks the target itself and then asks the upstream proxy
// chosen for the target's host for the checked IP (CONNECT ip:port, or an absolute URI naming the IP
// with the original Host header), so the upstream's own DNS never picks the
// address.
import http from 'node:http';
import net from 'node:net';
import type { AddressPolicy } from './address-policy.ts';
import { urlPort } from './service-endpoints.ts';
import { endpointKey, parseUpstream } from './guard-proxy/endpoints.ts';
import { handleRequest } from './guard-proxy/forward.ts';
import { createProxyState, track, type UpstreamRoute } from './guard-proxy/targets.ts';
import { handleConnect } from './guard-proxy/tunnel.ts';

export { hostListed } from './guard-proxy/endpoints.ts';
export type { RoutedUpstream, UpstreamRoute } from './guard-proxy/targets.ts';

export interface GuardProxyOptions {
  policy: AddressPolicy;
  /** http://user:pass@host:port of an upstream HTTP proxy. */
  upstream?: string;
  /** Chooses an upstream proxy per request (the proxy pools), instead of `upstream`. */
  route?: UpstreamRoute;
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

export async function startGuardProxy(opts: GuardProxyOptions): Promise<GuardProxy> {
  const fixed = opts.upstream ? { id: 'upstream', upstream: parseUpstream(opts.upstream), failed: () => undefined } : undefined;
  const state = createProxyState(opts.policy, opts.route ?? (fixed && ((_host, tried) => (tried.size ? undefined : fixed))), opts.refusedHosts);
  const { blocked, failures, refusals, sockets } = state;

  const server = http.createServer();
  server.on('connection', (socket) => track(state, socket));
  server.on('connect', (req, socket, head) => void handleConnect(state, req, socket, head));
  server.on('request', (req, res) => void handleRequest(state, req, res));

  const host = opts.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => resolve());
  });
  const { port } = server.address() as net.AddressInfo;
  state.policy = { ...state.policy, serviceEndpoints: [...(state.policy.serviceEndpoints ?? []), { name: 'guard proxy', host, port }] };

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
