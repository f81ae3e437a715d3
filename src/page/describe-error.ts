/** First meaningful line of an error, for users; never empty. */
export function describeError(error: unknown): string {
  const err = error as { name?: string; message?: string; code?: string; meta?: { driverAdapterError?: { cause?: { originalMessage?: string } } } };
  // Prisma errors raised through a driver adapter have an empty message.
  const text = err?.message || err?.meta?.driverAdapterError?.cause?.originalMessage || String(error);
  const line = text
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l.length > 0);
  return line ?? `${err?.name ?? 'Error'}${err?.code ? ` ${err.code}` : ''}`;
}
