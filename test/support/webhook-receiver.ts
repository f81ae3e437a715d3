// A local webhook receiver for tests: records every request (raw bytes, headers,
// parsed payload) and answers what the test says for each attempt of each event.
// It can go down (its port closed) and come back on the same port.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedDelivery {
  raw: Buffer;
  headers: http.IncomingHttpHeaders;
  payload: { success: boolean; type: string; id: string; webhookId: string; data: unknown[]; error?: string; metadata?: Record<string, unknown> };
  /** 1 for the first request carrying this webhookId. */
  attempt: number;
  /** What the receiver answered. */
  status: number;
}

export interface ReceiverReply {
  status: number;
  headers?: Record<string, string>;
  /** Answer after this long. */
  delayMs?: number;
}

export type Responder = (delivery: Omit<ReceivedDelivery, 'status'>) => ReceiverReply;

export interface WebhookReceiver {
  url: string;
  deliveries: ReceivedDelivery[];
  /** Acknowledged deliveries, one per webhookId (the first 2xx). */
  acknowledged(): ReceivedDelivery[];
  respond(responder: Responder): void;
  /** Closes the port (connections are refused) until up(). */
  down(): Promise<void>;
  up(): Promise<void>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(responder: Responder = () => ({ status: 200 })): Promise<WebhookReceiver> {
  let respond = responder;
  const deliveries: ReceivedDelivery[] = [];
  const attempts = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const payload = JSON.parse(raw.toString('utf8')) as ReceivedDelivery['payload'];
      const attempt = (attempts.get(payload.webhookId) ?? 0) + 1;
      attempts.set(payload.webhookId, attempt);
      const received = { raw, headers: req.headers, payload, attempt };
      const reply = respond(received);
      deliveries.push({ ...received, status: reply.status });
      setTimeout(() => res.writeHead(reply.status, reply.headers).end(), reply.delayMs ?? 0);
    });
  });
  const listen = (port: number) => new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  await listen(0);
  const port = (server.address() as AddressInfo).port;
  const stop = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return {
    url: `http://127.0.0.1:${port}/hook`,
    deliveries,
    acknowledged() {
      const seen = new Set<string>();
      return deliveries.filter((d) => d.status < 300 && !seen.has(d.payload.webhookId) && seen.add(d.payload.webhookId));
    },
    respond(next) {
      respond = next;
    },
    down: stop,
    up: () => listen(port),
    close: () => (server.listening ? stop() : Promise.resolve()),
  };
}
