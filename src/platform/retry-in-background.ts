// A write that must happen eventually but that no caller should wait for while the
// database is away: freeing an idempotency key, giving a team slot back, marking a
// scrape resumable. A failed attempt is made again every `everyMs` until one
// succeeds or the write no longer matters (`forMs` after the first).

export interface BackgroundRetry {
  /** Between two attempts. */
  everyMs: number;
  /** After this long from the first attempt no other is made (the thing has lapsed, or is taken as lost). */
  forMs: number;
}

/** Resolves true once an attempt succeeded, false when the time ran out first; never rejects. */
export function eventually(attempt: () => Promise<unknown>, { everyMs, forMs }: BackgroundRetry): Promise<boolean> {
  const deadline = Date.now() + forMs;
  return new Promise((resolve) => {
    const run = () =>
      void attempt().then(
        () => resolve(true),
        () => {
          if (Date.now() + everyMs > deadline) resolve(false);
          else setTimeout(run, everyMs).unref();
        },
      );
    run();
  });
}

/** Runs `attempt`; resolves or rejects with its first outcome (for the caller to log), and after a failure keeps trying in the background. */
export function retryInBackground<T>(attempt: () => Promise<T>, { everyMs, forMs }: BackgroundRetry): Promise<T> {
  const first = attempt();
  first.catch(() => setTimeout(() => void eventually(attempt, { everyMs, forMs: forMs - everyMs }), everyMs).unref());
  return first;
}
