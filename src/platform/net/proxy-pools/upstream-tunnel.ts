// Reaching a checked address through an upstream proxy: a CONNECT tunnel to the IP
// (never the host name, so the proxy's DNS does not pick the address), and what a
// failure of the proxy itself looks like, so that the proxy is benched rather
// than the page failed.
import http from 'node:http';
import type net from 'node:net';
import type { LookupAddress } from 'node:dns';
import { authority, networkFailure, type Upstream } from '../guard-proxy/endpoints.ts';

/** The proxy, not the target, failed: unreachable, refused our credentials (407), or broke the tunnel. */
export class ProxyFailureError extends Error {
  constructor(
    readonly proxy: string,
    message: string,
  ) {
    super(message);
    this.name = 'ProxyFailureError';
  }
}

function proxyLabel(upstream: Upstream): string {
  return upstream.host.includes(':') ? `[${upstream.host}]:${upstream.port}` : `${upstream.host}:${upstream.port}`;
}

/** Headers that authenticate to the upstream proxy, if it has credentials. */
export function proxyAuthorization(upstream: Upstream): Record<string, string> {
  return upstream.authorization ? { 'proxy-authorization': upstream.authorization } : {};
}

/** The error of a request to the proxy itself (a connect error or a 407), worded without its credentials. */
export function proxyFailure(upstream: Upstream, what: string): ProxyFailureError {
  return new ProxyFailureError(proxyLabel(upstream), `The proxy ${proxyLabel(upstream)} ${what}`);
}

/** A proxy that has not answered a CONNECT by then is taken for a failed one: benched, and the tunnel tried through another. */
export const CONNECT_TIMEOUT_MS = 20_000;

/** Opens a tunnel through `upstream` to the checked `address`:`port`; rejects with ProxyFailureError when the proxy fails. */
export function tunnelThrough(upstream: Upstream, address: LookupAddress, port: number, signal?: AbortSignal): Promise<{ socket: net.Socket; head: Buffer }> {
  const path = authority(address, port);
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: upstream.host,
      port: upstream.port,
      method: 'CONNECT',
      path,
      agent: false,
      signal,
      headers: { host: path, ...proxyAuthorization(upstream) },
    });
    req.setTimeout(CONNECT_TIMEOUT_MS, () => req.destroy(new Error(`no answer to CONNECT within ${CONNECT_TIMEOUT_MS} ms`)));
    req.once('error', (err) => reject(signal?.aborted ? err : proxyFailure(upstream, `failed: ${networkFailure(err)}`)));
    req.once('connect', (res, socket, head) => {
      socket.setTimeout(0);
      if (res.statusCode === 200) return resolve({ socket, head });
      socket.destroy();
      // 407: our credentials were refused. Any other answer is the proxy's view of the target (502, 504...).
      if (res.statusCode === 407) reject(proxyFailure(upstream, 'refused the credentials configured for it (407)'));
      else reject(new Error(`The proxy could not connect to ${path}: it answered ${res.statusCode} to CONNECT`));
    });
    req.end();
  });
}
