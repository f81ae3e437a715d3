// Every feature of the service, and the job engine they share. The gateway mounts their routes, the worker
// registers their activities by resource class and runs their services; their
// workflows are listed in the top-level workflows/index.ts (the bundle's entry).
import type { Config } from '../config.ts';
import type { Feature } from '../platform/feature.ts';
import { jobEngine } from '../jobs/job-engine.ts';
import { batchScrapeFeature } from './batch-scrape/feature.ts';
import { browserSessionsFeature } from './browser-sessions/feature.ts';
import { crawlFeature } from './crawl/feature.ts';
import { jobWatchFeature } from './job-watch/feature.ts';
import { mapFeature } from './map/feature.ts';
import { monitorsFeature } from './monitors/feature.ts';
import { singleScrapeFeature } from './single-scrape/feature.ts';
import { retentionFeature } from './retention/feature.ts';
import { searchFeature } from './search/feature.ts';
import { teamFeature } from './team/feature.ts';
import { webhooksFeature } from './webhooks/feature.ts';
import { parseFeature } from './parse/feature.ts';
import { extractFeature } from './extract/feature.ts';
import { agentFeature } from './agent/feature.ts';
import { cloudServicesFeature } from './cloud-services/feature.ts';
import { v1Feature } from './v1/feature.ts';

// Typed with the whole settings: a feature that names a section they lack fails to compile here.
export const FEATURES: Feature<Config>[] = [
  jobEngine,
  crawlFeature,
  batchScrapeFeature,
  singleScrapeFeature,
  mapFeature,
  jobWatchFeature,
  teamFeature,
  webhooksFeature,
  retentionFeature,
  browserSessionsFeature,
  searchFeature,
  monitorsFeature,
  parseFeature,
  extractFeature,
  agentFeature,
  cloudServicesFeature,
  v1Feature,
];
