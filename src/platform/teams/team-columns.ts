// A team's row read in raw SQL (authentication, a job with its team) as Prisma's client reads it.
import type { Team } from '../../generated/prisma/client.ts';

/** Every column of a team, by its field: a field added to the model does not compile until it is read here. */
export const TEAM_COLUMNS: Record<keyof Team, string> = {
  id: 'id',
  name: 'name',
  concurrencyLimit: 'concurrency_limit',
  creditBalance: 'credit_balance',
  planCredits: 'plan_credits',
  flagIgnoreRobotsTxt: 'flag_ignore_robots_txt',
  flagRobotsUserAgent: 'flag_robots_user_agent',
  flagZeroDataRetention: 'flag_zero_data_retention',
  flagSearchAnon: 'flag_search_anon',
  flagSearchZdr: 'flag_search_zdr',
  webhookSigningSecret: 'webhook_signing_secret',
  createdAt: 'created_at',
};
