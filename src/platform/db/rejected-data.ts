// Tells a write PostgreSQL refused because of the data itself from one that
// failed for a reason that may pass (a restart, a lost connection, a deadlock).
// The first is the same on every retry, so a caller that writes hostile content
// records it as that item's failure instead of failing its whole batch.

/** SQLSTATE classes: 22 data exception (bad encoding, bad escape, value too long), 54 program limit exceeded (index row too big). */
const DATA_CLASSES = new Set(['22', '54']);

function sqlState(err: unknown): string | undefined {
  const e = err as { cause?: { code?: unknown }; meta?: { driverAdapterError?: { cause?: { code?: unknown } } } } | undefined;
  // Prisma's driver adapter raises the PostgreSQL error as its cause; $executeRaw wraps it in meta.
  const code = e?.cause?.code ?? e?.meta?.driverAdapterError?.cause?.code;
  return typeof code === 'string' ? code : undefined;
}

export function isRejectedData(err: unknown): boolean {
  const code = sqlState(err);
  return code !== undefined && DATA_CLASSES.has(code.slice(0, 2));
}
