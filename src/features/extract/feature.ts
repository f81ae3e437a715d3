// Extract (/v2/extract): URLs (a `/*` URL crawled) plus a prompt and/or schema give
// one JSON object with its sources. Each extract is a workflow `extract-<id>` that
// runs engine jobs for the pages, then the model; its row holds the answer.
import type { Feature } from '../../platform/feature.ts';
import { createExtractActivities } from './activities.ts';
import { createExtractNotificationActivities } from './notifications.ts';
import { extractRouteDocs } from './route-docs.ts';
import { extractRoutes } from './routes.ts';
import { recordingAttempts } from '../../platform/temporal/attempt-record.ts';
import type { ExtractFeatureSettings } from './config.ts';

export const extractFeature: Feature<ExtractFeatureSettings> = {
  name: 'extract',
  routes: extractRoutes,
  routeDocs: extractRouteDocs,
  activities: (deps) => ({ control: recordingAttempts(deps, createExtractActivities(deps)), io: createExtractNotificationActivities(deps) }),
};
