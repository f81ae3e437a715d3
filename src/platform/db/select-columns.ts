// A select list that reads a table's columns under the field names Prisma's client gives them, for
// the raw statements that read a whole row where an ORM call would cost its query's compilation
// (1-2.5 ms of CPU a call with Prisma's client engine, docs/benchmarks.md).
import { Prisma } from '../../generated/prisma/client.ts';

/** `<alias>.<column> AS "<prefix><field>"` for each field of `columns`. The names are the code's, never a caller's. */
export function selectColumns(alias: string, columns: Record<string, string>, prefix = ''): Prisma.Sql {
  return Prisma.raw(
    Object.entries(columns)
      .map(([field, column]) => `${alias}.${column} AS "${prefix}${field}"`)
      .join(', '),
  );
}
