// The monitors' section of the settings (src/config.ts composes them all).
import { nonNegativeInt, positiveInt } from '../../platform/config/env.ts';
import type { JobSettings } from '../../jobs/config.ts';

export function monitorsConfig() {
  return {
    /** Monitors a team may have (not counting deleted ones); one more is refused with 429 MONITOR_LIMIT. */
    maxPerTeam: positiveInt('MONITOR_MAX_PER_TEAM', 50),
    /** The shortest time between two scheduled checks a monitor may ask for; a schedule that runs more often is a 400. */
    minIntervalMinutes: positiveInt('MONITOR_MIN_INTERVAL_MINUTES', 5),
    /** Days a monitor keeps its checks when the request names none, and the most it may ask for. */
    defaultRetentionDays: positiveInt('MONITOR_DEFAULT_RETENTION_DAYS', 30),
    maxRetentionDays: positiveInt('MONITOR_MAX_RETENTION_DAYS', 365),
    /** A check missed while Temporal or the workers were down is still run if it is at most this late; older ones are skipped. */
    catchupWindowMinutes: positiveInt('MONITOR_CATCHUP_WINDOW_MINUTES', 10),
    /** Scheduled checks start up to this many seconds late, at random (at most a tenth of the monitor's interval), so monitors of one minute do not all start at once. */
    jitterSeconds: nonNegativeInt('MONITOR_JITTER_SECONDS', 30),
    /** How often each worker compares the monitors of its task queue with their Temporal Schedules and repairs the difference. */
    reconcileIntervalMs: positiveInt('MONITOR_RECONCILE_INTERVAL_MS', 30_000),
  };
}

export type MonitorSettings = ReturnType<typeof monitorsConfig>;

/** What monitors read: their section and the job engine's (each check runs a crawl or a batch). */
export type MonitorsFeatureSettings = JobSettings & { monitors: MonitorSettings };
