// Single-page scrape: POST /v2/scrape and GET /v2/scrape/{id}. A scrape is a job of the crawl
// pipeline (src/jobs/job-kind.ts): its workflow and activities are the job engine's. Published
// as the `scrape` tool (scrape-tool.ts) for other features' activities.
import type { Feature } from '../../platform/feature.ts';
import { scrapeRouteDocs } from './route-docs.ts';
import { scrapeRoutes } from './routes.ts';
import { scrapeTool } from './scrape-tool.ts';
import type { SingleScrapeFeatureSettings } from './config.ts';

export const singleScrapeFeature: Feature<SingleScrapeFeatureSettings> = {
  name: 'single-scrape',
  routes: scrapeRoutes,
  routeDocs: scrapeRouteDocs,
  tools: (deps) => [scrapeTool(deps)],
};
