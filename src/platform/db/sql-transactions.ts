// Transactions of raw SQL on a pg pool of their own, for the one hot path made
// only of raw statements: a crawl's page writes (jobs/pages/page-store.ts).
// Prisma runs every statement, raw ones too, through its query engine: about
// 0.25 ms of CPU each on this machine against 0.05 ms on pg itself, and a group
// of a crawl's pages is about 13 statements, so on the HTTP path that was a
// sixth of the worker's CPU a page (docs/benchmarks.md, "The HTTP path's CPU").
// Statements are written as Prisma's tagged templates either way; code that takes
// a SqlTx runs unchanged inside a Prisma transaction.
import pg from 'pg';
import { Prisma } from '../../generated/prisma/client.ts';
import { DEFAULT_DB_LIMITS, poolLimits, type DbLimits } from './prisma.ts';

/** What a raw-SQL transaction offers: Prisma's `$executeRaw` and `$queryRaw` tagged templates (a Prisma transaction is one). */
export interface SqlTx {
  $executeRaw(query: TemplateStringsArray | Prisma.Sql, ...values: unknown[]): Promise<number>;
  $queryRaw<T = unknown>(query: TemplateStringsArray | Prisma.Sql, ...values: unknown[]): Promise<T>;
}

export interface SqlTransactionsOptions {
  databaseUrl: string;
  /** Connections at most. */
  max: number;
  limits?: DbLimits;
}

const INT8 = 20;

// Prisma's raw queries give int8 (bigserial ids, count(*)) as bigint; pg's default is a string.
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8 ? (value: string) => BigInt(value) : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

function statement(query: TemplateStringsArray | Prisma.Sql, values: unknown[]): Prisma.Sql {
  return query instanceof Prisma.Sql ? query : Prisma.sql(query, ...(values as Prisma.Sql[]));
}

function sqlTx(client: pg.PoolClient): SqlTx {
  const run = (query: TemplateStringsArray | Prisma.Sql, values: unknown[]) => {
    const { text, values: params } = statement(query, values);
    return client.query({ text, values: params });
  };
  return {
    $executeRaw: async (query, ...values) => (await run(query, values)).rowCount ?? 0,
    $queryRaw: async <T>(query: TemplateStringsArray | Prisma.Sql, ...values: unknown[]) => (await run(query, values)).rows as T,
  };
}

export class SqlTransactions {
  readonly #pool: pg.Pool;

  constructor(opts: SqlTransactionsOptions) {
    this.#pool = new pg.Pool({
      connectionString: opts.databaseUrl,
      max: opts.max,
      // The limits of the service's Prisma client.
      ...poolLimits(opts.limits ?? DEFAULT_DB_LIMITS),
      // Idle connections close and never keep a process alive.
      idleTimeoutMillis: 10_000,
      allowExitOnIdle: true,
      types,
    });
    // A connection that breaks while idle is dropped by the pool; without a listener its error would end the process.
    this.#pool.on('error', () => undefined);
  }

  /** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
  async transaction<T>(work: (tx: SqlTx) => Promise<T>): Promise<T> {
    const client = await this.#pool.connect();
    let broken: Error | undefined;
    // Between two statements no query is there to fail: a connection lost then is an 'error' event, which
    // without a listener ends the process. The next statement fails on the dead connection instead.
    const onError = (err: Error) => (broken = err);
    client.on('error', onError);
    try {
      await client.query('BEGIN');
      const result = await work(sqlTx(client));
      await client.query('COMMIT');
      return result;
    } catch (err) {
      // A connection that cannot even roll back is not given to the next transaction.
      await client.query('ROLLBACK').catch((rollbackError: unknown) => (broken = rollbackError as Error));
      throw err;
    } finally {
      // A broken connection keeps its listener: it may report more as it is torn down.
      if (!broken) client.removeListener('error', onError);
      client.release(broken);
    }
  }

  /** One statement on its own (autocommit), as Prisma's `$queryRaw` runs it. */
  async $queryRaw<T = unknown>(query: TemplateStringsArray | Prisma.Sql, ...values: unknown[]): Promise<T> {
    const { text, values: params } = statement(query, values);
    return (await this.#pool.query({ text, values: params })).rows as T;
  }

  end(): Promise<void> {
    return this.#pool.end();
  }
}
