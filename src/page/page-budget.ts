// A page's `timeout` covers navigation and everything done on the page after it
// (waitFor, actions, capture). Playwright calls get what is left; calls that take
// no timeout (page.evaluate, page.content) race against it.

export class PageTimeoutError extends Error {}

export class PageBudget {
  readonly #deadline: number;

  constructor(readonly totalMs: number) {
    this.#deadline = Date.now() + totalMs;
  }

  /** Milliseconds since the budget began (the page's navigation). */
  elapsedMs(): number {
    return Date.now() - (this.#deadline - this.totalMs);
  }

  /** Milliseconds left; at least 1, because Playwright reads 0 as "no timeout". */
  remaining(): number {
    return Math.max(1, this.#deadline - Date.now());
  }

  /** `work`, or a PageTimeoutError if the budget runs out first. */
  async race<T>(work: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new PageTimeoutError(`The page did not finish within its ${this.totalMs} ms timeout`)), this.#deadline - Date.now());
    });
    try {
      return await Promise.race([work, expired]);
    } finally {
      clearTimeout(timer);
    }
  }
}
