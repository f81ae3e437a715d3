// Writes of loaded pages run behind the browser: a page's tab closes, and the
// next page starts loading, as soon as its content is captured, while its rows
// are still being written. A bounded number of writes run at once, so a slow
// database slows the browser down instead of piling up pages in memory. The
// first failed write stops the queue; the batch then fails as a whole.

export class StoreQueue {
  readonly #pending = new Set<Promise<void>>();
  readonly #limit: number;
  readonly #onFailure: (error: unknown) => void;
  #failure: { error: unknown } | undefined;

  /** `onFailure` runs once, on the first failed write, so the caller can stop feeding the queue. */
  constructor(limit: number, onFailure: (error: unknown) => void) {
    this.#limit = Math.max(1, limit);
    this.#onFailure = onFailure;
  }

  /** Starts `store` once fewer than `limit` writes are running; resolves when it has started. */
  async add(store: () => Promise<void>): Promise<void> {
    while (this.#pending.size >= this.#limit) await Promise.race(this.#pending);
    if (this.#failure) throw new Error('an earlier page could not be stored, so no more pages are');
    const running: Promise<void> = store()
      .catch((error: unknown) => {
        if (this.#failure) return;
        this.#failure = { error };
        this.#onFailure(error);
      })
      .finally(() => this.#pending.delete(running));
    this.#pending.add(running);
  }

  /** Waits for every write; rethrows the first failure. */
  async drain(): Promise<void> {
    while (this.#pending.size > 0) await Promise.all(this.#pending);
    if (this.#failure) throw this.#failure.error;
  }
}
