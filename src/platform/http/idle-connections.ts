// How long the gateway keeps an idle keep-alive connection. Node closes one after
// 5 s; a client (or a load balancer: AWS's keeps them 60 s) that sends its next
// request on it just as it closes gets ECONNRESET for a request the gateway never
// read. Outlasting the clients' own idle timeouts means they close first.
import type { Server } from 'node:http';

export const IDLE_CONNECTION_MS = 65_000;

export function keepIdleConnections(server: Server): Server {
  server.keepAliveTimeout = IDLE_CONNECTION_MS;
  // A request's headers on a kept connection are timed from its start: this must outlast the idle time.
  server.headersTimeout = IDLE_CONNECTION_MS + 1_000;
  return server;
}
