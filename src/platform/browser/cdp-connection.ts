// A small DevTools protocol client over one WebSocket to a browser endpoint, with
// flat sessions (Target.attachToTarget {flatten: true}): commands with an id
// each, answers matched by id, events handed to listeners with their session.
// For the service's own uses of a session's browser (live view, profiles), where
// Playwright's model (contexts, pages it owns) is in the way.
import { WebSocket } from 'ws';

export interface CdpEvent {
  method: string;
  params: Record<string, unknown>;
  sessionId?: string;
}

export class CdpError extends Error {}

export class CdpConnection {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  private readonly listeners = new Set<(event: CdpEvent) => void>();
  readonly closed: Promise<void>;

  private constructor(private readonly ws: WebSocket) {
    ws.on('message', (data) => {
      let message: { id?: number; result?: unknown; error?: { message?: string }; method?: string; params?: Record<string, unknown>; sessionId?: string };
      try {
        message = JSON.parse(data.toString());
      } catch {
        return;
      }
      if (message.id !== undefined) {
        const waiter = this.pending.get(message.id);
        this.pending.delete(message.id);
        if (message.error) waiter?.reject(new CdpError(message.error.message ?? 'CDP error'));
        else waiter?.resolve(message.result);
      } else if (message.method) {
        for (const listener of this.listeners) listener({ method: message.method, params: message.params ?? {}, sessionId: message.sessionId });
      }
    });
    this.closed = new Promise((resolve) =>
      ws.once('close', () => {
        for (const waiter of this.pending.values()) waiter.reject(new CdpError('the browser connection closed'));
        this.pending.clear();
        resolve();
      }),
    );
    ws.on('error', () => ws.terminate());
  }

  static async open(url: string, opts: { maxPayload?: number } = {}): Promise<CdpConnection> {
    const ws = new WebSocket(url, { perMessageDeflate: false, maxPayload: opts.maxPayload ?? 256 * 1024 * 1024 });
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    return new CdpConnection(ws);
  }

  send<T = Record<string, unknown>>(method: string, params: Record<string, unknown> = {}, sessionId?: string): Promise<T> {
    if (this.ws.readyState !== this.ws.OPEN) return Promise.reject(new CdpError('the browser connection is closed'));
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.ws.send(JSON.stringify({ id, method, params, ...(sessionId && { sessionId }) }));
    });
  }

  on(listener: (event: CdpEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  close(): void {
    this.ws.close();
  }
}
