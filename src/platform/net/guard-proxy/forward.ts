// A plain http:// request through the guard proxy: the target is checked, then the
// request goes to the checked address (directly, or to the upstream proxy as an
// absolute URI naming that IP with the original Host header).
import http from 'node:http';
import { urlPort } from '../service-endpoints.ts';
import { authority, endToEndHeaders, networkFailure, unbracket } from './endpoints.ts';
import { pinnedLookup, resolveTarget, track, type ProxyState, type Refusal } from './targets.ts';

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
  const upstream = state.upstream;
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
  outgoing.on('socket', (socket) => track(state, socket));
  outgoing.on('error', (err) => refuse({ status: 502, message: `Cannot fetch ${url.href}: ${networkFailure(err)}` }));
  outgoing.on('response', (targetRes) => {
    state.failures.delete(req.url ?? '');
    res.writeHead(targetRes.statusCode ?? 502, targetRes.statusMessage, endToEndHeaders(targetRes.headers));
    targetRes.pipe(res);
    targetRes.on('error', () => res.destroy());
  });
  req.on('error', () => outgoing.destroy());
  res.on('close', () => outgoing.destroy());
  req.pipe(outgoing);
}
