// A free TCP port on 127.0.0.1, for servers started on demand (tests, benchmarks, scratch databases).
import { createServer } from 'node:net';

/**
 * `avoid`: ports other settings name but that may not be listened on yet; the system could hand one
 * of them out now and its server would then find it taken (npm start's PostgreSQL against a worker's
 * operations port, seen once).
 */
export async function freePort(avoid: Iterable<number> = []): Promise<number> {
  const taken = new Set(avoid);
  for (;;) {
    const port = await anyFreePort();
    if (!taken.has(port)) return port;
  }
}

function anyFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}
