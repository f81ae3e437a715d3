// A TLS-terminating proxy in front of a plaintext server, as a load balancer in
// front of a Temporal frontend would be: it requires a client certificate from
// its CA, offers HTTP/2 by ALPN (the SDK's worker connection insists on it) and
// passes the bytes on as they are; gRPC needs nothing more.
import { readFileSync } from 'node:fs';
import { connect as connectTcp } from 'node:net';
import { createServer, type TLSSocket } from 'node:tls';
import { hostPort } from '../../src/platform/net/service-endpoints.ts';

export interface TlsProxy {
  /** `127.0.0.1:<port>`. */
  address: string;
  /** The subject CN of every client certificate it accepted a connection with. */
  clientNames: Set<string>;
  close(): Promise<void>;
}

export async function startTlsProxy(opts: { upstream: string; ca: string; cert: string; key: string }): Promise<TlsProxy> {
  const upstream = hostPort(opts.upstream, 7233);
  if (!upstream) throw new Error(`expected host:port, got "${opts.upstream}"`);
  const clientNames = new Set<string>();
  const open = new Set<TLSSocket>();
  const server = createServer(
    {
      ca: readFileSync(opts.ca),
      cert: readFileSync(opts.cert),
      key: readFileSync(opts.key),
      requestCert: true,
      rejectUnauthorized: true,
      ALPNProtocols: ['h2'],
    },
    (client) => {
      const subject = client.getPeerCertificate().subject;
      if (subject?.CN) clientNames.add(String(subject.CN));
      open.add(client);
      const backend = connectTcp(upstream.port, upstream.host);
      client.pipe(backend).pipe(client);
      const drop = () => {
        open.delete(client);
        client.destroy();
        backend.destroy();
      };
      for (const socket of [client, backend]) {
        socket.on('close', drop);
        socket.on('error', drop);
      }
    },
  );
  // Handshakes it refuses are the point of some tests; they need no report here.
  server.on('tlsClientError', () => {});
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return {
    address: `127.0.0.1:${(server.address() as { port: number }).port}`,
    clientNames,
    async close() {
      for (const socket of open) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
