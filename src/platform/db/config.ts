// PostgreSQL's section of the settings (src/config.ts composes them all).
import { boundedInt, int, str } from '../config/env.ts';

export function databaseConfig() {
  return {
    /** Unset: an embedded PostgreSQL under dataDir is used. */
    url: str('DATABASE_URL'),
    embeddedPort: int('EMBEDDED_PG_PORT', 54329),
    /** How long opening a connection (and waiting for a free one in a pool) may take before the statement fails. */
    connectTimeoutMs: boundedInt('DB_CONNECT_TIMEOUT_MS', 10_000, 500, 600_000, 'milliseconds from 500 to 600000'),
    /**
     * How long one statement may take, counted by the client (a server that stopped answering, a connection
     * into a black hole) and by the server (statement_timeout). Also the limit of a transaction.
     */
    queryTimeoutMs: boundedInt('DB_QUERY_TIMEOUT_MS', 30_000, 1_000, 3_600_000, 'milliseconds from 1000 to 3600000'),
  };
}

export type DatabaseSettings = ReturnType<typeof databaseConfig>;
