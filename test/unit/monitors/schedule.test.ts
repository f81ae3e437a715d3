// Schedule texts to cron, cron checking and cadence, and the stored schedule with
// the deployment's shortest interval.
import { describe, expect, it } from 'vitest';
import { scheduleTextToCron, ScheduleTextError, SCHEDULE_TEXTS_UNDERSTOOD } from '../../../src/features/monitors/schedule-text.ts';
import { cronCadence, CronError, parseCron } from '../../../src/features/monitors/cron.ts';
import { normaliseSchedule } from '../../../src/features/monitors/monitor-schedule-spec.ts';
import { DomainError } from '../../../src/platform/domain-error.ts';

describe('scheduleTextToCron', () => {
  it.each([
    ['every 15 minutes', '*/15 * * * *'],
    ['Every 30 mins', '*/30 * * * *'],
    ['every 5m', '*/5 * * * *'],
    ['every minute', '* * * * *'],
    ['every 1 minute', '* * * * *'],
    ['hourly', '0 * * * *'],
    ['every hour', '0 * * * *'],
    ['every 6 hours', '0 */6 * * *'],
    ['daily', '0 0 * * *'],
    ['daily at 9:00', '0 9 * * *'],
    ['every day at 9am', '0 9 * * *'],
    ['daily at 6:30pm', '30 18 * * *'],
    ['daily at 12am', '0 0 * * *'],
    ['daily at noon', '0 12 * * *'],
    ['weekdays at 18:30', '30 18 * * 1-5'],
    ['every weekday at 08:05', '5 8 * * 1-5'],
    ['weekends at 10:00', '0 10 * * 0,6'],
    ['mondays at 9:00', '0 9 * * 1'],
    ['every friday at 17:45', '45 17 * * 5'],
    ['at 9:00 every day', '0 9 * * *'],
    ['at 7am on weekdays', '0 7 * * 1-5'],
    ['weekly', '0 0 * * 1'],
    ['monthly', '0 0 1 * *'],
  ])('%s is %s', (text, cron) => {
    expect(scheduleTextToCron(text)).toBe(cron);
  });

  it.each([
    ['whenever you like', 'is not understood'],
    ['every 45 minutes', 'N must divide 60'],
    ['every 5 hours', 'N must divide 24'],
    ['daily at 25:00', 'not a time of day'],
    ['daily at 13pm', '12-hour clock'],
    ['daily at nine', 'is not understood'],
    ['every 0 minutes', 'N must divide 60'],
  ])('refuses "%s", listing what it understands', (text, why) => {
    let error: unknown;
    try {
      scheduleTextToCron(text);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ScheduleTextError);
    expect((error as Error).message).toContain(why);
    for (const understood of SCHEDULE_TEXTS_UNDERSTOOD) expect((error as Error).message).toContain(understood);
  });
});

describe('parseCron', () => {
  it('expands values, ranges, steps, lists and names; folds Sunday 7 into 0', () => {
    expect(parseCron('*/20 9-17/4 1,15 jan-mar mon-fri,7')).toEqual({
      minutes: [0, 20, 40],
      hours: [9, 13, 17],
      daysOfMonth: [1, 15],
      months: [1, 2, 3],
      daysOfWeek: [0, 1, 2, 3, 4, 5],
      eitherDay: true,
    });
  });

  it.each([
    ['* * * *', 'has 5 fields'],
    ['60 * * * *', 'minute field has 60, outside 0-59'],
    ['* 24 * * *', 'hour field has 24'],
    ['* * 0 * *', 'day of month field has 0'],
    ['* * * 13 *', 'month field has 13'],
    ['*/0 * * * *', 'a step is a number from 1'],
    ['5-1 * * * *', 'runs backwards'],
    ['x * * * *', 'is not a number'],
    ['* * * foo *', 'not a number or a name'],
  ])('refuses %s', (cron, why) => {
    expect(() => parseCron(cron)).toThrow(CronError);
    expect(() => parseCron(cron)).toThrow(why);
  });
});

describe('cronCadence', () => {
  it('counts the runs of a year and the shortest gap between two', () => {
    expect(cronCadence(parseCron('*/15 * * * *'))).toEqual({ runsPerYear: 365 * 96, shortestGapMinutes: 15 });
    expect(cronCadence(parseCron('0 9 * * *'))).toEqual({ runsPerYear: 365, shortestGapMinutes: 1440 });
    // 2027 has 261 weekdays; Friday 18:30 to Monday 18:30 is the longest gap, Monday to Tuesday the shortest.
    expect(cronCadence(parseCron('30 18 * * 1-5'))).toEqual({ runsPerYear: 261, shortestGapMinutes: 1440 });
    expect(cronCadence(parseCron('0 0 1 * *'))).toEqual({ runsPerYear: 12, shortestGapMinutes: 28 * 1440 });
    // Both day fields restricted: a day matching either runs (2027 has 53 Fridays, one of them, 13 August, a 13th).
    expect(cronCadence(parseCron('0 0 13 * 5')).runsPerYear).toBe(12 + 53 - 1);
    expect(cronCadence(parseCron('0 0 31 2 *')).runsPerYear).toBe(0);
  });
});

describe('normaliseSchedule', () => {
  it('keeps the text, gives its cron and UTC by default', () => {
    expect(normaliseSchedule({ text: 'weekdays at 18:30' }, 5)).toMatchObject({ cron: '30 18 * * 1-5', text: 'weekdays at 18:30', timezone: 'UTC' });
    expect(normaliseSchedule({ cron: ' 0  9 * * * ', timezone: 'Europe/Paris' }, 5)).toMatchObject({ cron: '0 9 * * *', timezone: 'Europe/Paris' });
  });

  it('refuses what runs more often than the shortest interval, an unknown time zone and a day that never comes', () => {
    const refusal = (input: Parameters<typeof normaliseSchedule>[0], min = 5) => {
      try {
        normaliseSchedule(input, min);
      } catch (err) {
        return err as DomainError;
      }
      throw new Error('accepted');
    };
    expect(refusal({ text: 'every 2 minutes' })).toMatchObject({ kind: 'invalid', code: 'SCHEDULE_TOO_FREQUENT' });
    expect(refusal({ text: 'every 2 minutes' }).message).toContain('at most every 5 minutes (MONITOR_MIN_INTERVAL_MINUTES)');
    expect(refusal({ cron: '0,1 9 * * *' }).message).toContain('runs every 1 minute(s)');
    expect(normaliseSchedule({ text: 'every 5 minutes' }, 5).cron).toBe('*/5 * * * *');
    expect(refusal({ cron: '0 9 * * *', timezone: 'Mars/Olympus' }).message).toContain('not an IANA time zone');
    expect(refusal({ cron: '0 0 30 2 *' }).message).toContain('never runs');
    expect(refusal({ text: 'sometimes' })).toMatchObject({ code: 'INVALID_SCHEDULE' });
    expect(refusal({ text: 'sometimes' }).message).toMatch(/^schedule.text: .*Understood: /);
    expect(refusal({ cron: '* * *' }).message).toContain('has 5 fields');
  });
});
