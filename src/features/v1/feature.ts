// The /v1 API of Firecrawl's older clients (V1FirecrawlApp, FirecrawlAppV1) on top of
// /v2: each request is translated into its /v2 form and run through the /v2 routes or
// the job engine's start functions, and the answer reshaped into v1's. No engine of its
// own: a v1 crawl is a crawl, with at most the extras of jobs/crawl-request.ts.
// The v1 job watcher (WebSocket /v1/crawl/{id}) is the job-watch feature's.
import type { Feature } from '../../platform/feature.ts';
import { v1RouteDocs } from './route-docs.ts';
import { v1Routes } from './routes.ts';
import type { JobSettings } from '../../jobs/config.ts';

export const v1Feature: Feature<JobSettings> = {
  name: 'v1',
  v1Routes,
  routeDocs: v1RouteDocs,
};
