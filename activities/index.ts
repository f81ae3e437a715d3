// The worker's activities, gathered from every feature by resource class (see
// FeatureActivities in src/platform/feature.ts for what each class means).
import { FEATURES } from '../src/features/index.ts';
import type { FeatureActivities } from '../src/platform/feature.ts';
import type { ActivityDeps } from '../src/platform/temporal/activity-deps.ts';

export function createActivities(deps: ActivityDeps): Required<FeatureActivities> {
  const all: Required<FeatureActivities> = { control: {}, browser: {}, io: {} };
  for (const feature of FEATURES) {
    const given = feature.activities?.(deps) ?? {};
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
