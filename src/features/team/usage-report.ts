// Credit and token usage of a team: the live balance and the month-by-month history,
// read from usage_month (the ledger summed as it is written), never from the ledger itself.
import { z } from 'zod';
import type { Db } from '../../platform/db/prisma.ts';
import { NO_API_KEY, TOKENS_PER_CREDIT } from '../../platform/usage/credits.ts';

/** Billing periods are UTC calendar months. */
export function monthStart(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
}

export function nextMonth(month: Date): Date {
  return new Date(Date.UTC(month.getUTCFullYear(), month.getUTCMonth() + 1, 1));
}

/** Every month from `first` to the month of `now`, ascending. */
export function monthsBetween(first: Date, now: Date): Date[] {
  const months: Date[] = [];
  for (let m = monthStart(first); m <= now; m = nextMonth(m)) months.push(m);
  return months;
}

export const balanceSchema = z.object({
  remainingCredits: z.number(),
  planCredits: z.number().nullable().describe('The team’s monthly plan allotment (`npm run cli -- team plan`); null without a plan.'),
  billingPeriodStart: z.string(),
  billingPeriodEnd: z.string(),
});
export type Balance = z.infer<typeof balanceSchema>;

export function balanceOf(team: { creditBalance: number; planCredits: number | null }, now = new Date()): Balance {
  const start = monthStart(now);
  return {
    remainingCredits: team.creditBalance,
    planCredits: team.planCredits,
    billingPeriodStart: start.toISOString(),
    billingPeriodEnd: nextMonth(start).toISOString(),
  };
}

export interface UsagePeriod {
  startDate: string;
  endDate: string;
  /** The key's name, with byApiKey; null for usage made without a key. */
  apiKey?: string | null;
  credits: number;
  /** Credits × 15 plus the prompt and completion tokens of model calls (see platform/usage/credits.ts). */
  tokens: number;
}

interface MonthRow {
  month: Date;
  apiKeyId: string;
  credits: bigint;
  tokens: bigint;
}

type Sums = { credits: number; tokens: number };
const NOTHING: Sums = { credits: 0, tokens: 0 };

/**
 * Month by month (UTC) from the team's first usage to now, ascending; with byApiKey, every key that
 * ever charged appears in every month (0 where it did not), ordered by name. Revoked keys keep theirs.
 */
export async function usageHistory(db: Db, teamId: string, byApiKey: boolean, now = new Date()): Promise<UsagePeriod[]> {
  const rows = await db.$queryRaw<MonthRow[]>`
    SELECT month, api_key_id AS "apiKeyId", credits, tokens FROM usage_month WHERE team_id = ${teamId}::uuid ORDER BY month`;
  if (rows.length === 0) return [];
  const months = monthsBetween(rows[0].month, now);
  const period = (m: Date) => ({ startDate: m.toISOString(), endDate: nextMonth(m).toISOString() });
  const key = (m: Date, apiKeyId: string) => `${m.toISOString()} ${apiKeyId}`;
  const sums = new Map<string, Sums>();
  for (const r of rows) {
    const k = key(r.month, byApiKey ? r.apiKeyId : '');
    const sum = sums.get(k) ?? NOTHING;
    sums.set(k, { credits: sum.credits + Number(r.credits), tokens: sum.tokens + Number(r.tokens) });
  }
  if (!byApiKey) return months.map((m) => ({ ...period(m), ...(sums.get(key(m, '')) ?? NOTHING) }));

  const keyIds = [...new Set(rows.map((r) => r.apiKeyId))];
  const keys = await db.apiKey.findMany({ where: { id: { in: keyIds.filter((id) => id !== NO_API_KEY) } }, select: { id: true, name: true } });
  const names = new Map(keys.map((k) => [k.id, k.name]));
  const named = keyIds
    .map((id) => ({ id, name: id === NO_API_KEY ? null : (names.get(id) ?? id) }))
    .sort((a, b) => (a.name ?? '').localeCompare(b.name ?? '') || a.id.localeCompare(b.id));
  return months.flatMap((m) => named.map((k) => ({ ...period(m), apiKey: k.name, ...(sums.get(key(m, k.id)) ?? NOTHING) })));
}

export function toTokens(credits: number): number {
  return credits * TOKENS_PER_CREDIT;
}
