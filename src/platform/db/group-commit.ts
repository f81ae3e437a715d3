// Group commit: writes that arrive while a transaction is running wait for it
// and then go together in the next one, so that a burst of small writes costs
// a few transactions instead of one each. A write waits for nothing when no
// transaction runs, so a lone write is as fast as before. A group that fails is
// written again one item at a time: each item then gets its own answer (its own
// error), exactly as if it had never been grouped; the failed group's
// transaction rolled back, so nothing is written twice.

export interface GroupCommitOptions<T> {
  /** Writes a group in one transaction, all or nothing. */
  writeGroup: (items: T[]) => Promise<void>;
  /** Writes one item (a group of one, and each item of a failed group). */
  writeOne: (item: T) => Promise<void>;
  /** Most items in one group. */
  maxGroup: number;
}

interface Pending<T> {
  item: T;
  resolve: () => void;
  reject: (error: unknown) => void;
}

export class GroupCommit<T> {
  readonly #opts: GroupCommitOptions<T>;
  readonly #queue: Pending<T>[] = [];
  #running = false;

  constructor(opts: GroupCommitOptions<T>) {
    this.#opts = { ...opts, maxGroup: Math.max(1, opts.maxGroup) };
  }

  /** Resolves once the item is committed; rejects with what writing it alone threw. */
  write(item: T): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.#queue.push({ item, resolve, reject });
      if (!this.#running) void this.#drain();
    });
  }

  async #drain(): Promise<void> {
    this.#running = true;
    try {
      while (this.#queue.length > 0) {
        const group = this.#queue.splice(0, this.#opts.maxGroup);
        if (group.length > 1) {
          try {
            await this.#opts.writeGroup(group.map((p) => p.item));
            for (const p of group) p.resolve();
            continue;
          } catch {
            // One by one below: each item learns whether it was the one that failed.
          }
        }
        for (const p of group) {
          await this.#opts.writeOne(p.item).then(p.resolve, p.reject);
        }
      }
    } finally {
      this.#running = false;
    }
  }
}
