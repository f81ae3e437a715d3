// Whether the PostgreSQL server answers, asked on connections of the probe's own.
// Asked through the service's pool, a probe waits behind the process's own
// statements when they fill every connection (a burst of requests on a loaded
// machine), and a readiness or a request's deadline took that queue for the server
// not answering: a 503 with PostgreSQL up. A connection whose probe failed or timed
// out is discarded, so a black-holed one never answers the next probe.
import pg from 'pg';

/** Probes running at once, at most: one that hangs on a stalled server leaves the next its own. */
const PROBE_CONNECTIONS = 2;
/** Idle probe connections close after this, and never keep a process alive. */
const IDLE_MS = 10_000;

export class DatabaseProbe {
  readonly #pool: pg.Pool;

  /** `timeoutMs`: what a probe's connect and its statement may each take before the connection is discarded. */
  constructor(databaseUrl: string, timeoutMs: number) {
    this.#pool = new pg.Pool({
      connectionString: databaseUrl,
      max: PROBE_CONNECTIONS,
      connectionTimeoutMillis: timeoutMs,
      query_timeout: timeoutMs,
      keepAlive: true,
      idleTimeoutMillis: IDLE_MS,
      allowExitOnIdle: true,
    });
    // An idle connection the server drops (a restart) is discarded by the pool; unheard, its error would end the process.
    this.#pool.on('error', () => undefined);
  }

  /** Resolves when the server answers `SELECT 1`; rejects when it refuses, resets or outlasts the timeout. */
  async probe(): Promise<void> {
    const client = await this.#pool.connect();
    try {
      await client.query('SELECT 1');
      client.release();
    } catch (err) {
      client.release(err as Error);
      throw err;
    }
  }

  end(): Promise<void> {
    return this.#pool.end();
  }
}
