// One POST /v2/map = one short workflow: a single activity reads the site and
// stores the links with the map's row (too many for a workflow payload); the
// gateway waits for the workflow and reads the row.
import { proxyActivities } from '@temporalio/workflow';
import type { MapActivities } from './activities.ts';
import { MAP_RETRY } from './definitions.ts';

export async function mapWorkflow(mapId: string, timeoutMs: number): Promise<void> {
  const { mapSite } = proxyActivities<MapActivities>({
    // The caller stops waiting at its timeout; the map gets a little longer to record how it ended.
    startToCloseTimeout: timeoutMs + 30_000,
    heartbeatTimeout: '2 minutes',
    retry: MAP_RETRY,
  });
  await mapSite(mapId);
}
