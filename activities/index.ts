// The worker's activities, gathered from every feature by resource class (see
// FeatureActivities in src/platform/feature.ts for what each class means), with
// the registry of every feature's tools handed to each factory.
import type { Config } from '../src/config.ts';
import { FEATURES } from '../src/features/index.ts';
import type { FeatureActivities } from '../src/platform/feature.ts';
import { toolRegistry, type ToolDeps } from '../src/platform/tools/tool.ts';

export async function createActivities(deps: ToolDeps<Config>): Promise<Required<FeatureActivities>> {
  const tools = toolRegistry(FEATURES.flatMap((feature) => feature.tools?.(deps) ?? []));
  const all: Required<FeatureActivities> = { control: {}, browser: {}, io: {} };
  for (const feature of FEATURES) {
    const given = (await feature.activities?.({ db: deps.db, config: deps.config, log: deps.log, tools, temporal: deps.temporal })) ?? {};
    for (const cls of ['control', 'browser', 'io'] as const) {
      for (const [name, fn] of Object.entries(given[cls] ?? {})) {
        if (Object.values(all).some((registered) => name in registered)) throw new Error(`activity ${name} is registered twice (feature ${feature.name})`);
        all[cls][name] = fn;
      }
    }
  }
  return all;
}

export type { ActivityDeps } from '../src/platform/temporal/activity-deps.ts';
