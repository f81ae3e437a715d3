// A free TCP port on 127.0.0.1, for servers started on demand (tests, benchmarks, scratch databases).
//
// The port is free when chosen and is listened on later by another process. A port from the
// system's ephemeral range (what `listen(0)` hands out) can meanwhile become the local end of any
// outgoing connection, and a test run opens thousands: a full run once saw npm start's Temporal dev
// port taken that way. Ports below that range are never handed out to connections, so the choice is
// made there, at random (other processes choose at the same time), and checked by listening on it.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** Where the choice is made when the system's range cannot be read (Linux's default starts at 32768). */
const FALLBACK_EPHEMERAL_START = 32768;
/** Below this, ports are commonly given to system services. */
const LOWEST = 10_000;
const ATTEMPTS = 50;

/**
 * `avoid`: ports other settings name but that may not be listened on yet; the system could hand one
 * of them out now and its server would then find it taken (npm start's PostgreSQL against a worker's
 * operations port, seen once).
 */
export async function freePort(avoid: Iterable<number> = []): Promise<number> {
  const taken = new Set(avoid);
  const end = ephemeralStart();
  for (let i = 0; i < ATTEMPTS && end > LOWEST; i++) {
    const port = LOWEST + Math.floor(Math.random() * (end - LOWEST));
    if (!taken.has(port) && (await listenable(port))) return port;
  }
  // A range full of listeners (or none below the ephemeral one): whatever the system hands out.
  for (;;) {
    const port = await systemPort();
    if (!taken.has(port)) return port;
  }
}

/** First port of the system's ephemeral range: /proc/sys/net/ipv4/ip_local_port_range on Linux. */
export function ephemeralStart(): number {
  try {
    const start = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(start) && start > 0 ? start : FALLBACK_EPHEMERAL_START;
  } catch {
    return FALLBACK_EPHEMERAL_START;
  }
}

function listenable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once('error', () => resolve(false));
    srv.listen({ port, host: '127.0.0.1', exclusive: true }, () => srv.close(() => resolve(true)));
  });
}

function systemPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}
