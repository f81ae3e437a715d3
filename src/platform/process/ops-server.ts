// The operations port of every process: GET /live and GET /ready for supervisors
// (npm start, docker compose, Kubernetes probes) and GET /metrics for Prometheus,
// apart from any public listener.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '../log.ts';
import { METRICS_CONTENT_TYPE } from '../metrics/exposition.ts';
import type { Readiness } from './readiness.ts';
import { serveReadinessGauge } from './readiness-metrics.ts';

export interface OpsServer {
  port: number;
  close(): Promise<void>;
}

/** Starts nothing (undefined) when `port` is 0. */
export async function startOpsServer(opts: {
  bind: string;
  port: number;
  log: Logger;
  readiness: () => Promise<Readiness>;
  metrics: () => Promise<string>;
}): Promise<OpsServer | undefined> {
  if (opts.port === 0) return undefined;
  serveReadinessGauge(opts.readiness);
  const server = createServer((req, res) => {
    const reply = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      res.end(JSON.stringify(body));
    };
    const path = new URL(req.url ?? '/', 'http://ops').pathname;
    if (req.method !== 'GET') return reply(405, { error: 'only GET' });
    if (path === '/live') return reply(200, { live: true });
    if (path === '/ready') {
      void opts.readiness().then(
        (answer) => reply(answer.ready ? 200 : 503, answer),
        (err: Error) => reply(503, { ready: false, error: err.message }),
      );
      return;
    }
    if (path === '/metrics') {
      opts.metrics().then(
        (text) => {
          res.writeHead(200, { 'content-type': METRICS_CONTENT_TYPE, 'cache-control': 'no-store' });
          res.end(text);
        },
        (err: Error) => reply(500, { error: err.message }),
      );
      return;
    }
    reply(404, { error: 'not found: GET /live, /ready or /metrics' });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.bind, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  opts.log.info('operations port listening', { bind: opts.bind, port });
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
