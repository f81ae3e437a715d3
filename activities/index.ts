import { createCrawlActivities } from './crawl.ts';
import type { ActivityDeps } from './deps.ts';

export function createActivities(deps: ActivityDeps) {
  return { ...createCrawlActivities(deps) };
}

export type Activities = ReturnType<typeof createActivities>;
export type { ActivityDeps } from './deps.ts';
