// A small HTTP forward proxy for tests: plain requests (absolute URIs) and CONNECT
// tunnels, optionally behind credentials (407 without them). It records every
// request passing through it and adds `Via: 1.1 <name>` to what it forwards, so
// a fixture site can see (and refuse) the proxy a request came by.
import http from 'node:http';
import net from 'node:net';

export interface ProxiedRequest {
  method: string;
  /** The absolute URI (plain) or host:port (CONNECT) the proxy was asked for. */
  target: string;
  /** The Host header the client sent (plain requests). */
  host?: string;
  userAgent?: string;
}

export interface RecordingProxy {
  name: string;
  url: string;
  port: number;
  requests: ProxiedRequest[];
  /** Requests whose Host header names `host` (plain) or whose CONNECT target is on `host`'s port. */
  requestsFor(host: string): ProxiedRequest[];
  close(): Promise<void>;
}

export async function startRecordingProxy(name: string, opts: { credentials?: string } = {}): Promise<RecordingProxy> {
  const requests: ProxiedRequest[] = [];
  const expected = opts.credentials ? `Basic ${Buffer.from(opts.credentials).toString('base64')}` : undefined;
  const authorized = (req: http.IncomingMessage) => expected === undefined || req.headers['proxy-authorization'] === expected;
  const sockets = new Set<net.Socket>();
  const server = http.createServer((req, res) => {
    requests.push({ method: req.method ?? '', target: req.url ?? '', host: req.headers.host, userAgent: req.headers['user-agent'] });
    if (!authorized(req)) return void res.writeHead(407, { 'proxy-authenticate': 'Basic realm="test"' }).end();
    const url = new URL(req.url ?? '');
    const headers: http.OutgoingHttpHeaders = { ...req.headers, via: `1.1 ${name}` };
    delete headers['proxy-authorization'];
    delete headers['proxy-connection'];
    const out = http.request(
      { host: url.hostname, port: url.port, method: req.method, path: `${url.pathname}${url.search}`, headers, agent: false },
      (upstream) => {
        res.writeHead(upstream.statusCode ?? 502, upstream.headers);
        upstream.pipe(res);
      },
    );
    out.on('error', () => res.headersSent || res.writeHead(502).end());
    req.pipe(out);
  });
  server.on('connection', (s) => (sockets.add(s), s.on('close', () => sockets.delete(s))));
  server.on('connect', (req, client: net.Socket, head) => {
    requests.push({ method: 'CONNECT', target: req.url ?? '' });
    if (!authorized(req)) return void client.end('HTTP/1.1 407 Proxy Authentication Required\r\nContent-Length: 0\r\n\r\n');
    const [host, port] = (req.url ?? '').split(/:(?=\d+$)/);
    const upstream = net.connect(Number(port), host.replace(/^\[|\]$/g, ''), () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client).pipe(upstream);
    });
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    name,
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    requestsFor: (host) => requests.filter((r) => r.host?.split(':')[0] === host),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
