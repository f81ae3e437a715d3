// A crawl webhook receiver with no dependencies: `node docs/examples/webhook-receiver.mjs`.
// WEBHOOK_SECRET is the team's signing secret (`npm run cli -- team secret <team> --show`),
// PORT where to listen (default 4000). It checks X-Service-Signature over the raw
// bytes in constant time, acknowledges at once, and handles each webhookId once:
// the service delivers at least once, so a retry may repeat an event already handled.
import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';

const secret = process.env.WEBHOOK_SECRET;
if (!secret) throw new Error('set WEBHOOK_SECRET to the team signing secret');

function signatureValid(raw, header) {
  if (typeof header !== 'string' || !/^sha256=[0-9a-f]{64}$/i.test(header)) return false;
  const expected = createHmac('sha256', secret).update(raw).digest();
  return timingSafeEqual(expected, Buffer.from(header.slice('sha256='.length), 'hex'));
}

// In production keep this in your database (a unique key on webhookId), not in memory.
const handled = new Set();

function handle(event) {
  // Your work goes here: event.type is crawl.started, crawl.page, crawl.completed or crawl.failed.
  const page = event.type === 'crawl.page' ? ` ${event.data[0]?.metadata?.sourceURL}` : '';
  console.log(`event ${event.type} ${event.webhookId} crawl ${event.id}${page}`);
}

http
  .createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      // Verify the bytes as received: re-serialising parsed JSON would change them.
      const raw = Buffer.concat(chunks);
      if (!signatureValid(raw, req.headers['x-service-signature'])) {
        console.log('rejected: bad signature');
        return res.writeHead(401).end();
      }
      const event = JSON.parse(raw.toString('utf8'));
      if (handled.has(event.webhookId)) {
        console.log(`duplicate ${event.webhookId}`);
      } else {
        handled.add(event.webhookId);
        handle(event);
      }
      // Any 2xx acknowledges; answer within 10 s, do slow work after answering.
      res.writeHead(204).end();
    });
  })
  .listen(Number(process.env.PORT ?? 4000), () => console.log(`listening on ${process.env.PORT ?? 4000}`));
