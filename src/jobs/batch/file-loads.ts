// Files a batch loads beside its lanes and its browser: PDFs its source routes
// straight to a file fetch, and downloads a browser tab ran into. Each load takes
// a team slot of its own, so whoever finds a file only hands it over and goes on.
// This is what keeps a batch from wedging itself: the source and the page writes
// are waited for by lanes and tabs that hold slots, so neither may ever wait for
// a slot (issue 23: a source that loaded a PDF under a new slot, while the lane
// holding the team's last slot waited for that source, stalled the batch forever).

export class FileLoads<T> {
  readonly #limit: number;
  readonly #load: (target: T) => Promise<void>;
  readonly #queue: T[] = [];
  readonly #running = new Set<Promise<void>>();
  #failure: { error: unknown } | undefined;

  /** `load` runs at most `limit` at once; the first load that throws fails the batch (see `failure`). */
  constructor(limit: number, load: (target: T) => Promise<void>) {
    this.#limit = Math.max(1, limit);
    this.#load = load;
  }

  /** Queues a file; never waits. */
  add(target: T): void {
    this.#queue.push(target);
    this.#startMore();
  }

  /** Files queued and not started (a batch that stops early hands them back). */
  takeQueued(): T[] {
    return this.#queue.splice(0);
  }

  /** Files queued or loading. */
  get pending(): number {
    return this.#queue.length + this.#running.size;
  }

  /** The first load that threw: nothing will store its file, so the batch must fail. */
  get failure(): { error: unknown } | undefined {
    return this.#failure;
  }

  /** Waits for every queued and running load; rethrows the first failure. */
  async drain(): Promise<void> {
    while (this.#running.size > 0) await Promise.all(this.#running);
    if (this.#failure) throw this.#failure.error;
  }

  #startMore(): void {
    while (this.#running.size < this.#limit && this.#queue.length > 0 && !this.#failure) {
      const target = this.#queue.shift()!;
      const running: Promise<void> = this.#load(target)
        .catch((error: unknown) => void (this.#failure ??= { error }))
        .finally(() => {
          this.#running.delete(running);
          this.#startMore();
        });
      this.#running.add(running);
    }
  }
}
