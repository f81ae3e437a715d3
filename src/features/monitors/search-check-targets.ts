// Running a check's search targets through the search tool (the search feature's),
// charged to the monitor's team and API key as searches.
import { Context } from '@temporalio/activity';
import { contractTool, type ToolRegistry } from '../../platform/tools/tool.ts';
import type { ActivityDeps } from '../../platform/temporal/activity-deps.ts';
import { runSearchTarget, searchRefused, type SearchTarget } from './search-targets.ts';
import type { StoredTarget } from './target-jobs.ts';
import { ENDED_CHECK_STATUSES } from './check-end.ts';
import { checkSearchCallId } from './check-job-ids.ts';
import { searchRecorded, type TargetResult } from './check-results.ts';
import type { MonitorsFeatureSettings } from './config.ts';

/** Runs the check's search targets and records each target's results on the check; a retry skips targets already recorded. */
export async function searchCheckTargets(
  { db, tools }: Pick<ActivityDeps<MonitorsFeatureSettings>, 'db'> & { tools: ToolRegistry },
  checkId: string,
): Promise<void> {
  const check = await db.monitorCheck.findUnique({ where: { id: checkId }, include: { monitor: true } });
  if (!check || ENDED_CHECK_STATUSES.includes(check.status)) return;
  const search = contractTool(tools, 'search');
  const targets = (check.monitor.targets as StoredTarget[]).filter((t): t is SearchTarget => t.type === 'search');
  const ctx = Context.current();
  let results = (check.targetResults ?? []) as unknown as TargetResult[];
  for (const target of targets) {
    if (searchRecorded(results, target.id)) continue;
    const { apiKeyId } = check.monitor;
    const result = apiKeyId
      ? await runSearchTarget(
          search,
          target,
          {
            teamId: check.monitor.teamId,
            apiKeyId,
            zeroDataRetention: false,
            signal: ctx.cancellationSignal,
            heartbeat: (detail) => ctx.heartbeat(detail),
          },
          (query) => checkSearchCallId(check.id, target.id, query),
        )
      : searchRefused(target, 'The monitor has no API key to charge its searches to (its key was deleted); create the monitor again');
    results = [...results.filter((r) => r.targetId !== target.id), result];
    await db.monitorCheck.update({ where: { id: check.id }, data: { targetResults: results as object[], updatedAt: new Date() } });
  }
}
