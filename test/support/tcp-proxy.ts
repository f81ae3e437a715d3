// A TCP proxy between a process under test and a server, for chaos tests: it
// forwards until told to hold traffic in one or both directions. Held bytes stay
// in the proxy and the sockets stay open, so the client sees a silent network
// (no error, no answer: a black hole) rather than a refused or reset connection.
// It can also reset every open connection, refuse new ones (reset at once, as a
// server whose port has gone), slow every byte down, and lose the reply to one request
// (the server ran it, the client sees its connection reset). When either side of a
// connection closes, the other is destroyed and held bytes are dropped, as a
// network would lose them.
import { connect, createServer, type Server, type Socket } from 'node:net';

export interface HoldDirections {
  /** Bytes from the client to the server. */
  toServer: boolean;
  /** Bytes from the server to the client. */
  toClient: boolean;
}

export interface TcpProxy {
  /** `127.0.0.1:<port>`, to give the client instead of the server's address. */
  address: string;
  /** Stops delivering bytes in the given directions (both by default), on open and new connections. */
  hold(directions?: HoldDirections): void;
  /** Delivers what was held and forwards again. */
  release(): void;
  /** Bytes received but not delivered, per direction, over all open connections. */
  heldBytes(): { toServer: number; toClient: number };
  /** Resets (TCP RST) both sides of every open connection. */
  reset(): void;
  /** While true, each new connection is reset as soon as it is accepted; open ones are untouched. */
  refuse(on: boolean): void;
  /** Delivers each chunk `ms` later, in both directions (0: at once). */
  delay(ms: number): void;
  /**
   * The next request (bytes to the server) that contains `needle` is delivered, and the server's
   * first reply to it is dropped and that connection reset: the statement ran, its answer was lost.
   * Resolves once the reply was dropped.
   */
  loseReplyTo(needle: string): Promise<void>;
  /** Connections open now. */
  openConnections(): number;
  close(): Promise<void>;
}

/** One direction of one connection: forwards (after the delay), or keeps what arrives until released. */
class Pipe {
  private held: Buffer[] = [];
  /** Chunks on their delay's timer: they keep their order ahead of anything sent later. */
  private delayed = 0;
  constructor(
    private readonly to: Socket,
    private readonly isHeld: () => boolean,
    private readonly delayMs: () => number,
  ) {}
  push(chunk: Buffer): void {
    if (this.isHeld() || this.held.length > 0) this.held.push(chunk);
    else this.send(chunk);
  }
  private send(chunk: Buffer): void {
    const ms = this.delayMs();
    if (ms === 0 && this.delayed === 0) {
      this.to.write(chunk);
      return;
    }
    this.delayed++;
    setTimeout(() => {
      this.delayed--;
      if (!this.to.destroyed) this.to.write(chunk);
    }, ms);
  }
  flush(): void {
    if (this.isHeld()) return;
    const held = this.held;
    this.held = [];
    for (const chunk of held) this.send(chunk);
  }
  bytes(): number {
    return this.held.reduce((n, c) => n + c.length, 0);
  }
}

export async function startTcpProxy(target: { host: string; port: number } | string): Promise<TcpProxy> {
  const upstream = typeof target === 'string' ? parseAddress(target) : target;
  const state: HoldDirections = { toServer: false, toClient: false };
  let refusing = false;
  let delayMs = 0;
  const open = new Set<{ client: Socket; server: Socket; up: Pipe; down: Pipe }>();
  let replyToLose: { needle: Buffer; lost: () => void } | undefined;

  const proxy: Server = createServer((client) => {
    if (refusing) {
      client.resetAndDestroy();
      return;
    }
    const server = connect(upstream.port, upstream.host);
    const conn = {
      client,
      server,
      up: new Pipe(
        server,
        () => state.toServer,
        () => delayMs,
      ),
      down: new Pipe(
        client,
        () => state.toClient,
        () => delayMs,
      ),
    };
    open.add(conn);
    let losesReply: (() => void) | undefined;
    client.on('data', (chunk) => {
      if (replyToLose && chunk.includes(replyToLose.needle)) {
        losesReply = replyToLose.lost;
        replyToLose = undefined;
      }
      conn.up.push(chunk);
    });
    server.on('data', (chunk) => {
      if (!losesReply) return conn.down.push(chunk);
      open.delete(conn);
      client.resetAndDestroy();
      server.resetAndDestroy();
      losesReply();
    });
    const drop = () => {
      open.delete(conn);
      client.destroy();
      server.destroy();
    };
    for (const socket of [client, server]) {
      socket.on('close', drop);
      socket.on('error', drop);
    }
  });
  await new Promise<void>((resolve, reject) => {
    proxy.once('error', reject);
    proxy.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = proxy.address() as { port: number };

  return {
    address: `127.0.0.1:${port}`,
    hold(directions = { toServer: true, toClient: true }) {
      Object.assign(state, directions);
    },
    release() {
      state.toServer = false;
      state.toClient = false;
      for (const conn of open) {
        conn.up.flush();
        conn.down.flush();
      }
    },
    heldBytes() {
      let toServer = 0;
      let toClient = 0;
      for (const conn of open) {
        toServer += conn.up.bytes();
        toClient += conn.down.bytes();
      }
      return { toServer, toClient };
    },
    reset() {
      for (const conn of open) {
        open.delete(conn);
        conn.client.resetAndDestroy();
        conn.server.resetAndDestroy();
      }
    },
    refuse(on) {
      refusing = on;
    },
    delay(ms) {
      delayMs = ms;
    },
    loseReplyTo(needle) {
      return new Promise((resolve) => (replyToLose = { needle: Buffer.from(needle), lost: resolve }));
    },
    openConnections: () => open.size,
    async close() {
      for (const conn of open) {
        conn.client.destroy();
        conn.server.destroy();
      }
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    },
  };
}

function parseAddress(address: string): { host: string; port: number } {
  const at = address.lastIndexOf(':');
  if (at < 0) throw new Error(`expected host:port, got "${address}"`);
  return { host: address.slice(0, at).replace(/^\[|\]$/g, ''), port: Number(address.slice(at + 1)) };
}
