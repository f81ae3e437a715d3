// Which of the service's own dependencies an error says is away: PostgreSQL
// (through Prisma, its pg adapter or a pg pool of our own) or Temporal (a gRPC
// call of the client). Such an error is no fault of the request and no bug of
// ours: the HTTP layer answers it 503 with Retry-After instead of 500, and
// naming the dependency tells an operator where to look. Errors a healthy
// server sends about the statement itself (a unique violation, a syntax error,
// a workflow not found) are not failures of the dependency and are not matched.
import { Prisma } from '../generated/prisma/client.ts';
import { grpcStatus } from './temporal/grpc-status.ts';

export type Dependency = 'PostgreSQL' | 'Temporal';

export interface DependencyFailure {
  dependency: Dependency;
  /** The error's own words, for the answer and the log. */
  reason: string;
}

/**
 * Prisma's codes for a database it cannot reach or keep: P1001 cannot reach, P1002 timed out,
 * P1008 operation timed out, P1017 server closed the connection, P2024 no pool connection in time,
 * P2028 a transaction that could not start or went on too long.
 */
const PRISMA_CONNECTION_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024', 'P2028']);

/** SQLSTATE classes and codes of a server that is going, starting or out of room: 08 connection exception, 57P01-57P05 (shutdown, cannot connect now), 53300 too many connections. */
const PG_UNAVAILABLE_SQLSTATE = /^(08...|57P0[1-5]|53300)$/;

/** What pg and Node's sockets say when the connection is refused, dropped, cut or too slow. */
const PG_CONNECTION_MESSAGE =
  /Connection terminated|the database system is (starting up|shutting down|in recovery mode)|terminating connection due to|not queryable|Server has closed the connection|timeout exceeded when trying to connect|Query read timeout|Connection ended|Can't reach database server|Timed out fetching a new connection|canceling statement due to statement timeout|ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH/;

/** The pg adapter's kinds of a connection that could not be made or kept. */
const ADAPTER_CONNECTION_KINDS = new Set(['ConnectionClosed', 'DatabaseNotReachable', 'SocketTimeout', 'TooManyConnections']);

const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH']);

/** gRPC's UNAVAILABLE (the frontend cannot be reached) and DEADLINE_EXCEEDED (it did not answer in time). */
const GRPC_UNAVAILABLE = new Set([14, 4]);

interface ErrorLike {
  name?: unknown;
  code?: unknown;
  message?: unknown;
  cause?: unknown;
}

function* chain(err: unknown): Generator<ErrorLike> {
  let e = err as ErrorLike | undefined;
  for (let depth = 0; e && typeof e === 'object' && depth < 8; depth++, e = e.cause as ErrorLike | undefined) yield e;
}

function lastLine(message: string): string {
  const lines = message
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  return lines.at(-1) ?? message;
}

function postgresFailure(err: unknown): string | undefined {
  if (err instanceof Prisma.PrismaClientInitializationError) return lastLine(err.message);
  if (err instanceof Prisma.PrismaClientKnownRequestError) {
    if (PRISMA_CONNECTION_CODES.has(err.code)) return lastLine(err.message);
    // A raw query's failure (P2010) carries the driver's words and the server's SQLSTATE.
    const sqlstate = (err.meta as { code?: unknown } | undefined)?.code;
    if (err.code === 'P2010' && ((typeof sqlstate === 'string' && PG_UNAVAILABLE_SQLSTATE.test(sqlstate)) || PG_CONNECTION_MESSAGE.test(err.message)))
      return lastLine(err.message);
    return undefined;
  }
  for (const e of chain(err)) {
    // Prisma's pg adapter names a lost connection by a kind of its own (adapter-pg mapSocketError).
    const kind = (e as { cause?: { kind?: unknown } }).cause?.kind;
    if (e.name === 'DriverAdapterError' && typeof kind === 'string' && ADAPTER_CONNECTION_KINDS.has(kind)) return `${kind}: ${String(e.message)}`;
    if (typeof e.code === 'string' && (PG_UNAVAILABLE_SQLSTATE.test(e.code) || SOCKET_CODES.has(e.code))) return String(e.message);
    if (typeof e.message === 'string' && PG_CONNECTION_MESSAGE.test(e.message)) return lastLine(e.message);
  }
  return undefined;
}

function temporalFailure(err: unknown): string | undefined {
  const isServiceError = [...chain(err)].some((e) => e.name === 'ServiceError');
  const status = grpcStatus(err);
  if (!isServiceError || status === undefined || !GRPC_UNAVAILABLE.has(status)) return undefined;
  const grpc = [...chain(err)].find((e) => e.code === status);
  return lastLine(String(grpc?.message ?? (err as Error).message));
}

/** The dependency `err` says is away, if it says so. */
export function dependencyFailure(err: unknown): DependencyFailure | undefined {
  const temporal = temporalFailure(err);
  if (temporal !== undefined) return { dependency: 'Temporal', reason: temporal };
  const postgres = postgresFailure(err);
  if (postgres !== undefined) return { dependency: 'PostgreSQL', reason: postgres };
  return undefined;
}
