// How many pages a crawl scrapes at once, and how that maps onto batch
// activities (one browser each) running side by side.

export interface CrawlConcurrency {
  parallelBatches: number;
  /** Pages open at once in one batch's browser. */
  pagesPerBatch: number;
}

export function crawlConcurrency(opts: { teamLimit: number; maxConcurrency?: number; delay?: number; pagesPerBrowser: number }): CrawlConcurrency {
  const pages = opts.delay !== undefined ? 1 : Math.max(1, Math.min(opts.maxConcurrency ?? opts.teamLimit, opts.teamLimit));
  const parallelBatches = Math.ceil(pages / Math.max(1, opts.pagesPerBrowser));
  // Spread evenly and rounded down: the window never holds more pages than the cap.
  return { parallelBatches, pagesPerBatch: Math.max(1, Math.floor(pages / parallelBatches)) };
}
