// The host end of a session's CDP bridge: a unix socket, mounted into that
// session's sandboxes only, whose every connection is piped to the one address
// of that session's browser (the host and port of its cdpUrl). It is the
// sandboxes' only way out, and it leads nowhere else.
import { chmodSync, chownSync, rmSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { splice } from '../../../platform/net/splice.ts';

export interface CdpTarget {
  host: string;
  port: number;
  /** The browser-level DevTools path (/devtools/browser/<id>), which the runners ask for through the bridge. */
  browserPath: string;
}

export function cdpTarget(cdpUrl: string): CdpTarget {
  const url = URL.parse(cdpUrl);
  if (!url || (url.protocol !== 'ws:' && url.protocol !== 'http:') || !url.port) {
    throw new Error(`cdpUrl must be the browser's ws://host:port/devtools/browser/<id> URL, got ${cdpUrl}`);
  }
  return { host: url.hostname.replace(/^\[|\]$/g, ''), port: Number(url.port), browserPath: url.pathname };
}

export class CdpBridge {
  private readonly sockets = new Set<Socket>();

  private constructor(
    private readonly server: Server,
    readonly socketPath: string,
  ) {}

  static async open(socketPath: string, target: CdpTarget, owner: { uid: number; gid: number } | undefined): Promise<CdpBridge> {
    rmSync(socketPath, { force: true });
    let bridge: CdpBridge | undefined;
    const server = createServer((client) => {
      const upstream = connect(target.port, target.host);
      for (const s of [client, upstream]) {
        bridge?.sockets.add(s);
        s.once('close', () => bridge?.sockets.delete(s));
      }
      splice(client, upstream);
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(socketPath, () => resolve());
    });
    // Only the session's uid may connect (the socket is root's otherwise).
    if (owner) chownSync(socketPath, owner.uid, owner.gid);
    chmodSync(socketPath, 0o600);
    bridge = new CdpBridge(server, socketPath);
    return bridge;
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    rmSync(this.socketPath, { force: true });
  }
}
