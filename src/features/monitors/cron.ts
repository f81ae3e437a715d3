// Five-field cron expressions (minute hour day-of-month month day-of-week), the
// subset Temporal Schedules and the SDKs agree on: numbers, `*`, ranges, steps,
// lists, and month and day names. Checked here so a bad expression is a 400 that
// names the field, not a schedule Temporal refuses after the monitor row exists.
// Pure, and linear in the expression's length.

export interface CronFields {
  minutes: number[];
  hours: number[];
  daysOfMonth: number[];
  months: number[];
  /** 0 = Sunday; 7 is folded into 0. */
  daysOfWeek: number[];
  /** Whether day-of-month and day-of-week were both restricted: cron then runs on a day matching either. */
  eitherDay: boolean;
}

const MONTH_NAMES = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const DAY_NAMES = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

interface FieldRule {
  name: string;
  min: number;
  max: number;
  names?: string[];
  /** The value of the first name (months count from 1). */
  nameBase?: number;
}

const FIELDS: FieldRule[] = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day of month', min: 1, max: 31 },
  { name: 'month', min: 1, max: 12, names: MONTH_NAMES, nameBase: 1 },
  { name: 'day of week', min: 0, max: 7, names: DAY_NAMES, nameBase: 0 },
];

export class CronError extends Error {}

function value(text: string, rule: FieldRule): number {
  const named = rule.names?.indexOf(text.toLowerCase()) ?? -1;
  if (named >= 0) return named + (rule.nameBase ?? 0);
  if (!/^\d{1,2}$/.test(text)) throw new CronError(`the ${rule.name} field has "${text}", which is not a number${rule.names ? ' or a name' : ''}`);
  const n = Number(text);
  if (n < rule.min || n > rule.max) throw new CronError(`the ${rule.name} field has ${n}, outside ${rule.min}-${rule.max}`);
  return n;
}

function expand(field: string, rule: FieldRule): Set<number> {
  const out = new Set<number>();
  for (const part of field.split(',')) {
    const [range, stepText, extra] = part.split('/');
    if (extra !== undefined || range === '') throw new CronError(`the ${rule.name} field has "${part}", which is not a value, a range or a step`);
    let step = 1;
    if (stepText !== undefined) {
      if (!/^\d{1,2}$/.test(stepText) || Number(stepText) === 0)
        throw new CronError(`the ${rule.name} field has the step "/${stepText}"; a step is a number from 1`);
      step = Number(stepText);
    }
    let from: number;
    let to: number;
    if (range === '*') [from, to] = [rule.min, rule.max];
    else if (range.includes('-')) {
      const [a, b, more] = range.split('-');
      if (more !== undefined) throw new CronError(`the ${rule.name} field has "${range}", which is not a range`);
      [from, to] = [value(a, rule), value(b, rule)];
      if (from > to) throw new CronError(`the ${rule.name} field has the range ${range}, which runs backwards`);
    } else {
      from = value(range, rule);
      to = stepText === undefined ? from : rule.max;
    }
    for (let v = from; v <= to; v += step) out.add(v);
  }
  return out;
}

const sorted = (s: Set<number>) => [...s].sort((a, b) => a - b);

/** The expanded fields of a 5-field expression; throws a CronError saying what is wrong. */
export function parseCron(expression: string): CronFields {
  const parts = expression.trim().split(/\s+/);
  if (expression.length > 200 || parts.length !== 5) {
    throw new CronError(`a cron expression has 5 fields (minute hour day-of-month month day-of-week), "${expression.slice(0, 200)}" has ${parts.length}`);
  }
  const sets = parts.map((p, i) => expand(p, FIELDS[i]));
  const dow = sets[4];
  if (dow.delete(7)) dow.add(0);
  return {
    minutes: sorted(sets[0]),
    hours: sorted(sets[1]),
    daysOfMonth: sorted(sets[2]),
    months: sorted(sets[3]),
    daysOfWeek: sorted(dow),
    eitherDay: parts[2] !== '*' && parts[4] !== '*',
  };
}

export interface CronCadence {
  /** Runs in a year (2027, in the schedule's own wall-clock time). */
  runsPerYear: number;
  /** The shortest time between two runs, in minutes (Infinity for fewer than two runs a year). */
  shortestGapMinutes: number;
}

const DAY_MS = 86_400_000;

/**
 * How often the expression runs, from its runs over a whole year. Wall-clock time, so a daylight
 * saving shift is not counted: it moves one run by an hour twice a year, which no cap or estimate
 * needs to know.
 */
export function cronCadence(fields: CronFields): CronCadence {
  const start = Date.UTC(2027, 0, 1);
  const dom = new Set(fields.daysOfMonth);
  const months = new Set(fields.months);
  const dow = new Set(fields.daysOfWeek);
  const allDom = fields.daysOfMonth.length === 31;
  const allDow = fields.daysOfWeek.length === 7;
  let runs = 0;
  let last: number | undefined;
  let shortest = Infinity;
  const perDay = fields.hours.flatMap((h) => fields.minutes.map((m) => h * 60 + m));
  // Into the next year, so the gap across New Year counts.
  for (let day = 0; day < 365 + 31; day++) {
    const date = new Date(start + day * DAY_MS);
    if (!months.has(date.getUTCMonth() + 1)) continue;
    const domHit = dom.has(date.getUTCDate());
    const dowHit = dow.has(date.getUTCDay());
    const hit = fields.eitherDay ? domHit || dowHit : (allDom || domHit) && (allDow || dowHit);
    if (!hit) continue;
    for (const minute of perDay) {
      const at = day * 1440 + minute;
      if (last !== undefined) shortest = Math.min(shortest, at - last);
      last = at;
      if (day < 365) runs++;
    }
  }
  return { runsPerYear: runs, shortestGapMinutes: shortest };
}
