// Whether the PostgreSQL server answers, asked on connections of the probe's own.
// Asked through the service's pool, a probe waits behind the process's own
// statements when they fill every connection (a burst of requests on a loaded
// machine), and a readiness or a request's deadline took that queue for the server
// not answering: a 503 with PostgreSQL up. A connection whose probe failed or timed
// out is discarded, so a black-holed one never answers the next probe. And a server
// that answers the process's own statements while the probe waits is answering: on
// a machine loaded enough that a new connection and a SELECT 1 take over a second,
// the pool's work still completes, and only a server that answers nobody is down.
import pg from 'pg';

/** Probes running at once, at most: one that hangs on a stalled server leaves the next its own. */
const PROBE_CONNECTIONS = 2;
/** Idle probe connections close after this, and never keep a process alive. */
const IDLE_MS = 10_000;

export class DatabaseProbe {
  readonly #pool: pg.Pool;
  /** The probes waiting, each told when the server answers a statement of the watched pool. */
  readonly #waiting = new Set<() => void>();

  /**
   * `timeoutMs`: what a probe's connect and its statement may each take before the connection is
   * discarded. `watched`: the process's pool, whose connections given back without an error are
   * statements the server answered.
   */
  constructor(databaseUrl: string, timeoutMs: number, watched: pg.Pool) {
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
    // So would one a probe holds when the connection resets: the probe's statement fails with it, and the client is discarded.
    this.#pool.on('connect', (client) => client.on('error', () => undefined));
    watched.on('release', (err?: Error) => {
      if (!err) for (const answered of this.#waiting) answered();
    });
  }

  /**
   * Resolves when the server answers `SELECT 1`, or any statement of the watched pool, meanwhile;
   * rejects when the probe's connection is refused or reset, or it outlasts the timeout unanswered.
   */
  probe(): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.#waiting.add(resolve);
      // Settles within the timeout, so no probe is left waiting on a server that answers nobody.
      this.#select()
        .then(resolve, reject)
        .finally(() => this.#waiting.delete(resolve));
    });
  }

  async #select(): Promise<void> {
    const client = await this.#pool.connect();
    try {
      await client.query('SELECT 1');
      client.release();
    } catch (err) {
      client.release(err as Error);
      throw err;
    }
  }
}
