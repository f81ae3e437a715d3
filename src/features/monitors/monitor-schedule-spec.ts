// A monitor's schedule as the API stores and echoes it (`cron`, the `text` it came
// from, `timezone`), checked against the deployment's shortest interval.
import { DomainError } from '../../platform/domain-error.ts';
import { cronCadence, CronError, parseCron, type CronCadence } from './cron.ts';
import { scheduleTextToCron, ScheduleTextError } from './schedule-text.ts';

export interface MonitorSchedule {
  cron: string;
  text?: string;
  timezone: string;
}

function validTimezone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** The stored schedule and how often it runs; a DomainError (400) says what is wrong with it. */
export function normaliseSchedule(
  input: { cron?: string; text?: string; timezone?: string },
  minIntervalMinutes: number,
): MonitorSchedule & { cadence: CronCadence } {
  const timezone = input.timezone ?? 'UTC';
  if (!validTimezone(timezone))
    throw new DomainError('invalid', `schedule.timezone "${timezone}" is not an IANA time zone (e.g. UTC, Europe/Paris, America/New_York)`);
  let cron: string;
  try {
    cron = input.text !== undefined ? scheduleTextToCron(input.text) : input.cron!.trim().replace(/\s+/g, ' ');
  } catch (err) {
    if (err instanceof ScheduleTextError) throw new DomainError('invalid', `schedule.text: ${err.message}`, 'INVALID_SCHEDULE');
    throw err;
  }
  let cadence: CronCadence;
  try {
    cadence = cronCadence(parseCron(cron));
  } catch (err) {
    if (err instanceof CronError) throw new DomainError('invalid', `schedule.cron "${cron.slice(0, 200)}" is not valid: ${err.message}`, 'INVALID_SCHEDULE');
    throw err;
  }
  if (cadence.runsPerYear === 0) throw new DomainError('invalid', `schedule.cron "${cron}" never runs (no such day)`, 'INVALID_SCHEDULE');
  if (cadence.shortestGapMinutes < minIntervalMinutes) {
    throw new DomainError(
      'invalid',
      `The schedule ${input.text !== undefined ? `"${input.text}" (${cron})` : `"${cron}"`} runs every ${cadence.shortestGapMinutes} minute(s); monitors on this server run at most every ${minIntervalMinutes} minutes (MONITOR_MIN_INTERVAL_MINUTES)`,
      'SCHEDULE_TOO_FREQUENT',
    );
  }
  return { cron, ...(input.text !== undefined && { text: input.text }), timezone, cadence };
}
