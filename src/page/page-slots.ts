// Team concurrency slots for the pages of one browser batch. A slot is taken
// right before a page navigates and given back exactly once: when the page closes
// (Crawlee closes every page after its handler, its error handlers or an abort) or,
// at the latest, when the batch ends.
import type { Page } from 'playwright';

export interface SlotLease {
  /** How long the caller waited for the slot. */
  waitedMs: number;
  release(): Promise<void>;
}

/**
 * The wait for a slot ended because the page was closed (a Crawlee timeout, the
 * batch stopping), not because of anything the page did: it is not a page failure.
 */
export class SlotWaitInterrupted extends Error {
  constructor() {
    super('The page was closed while it waited for a concurrency slot');
    this.name = 'SlotWaitInterrupted';
  }
}

export type AcquireSlot<T> = (target: T, signal: AbortSignal) => Promise<SlotLease>;

export class PageSlots<T> {
  readonly #acquire: AcquireSlot<T> | undefined;
  /** Every lease of the batch (a few hundred at most); releasing one twice returns its first release. */
  readonly #leases = new Set<() => Promise<void>>();
  readonly #byPage = new WeakMap<Page, () => Promise<void>>();
  /** Aborted when the batch ends: stops every wait for a slot. */
  readonly #ended = new AbortController();
  #releaseError: unknown;

  constructor(acquire: AcquireSlot<T> | undefined) {
    this.#acquire = acquire;
  }

  /** Waits for a slot for `page` and returns the milliseconds waited (0 without slots). */
  async take(page: Page, target: T): Promise<number> {
    if (!this.#acquire) return 0;
    const pageClosed = new AbortController();
    let release: (() => Promise<void>) | undefined;
    page.once('close', () => {
      pageClosed.abort();
      if (release) void this.#settle(release());
    });
    const interrupted = () => pageClosed.signal.aborted || this.#ended.signal.aborted;
    let lease: SlotLease;
    try {
      lease = await this.#acquire(target, AbortSignal.any([this.#ended.signal, pageClosed.signal]));
    } catch (err) {
      throw interrupted() ? new SlotWaitInterrupted() : err;
    }
    release = this.#hold(lease);
    this.#byPage.set(page, release);
    if (interrupted()) {
      await this.#settle(release());
      throw new SlotWaitInterrupted();
    }
    return lease.waitedMs;
  }

  /** Gives the page's slot back before the page closes (no-op if it holds none or gave it back already). */
  async release(page: Page): Promise<void> {
    const release = this.#byPage.get(page);
    if (release) await this.#settle(release());
  }

  /** Ends all waits, releases every slot still held and waits for all releases; rethrows the first that failed. */
  async close(): Promise<void> {
    this.#ended.abort();
    await Promise.all([...this.#leases].map((release) => this.#settle(release())));
    if (this.#releaseError !== undefined) throw this.#releaseError;
  }

  #hold(lease: SlotLease): () => Promise<void> {
    let released: Promise<void> | undefined;
    const release = () => (released ??= lease.release());
    this.#leases.add(release);
    return release;
  }

  /** A release fails the batch (at close), not the page that happened to close. */
  async #settle(released: Promise<void>): Promise<void> {
    try {
      await released;
    } catch (err) {
      this.#releaseError ??= err;
    }
  }
}
