// Joins two WebSockets message for message (the CDP relay on a browser host, the
// gateway's proxy in front of it). A side that reads faster than the other can
// send is paused until the other's buffer drains, so a client that stops reading
// holds the browser back instead of the relay's memory; closing either side
// closes the other.
import type { WebSocket } from 'ws';

export interface PipeOptions {
  /** Buffered bytes on one side at which the other side stops being read. */
  highWaterBytes?: number;
  /** Called for every message from `client` (the side a user controls). */
  onClientMessage?: () => void;
}

const DEFAULT_HIGH_WATER = 8 * 1024 * 1024;

/** Resolves when both sides are closed. */
export function pipeWebSockets(client: WebSocket, upstream: WebSocket, opts: PipeOptions = {}): Promise<void> {
  const highWater = opts.highWaterBytes ?? DEFAULT_HIGH_WATER;
  const forward = (from: WebSocket, to: WebSocket, onMessage?: () => void) => {
    let paused = false;
    from.on('message', (data, isBinary) => {
      onMessage?.();
      if (to.readyState !== to.OPEN) return;
      to.send(data, { binary: isBinary });
      if (!paused && to.bufferedAmount > highWater) {
        // ws keeps its net.Socket in _socket; pausing it stops reads (and so the sender) until `to` drains.
        const source = (from as unknown as { _socket?: import('node:net').Socket })._socket;
        const sink = (to as unknown as { _socket?: import('node:net').Socket })._socket;
        if (source && sink) {
          paused = true;
          source.pause();
          sink.once('drain', () => {
            paused = false;
            source.resume();
          });
        }
      }
    });
  };
  forward(client, upstream, opts.onClientMessage);
  forward(upstream, client);
  const closed = (ws: WebSocket) => new Promise<void>((resolve) => (ws.readyState === ws.CLOSED ? resolve() : ws.once('close', () => resolve())));
  const end = (other: WebSocket) => (code: number, reason: Buffer) => {
    // 1005/1006 are reserved: they describe a close, they may not be sent.
    const sendable = code >= 1000 && code < 5000 && code !== 1005 && code !== 1006 && code !== 1015;
    if (other.readyState === other.OPEN || other.readyState === other.CONNECTING) {
      if (sendable) other.close(code, reason);
      else other.close();
    }
  };
  client.once('close', end(upstream));
  upstream.once('close', end(client));
  client.on('error', () => client.terminate());
  upstream.on('error', () => upstream.terminate());
  return Promise.all([closed(client), closed(upstream)]).then(() => undefined);
}
