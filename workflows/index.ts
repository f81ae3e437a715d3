export { crawlWorkflow } from './crawl.ts';
export { purgeExpiredWorkflow } from './purge.ts';
