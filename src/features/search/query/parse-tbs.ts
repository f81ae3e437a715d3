// tbs, Google's time filter syntax: qdr:h|d|w|m|y (past hour .. year, optionally
// with a count: qdr:d3), cdr:1 with cd_min / cd_max (MM/DD/YYYY, inclusive whole
// days in UTC), sbd:1 (newest first); parts combine with commas. Relative ranges
// are made absolute against `now`, so every provider filters the same window.
import { DomainError } from '../../../platform/domain-error.ts';
import type { TimeFilter } from '../search-query.ts';

const UNIT_MS: Record<string, number> = { h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 };

function bad(part: string, why: string): DomainError {
  return new DomainError('invalid', `Invalid tbs "${part}": ${why}`, 'BAD_REQUEST');
}

function usDate(value: string, part: string, endOfDay: boolean): Date {
  const m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(value.trim());
  if (!m) throw bad(part, 'dates are MM/DD/YYYY');
  const [month, day, year] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(year, month - 1, day, endOfDay ? 23 : 0, endOfDay ? 59 : 0, endOfDay ? 59 : 0, endOfDay ? 999 : 0));
  if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) throw bad(part, `${value} is not a date`);
  return date;
}

function monthsBack(now: Date, months: number): Date {
  const d = new Date(now);
  d.setUTCMonth(d.getUTCMonth() - months);
  return d;
}

export function parseTbs(tbs: string | undefined, now: Date): TimeFilter {
  const filter: TimeFilter = { sortByDate: false };
  if (tbs === undefined || tbs.trim() === '') return filter;
  let custom = false;
  for (const raw of tbs.split(',')) {
    const part = raw.trim();
    if (part === '') continue;
    const [key, value = ''] = part.split(/:(.*)/s);
    switch (key) {
      case 'qdr': {
        const m = /^([hdwmy])(\d{0,3})$/.exec(value);
        if (!m) throw bad(part, 'qdr takes h, d, w, m or y, optionally with a count (qdr:d3)');
        const count = m[2] === '' ? 1 : Number(m[2]);
        if (count < 1) throw bad(part, 'the count must be at least 1');
        filter.from = m[1] === 'm' ? monthsBack(now, count) : m[1] === 'y' ? monthsBack(now, 12 * count) : new Date(now.getTime() - count * UNIT_MS[m[1]]);
        filter.to = undefined;
        filter.preset = { unit: m[1] as 'h' | 'd' | 'w' | 'm' | 'y', count };
        break;
      }
      case 'cdr':
        if (value !== '1') throw bad(part, 'cdr:1 starts a custom range');
        custom = true;
        break;
      case 'cd_min':
        filter.from = usDate(value, part, false);
        filter.preset = undefined;
        break;
      case 'cd_max':
        filter.to = usDate(value, part, true);
        filter.preset = undefined;
        break;
      case 'sbd':
        if (value !== '0' && value !== '1') throw bad(part, 'sbd takes 1 (newest first) or 0');
        filter.sortByDate = value === '1';
        break;
      default:
        throw bad(part, 'known parts are qdr:, cdr:1, cd_min:, cd_max: and sbd:');
    }
  }
  if (!custom && tbs.includes('cd_m')) throw bad(tbs, 'cd_min and cd_max need cdr:1');
  if (filter.from && filter.to && filter.from > filter.to) throw bad(tbs, 'cd_min is after cd_max');
  return filter;
}
