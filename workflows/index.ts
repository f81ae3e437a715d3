export { crawlWorkflow } from './crawl.ts';
