// What a batch has done so far. Its heartbeat reports `handled`; the batch
// completes only when every URL it claimed for this attempt is handled.
export class BatchTally {
  claimed = 0;
  /** Claimed URLs this attempt must store (an earlier attempt may have stored some). */
  todo = 0;
  succeeded = 0;
  failed = 0;
  readonly #onProgress: (handled: number) => void;

  constructor(onProgress: (handled: number) => void = () => undefined) {
    this.#onProgress = onProgress;
  }

  get handled(): number {
    return this.succeeded + this.failed;
  }

  /** Pages in hand: claimed for this attempt and not settled yet. */
  get inFlight(): number {
    return this.todo - this.handled;
  }

  stored(): void {
    this.succeeded++;
    this.#onProgress(this.handled);
  }

  pageFailed(): void {
    this.failed++;
    this.#onProgress(this.handled);
  }
}
