// A plain http:// request through the guard proxy: the target is checked, then the
// request goes to the checked address (directly, or to the upstream proxy chosen
// for the host as an absolute URI naming that IP with the original Host header).
// A GET or HEAD whose upstream proxy fails (connect error, 407) is sent again
// through another; a request with a body cannot be replayed and fails.
import type { LookupAddress } from 'node:dns';
import http from 'node:http';
import { urlPort } from '../service-endpoints.ts';
import { authority, endToEndHeaders, networkFailure, unbracket } from './endpoints.ts';
import { MAX_UPSTREAM_ATTEMPTS, pinnedLookup, resolveTarget, track, type ProxyState, type Refusal, type RoutedUpstream } from './targets.ts';

/** One request through the guard proxy, as every attempt at it (one per upstream proxy tried) sees it. */
interface ForwardedRequest {
  state: ProxyState;
  req: http.IncomingMessage;
  res: http.ServerResponse;
  url: URL;
  port: number;
  path: string;
  headers: http.OutgoingHttpHeaders;
  addresses: LookupAddress[];
  replayable: boolean;
  tried: Set<string>;
  refuse(refusal: Refusal): void;
}

function send(a: ForwardedRequest, choice: RoutedUpstream | undefined): void {
  const { state, req, res, url, port, path, headers, addresses, replayable, tried, refuse } = a;
  const upstream = choice?.upstream;
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
        lookup: pinnedLookup(state, addresses, port),
      });
  // The upstream proxy failed rather than the target (it would answer for the target): bench it and try another.
  const upstreamFailed = (why: string): boolean => {
    if (!choice) return false;
    choice.failed(`The proxy ${upstream!.host}:${upstream!.port} ${why}`);
    const next = replayable && tried.size < MAX_UPSTREAM_ATTEMPTS ? state.route?.(url.hostname, tried) : undefined;
    if (!next) return false;
    tried.add(next.id);
    send(a, next);
    return true;
  };
  outgoing.on('socket', (socket) => track(state, socket));
  outgoing.on('error', (err) => {
    if (res.destroyed || upstreamFailed(`failed: ${networkFailure(err)}`)) return;
    refuse({ status: 502, message: `Cannot fetch ${url.href}: ${networkFailure(err)}` });
  });
  outgoing.on('response', (targetRes) => {
    if (choice && targetRes.statusCode === 407) {
      targetRes.resume();
      if (upstreamFailed('refused the credentials configured for it (407)')) return;
      return refuse({ status: 502, message: `Cannot fetch ${url.href}: every proxy tried refused its credentials (407)` });
    }
    state.failures.delete(req.url ?? '');
    res.writeHead(targetRes.statusCode ?? 502, targetRes.statusMessage, endToEndHeaders(targetRes.headers));
    targetRes.pipe(res);
    targetRes.on('error', () => res.destroy());
  });
  res.on('close', () => outgoing.destroy());
  if (replayable) outgoing.end();
  else {
    req.on('error', () => outgoing.destroy());
    req.pipe(outgoing);
  }
}

export async function handleRequest(state: ProxyState, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const refuse = ({ status, message }: Refusal) => {
    if (status === 502 && req.url) state.failures.set(req.url, message);
    if (res.headersSent) return res.destroy();
    res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' }).end(`${message}\n`);
  };
  let url: URL;
  try {
    url = new URL(req.url ?? '');
  } catch {
    return void refuse({ status: 400, message: 'This is a forward proxy: requests must name an absolute http:// URL' });
  }
  if (url.protocol !== 'http:') return void refuse({ status: 400, message: `Only http:// URLs are forwarded; use CONNECT for ${url.protocol}` });
  const port = urlPort(url);
  const addresses = await resolveTarget(state, url.hostname, port);
  if (!Array.isArray(addresses)) {
    return void refuse(addresses.blocked ? { status: 403, message: addresses.blocked.forUrl(url.href).message } : addresses);
  }
  const headers = { ...endToEndHeaders(req.headers), host: req.headers.host ?? url.host };
  const path = `${url.pathname}${url.search}`;
  const replayable = req.method === 'GET' || req.method === 'HEAD';
  const tried = new Set<string>();
  const forwarded: ForwardedRequest = { state, req, res, url, port, path, headers, addresses, replayable, tried, refuse };
  // A GET or HEAD body has no meaning and is not forwarded: drained, so the client's connection stays usable.
  if (replayable) req.resume();
  const first = state.route?.(url.hostname, tried);
  if (first) tried.add(first.id);
  send(forwarded, first);
}
