// Topping up a browser batch (browser-scraper.ts, moreTargets): it counts the URLs handed
// to the crawler whose page has not finished, and once they drop to the concurrency, asks
// the source for enough to make twice that: a closing tab's successor is always queued,
// and the source is asked once per `concurrency` pages.
import type { ScrapeTarget, TargetSupply } from './browser-batch.ts';

/** What the top-up needs of its batch. */
export interface TopUpBatch {
  /** The batch has stopped: nothing more is asked for. */
  stopped(): boolean;
  /** Stops the batch (the source failed). */
  stop(): void;
  /** The crawler's run has started: before it, Crawlee would purge what is added. */
  running(): boolean;
  /** Hands URLs to the crawler. */
  add(targets: ScrapeTarget[]): Promise<void>;
}

export class TopUp {
  readonly #source: ((room: number) => Promise<TargetSupply>) | undefined;
  readonly #concurrency: number;
  readonly #batch: TopUpBatch;
  #inBrowser: number;
  #exhausted: boolean;
  #refilling: Promise<void> | undefined;
  #again = false;
  /** What the source threw, unless the batch had stopped already: the batch's failure. */
  failure: { error: unknown } | undefined;

  /** Without a source, the batch is exactly its first `inBrowser` URLs. */
  constructor(source: ((room: number) => Promise<TargetSupply>) | undefined, inBrowser: number, concurrency: number, batch: TopUpBatch) {
    this.#source = source;
    this.#inBrowser = inBrowser;
    this.#concurrency = concurrency;
    this.#batch = batch;
    this.#exhausted = !source;
  }

  /** Nothing more will be asked for (the source is exhausted or the batch stopped) and no request is under way. */
  done(): boolean {
    return (this.#exhausted || this.#batch.stopped()) && !this.#refilling;
  }

  /** Resolves once the request under way, if any, has ended (it never rejects). */
  async settled(): Promise<void> {
    await this.#refilling;
  }

  /** One URL handed to the crawler is finished: its page was stored, failed or handed back. */
  pageDone = (): void => {
    this.#inBrowser--;
    this.refill();
  };

  /** Asks the source for more if the batch has room, never twice at once (a call during a request asks again after it). */
  refill = (): void => {
    if (this.#exhausted || this.#batch.stopped() || !this.#batch.running()) return;
    if (this.#refilling) {
      this.#again = true;
      return;
    }
    this.#refilling = (async () => {
      do {
        this.#again = false;
        await this.#refillOnce();
      } while (this.#again && !this.#exhausted && !this.#batch.stopped());
    })()
      .catch((error: unknown) => {
        // The source failing (a database error) is not a page's fault: the batch fails and is retried.
        // After a stop, what it claimed is left to the retry like any unstored page.
        if (this.#batch.stopped()) return;
        this.failure = { error };
        this.#batch.stop();
      })
      .finally(() => (this.#refilling = undefined));
  };

  async #refillOnce(): Promise<void> {
    if (this.#inBrowser > this.#concurrency) return;
    while (!this.#exhausted && !this.#batch.stopped() && this.#inBrowser < 2 * this.#concurrency) {
      const supply = await this.#source!(2 * this.#concurrency - this.#inBrowser);
      this.#exhausted = supply.exhausted;
      if (supply.targets.length === 0) return;
      this.#inBrowser += supply.targets.length;
      await this.#batch.add(supply.targets);
    }
  }
}
