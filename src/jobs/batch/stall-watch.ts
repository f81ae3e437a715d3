// A batch with work in hand (pages claimed and not settled, or a claim it has not
// finished) that settles nothing for longer than a page may take is waiting on
// something no row of the database shows (a wait inside its worker process): it says
// so, once per stall, with what it holds, so that an operator, and a
// failing test's report, sees where it waits instead of a crawl that only stops moving.

export class StallWatch {
  readonly #afterMs: number;
  #handled = -1;
  /** Since when the batch has had work in hand and settled nothing (undefined: nothing in hand at the last check). */
  #since: number | undefined;
  #told = false;

  /** `afterMs`: how long a batch may settle nothing with work in hand (a page's own time limit and some). */
  constructor(afterMs: number) {
    this.#afterMs = afterMs;
  }

  /**
   * Called on the batch's heartbeat with its pages settled so far and whether it has work in hand (a
   * batch waiting for other batches' links has none): how long it has been stalled when that is to be
   * told now (the first time past `afterMs` in this stall), else undefined.
   */
  check(now: number, handled: number, inHand: boolean): number | undefined {
    if (handled !== this.#handled || !inHand || this.#since === undefined) {
      this.#handled = handled;
      this.#since = inHand ? now : undefined;
      this.#told = false;
      return undefined;
    }
    const stalledMs = now - this.#since;
    if (this.#told || stalledMs < this.#afterMs) return undefined;
    this.#told = true;
    return stalledMs;
  }
}
