// The life of a URL in a crawl's frontier (job_url.state):
// queued -> claimed (by a batch) -> done | failed, or back to queued when its batch
// hands it back or is gone; skipped when the crawl stops early (credits); redirect
// for the target of another URL's redirect (an alias, not a page of its own).
export const FrontierState = {
  queued: 'queued',
  claimed: 'claimed',
  done: 'done',
  failed: 'failed',
  skipped: 'skipped',
  redirect: 'redirect',
} as const;

export type FrontierState = (typeof FrontierState)[keyof typeof FrontierState];
