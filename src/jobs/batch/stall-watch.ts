// A batch with pages in hand that settles none of them for longer than a page may take
// is waiting on something no row of the database shows (a wait inside its worker
// process): it says so, once per stall, with what it holds, so that an operator, and a
// failing test's report, sees where it waits instead of a crawl that only stops moving.

export class StallWatch {
  readonly #afterMs: number;
  #handled = -1;
  /** Since when the batch has had pages in hand and settled none (undefined: nothing in hand at the last check). */
  #since: number | undefined;
  #told = false;

  /** `afterMs`: how long a batch may settle nothing with pages in hand (a page's own time limit and some). */
  constructor(afterMs: number) {
    this.#afterMs = afterMs;
  }

  /**
   * Called on the batch's heartbeat with its pages settled so far and those in hand: how long it has
   * been stalled when that is to be told now (the first time past `afterMs` in this stall), else undefined.
   */
  check(now: number, handled: number, inHand: number): number | undefined {
    if (handled !== this.#handled || inHand <= 0 || this.#since === undefined) {
      this.#handled = handled;
      this.#since = inHand > 0 ? now : undefined;
      this.#told = false;
      return undefined;
    }
    const stalledMs = now - this.#since;
    if (this.#told || stalledMs < this.#afterMs) return undefined;
    this.#told = true;
    return stalledMs;
  }
}
