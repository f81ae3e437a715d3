export { crawlWorkflow } from './crawl.ts';
export { purgeExpiredWorkflow } from './purge.ts';
export { crawlWebhooksWorkflow } from './crawl-webhooks.ts';
