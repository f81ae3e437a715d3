// The pg pool under Prisma. Prisma ends an interactive transaction by sending
// ROLLBACK (or COMMIT) and only then handing the connection back; when the
// connection has just been lost or timed out, that statement fails and the hand-back
// never happens (@prisma/client 6.19, runtime/client.mjs). Each such transaction
// kept a pool slot for good: a process that lived through a few database faults
// ended with every slot taken and waited on the pool forever. Here a connection
// checked out for a transaction goes back to the pool, to be discarded, as soon
// as a statement on it fails because of the connection; Prisma's own hand-back
// later is then a no-op.
import pg from 'pg';
import { dependencyFailure } from '../dependency-failure.ts';

const checkout = Symbol('checkout');

interface Checkout {
  released: boolean;
  release: (err?: Error | boolean) => void;
}

type TrackedClient = pg.PoolClient & { [checkout]?: Checkout };

/** Wraps `query` once per connection: it reads the current checkout's state, set anew at each. */
function watchQueries(client: TrackedClient): void {
  if (client[checkout]) return;
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as { query: unknown }).query = (...args: unknown[]) => {
    const result = query(...args);
    if (result instanceof Promise) {
      result.catch((err: unknown) => {
        const state = client[checkout];
        if (state && !state.released && dependencyFailure(err)) {
          state.released = true;
          state.release(err as Error);
        }
      });
    }
    return result;
  };
}

export class ReleasingPool extends pg.Pool {
  override connect(): Promise<pg.PoolClient>;
  override connect(callback: (err: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void): void;
  override connect(callback?: (err: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void) {
    // The callback form is pg-pool's own (pool.query): it releases the connection itself.
    if (callback) return super.connect(callback);
    return super.connect().then((client: TrackedClient) => {
      watchQueries(client);
      const state: Checkout = { released: false, release: client.release.bind(client) };
      client[checkout] = state;
      client.release = (err?: Error | boolean) => {
        if (state.released) return;
        state.released = true;
        state.release(err);
      };
      return client;
    });
  }
}
