// Waiting, by polling, for a condition to hold, for tests and benches. Kept apart
// from harness.ts (which loads the database and Temporal) so that unit tests can
// import it alone.

/** What `waitFor` takes as "not yet". */
type Falsy = false | 0 | 0n | '' | null | undefined;

/**
 * Calls `fn` (sync or async) until it returns a truthy value and returns that
 * value; between calls it waits `intervalMs`. Once `timeoutMs` has passed after
 * a falsy answer it throws `timed out after <timeoutMs> ms waiting for <what>`.
 * An error thrown by `fn` ends the wait with that error.
 */
export async function waitFor<T>(what: string, fn: () => T | Promise<T>, timeoutMs = 120_000, intervalMs = 250): Promise<Exclude<T, Falsy>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value) return value as Exclude<T, Falsy>;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
