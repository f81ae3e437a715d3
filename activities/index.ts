import { createCrawlActivities } from './crawl.ts';
import type { ActivityDeps } from './deps.ts';
import { createRetentionActivities } from './retention.ts';

export function createActivities(deps: ActivityDeps) {
  return { ...createCrawlActivities(deps), ...createRetentionActivities(deps) };
}

export type Activities = ReturnType<typeof createActivities>;
export type { ActivityDeps } from './deps.ts';
