// A monitor's schedule written in words ("every 15 minutes", "daily at 9:00"),
// turned into the cron expression the monitor then keeps and echoes. Pure: a
// small grammar, matched whole, so anything it does not read is refused with the
// list of what it does read rather than guessed at.

export const SCHEDULE_TEXTS_UNDERSTOOD = [
  '"every N minutes" (N dividing 60: 1, 2, 3, 4, 5, 6, 10, 12, 15, 20, 30)',
  '"every N hours" (N dividing 24) or "hourly"',
  '"daily" or "daily at 9:00" (also "every day at 9am")',
  '"weekdays at 18:30", "weekends at 10:00"',
  '"weekly", "mondays at 9:00" (also "every monday at 9:00")',
  '"monthly" (the 1st at 00:00)',
];

export class ScheduleTextError extends Error {}

function problem(text: string, why?: string): ScheduleTextError {
  const head = why ?? `The schedule text "${text.slice(0, 100)}" is not understood`;
  return new ScheduleTextError(
    `${head}. Understood: ${SCHEDULE_TEXTS_UNDERSTOOD.join('; ')}; times as 9:00, 09:30, 18:30, 9am, 6:30pm, noon or midnight. Or send schedule.cron instead.`,
  );
}

const DAYS: Record<string, number> = { sunday: 0, monday: 1, tuesday: 2, wednesday: 3, thursday: 4, friday: 5, saturday: 6 };
const DAY_PATTERN = Object.keys(DAYS).join('|');

/** "9:00", "18:30", "9am", "6:30pm", "noon", "midnight" as [hour, minute]. */
function timeOfDay(text: string, whole: string): [number, number] {
  if (text === 'noon') return [12, 0];
  if (text === 'midnight') return [0, 0];
  const m = /^(\d{1,2})(?::(\d{2}))?\s*(am|pm)?$/.exec(text);
  if (!m || (m[2] === undefined && m[3] === undefined)) throw problem(whole, `The time "${text}" is not understood`);
  let hour = Number(m[1]);
  const minute = m[2] === undefined ? 0 : Number(m[2]);
  if (m[3]) {
    if (hour < 1 || hour > 12) throw problem(whole, `The time "${text}" has no hour ${hour} on a 12-hour clock`);
    hour = (hour % 12) + (m[3] === 'pm' ? 12 : 0);
  }
  if (hour > 23 || minute > 59) throw problem(whole, `The time "${text}" is not a time of day`);
  return [hour, minute];
}

function every(n: number, unit: 'minute' | 'hour', whole: string): string {
  const span = unit === 'minute' ? 60 : 24;
  if (n < 1 || span % n !== 0) throw problem(whole, `Every ${n} ${unit}s cannot be written as a cron schedule that runs evenly (N must divide ${span})`);
  if (unit === 'minute') return n === 1 ? '* * * * *' : `*/${n} * * * *`;
  return n === 1 ? '0 * * * *' : `0 */${n} * * *`;
}

/** The cron expression a schedule text stands for; throws a ScheduleTextError listing what is understood. */
export function scheduleTextToCron(input: string): string {
  const text = input.trim().toLowerCase().replace(/\s+/g, ' ');
  if (text.length > 100) throw problem(input);
  let m = /^every (\d{1,4}) ?(minutes?|mins?|m|hours?|hrs?|h)$/.exec(text);
  if (m) return every(Number(m[1]), m[2].startsWith('m') ? 'minute' : 'hour', input);
  if (text === 'every minute') return '* * * * *';
  if (text === 'hourly' || text === 'every hour') return '0 * * * *';
  if (text === 'monthly' || text === 'every month') return '0 0 1 * *';
  if (text === 'weekly' || text === 'every week') return '0 0 * * 1';
  m =
    /^(daily|every day|weekdays|every weekday|weekends|every weekend|(?:every )?(?:(?:on )?(?:sundays?|mondays?|tuesdays?|wednesdays?|thursdays?|fridays?|saturdays?)))(?: at (.+))?$/.exec(
      text,
    );
  if (!m) {
    // "at 9:00 every day", "at 9am on weekdays": the same, with the time first.
    const first =
      /^at (.+?) (?:on )?(daily|every day|weekdays|every weekday|weekends|every weekend|(?:every )?(?:sundays?|mondays?|tuesdays?|wednesdays?|thursdays?|fridays?|saturdays?))$/.exec(
        text,
      );
    if (!first) throw problem(input);
    m = [first[0], first[2], first[1]] as unknown as RegExpExecArray;
  }
  const [hour, minute] = m[2] === undefined ? [0, 0] : timeOfDay(m[2].trim(), input);
  const days = m[1];
  let dow = '*';
  if (/weekday/.test(days)) dow = '1-5';
  else if (/weekend/.test(days)) dow = '0,6';
  else {
    const day = new RegExp(`(${DAY_PATTERN})`).exec(days);
    if (day) dow = String(DAYS[day[1]]);
  }
  return `${minute} ${hour} * * ${dow}`;
}
