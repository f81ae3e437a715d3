// The contract of the team routes (routes.ts).
import { z } from 'zod';
import type { RouteDoc } from '../../platform/http/route-doc.ts';
import { activityListingSchema, activityQuerySchema } from './activity-listing.ts';
import { concurrencySchema, queueStatusSchema } from './queue-status.ts';
import { historyQuerySchema } from './routes.ts';
import { balanceSchema } from './usage-report.ts';

const period = z.object({
  startDate: z.string(),
  endDate: z.string(),
  apiKey: z.string().nullable().optional().describe('With byApiKey: the key’s name; null for usage made without a key.'),
});

export const creditUsageSchema = z.object({ success: z.literal(true), data: balanceSchema });
export const tokenUsageSchema = z.object({
  success: z.literal(true),
  data: z.object({ remainingTokens: z.number(), planTokens: z.number().nullable(), billingPeriodStart: z.string(), billingPeriodEnd: z.string() }),
});
export const creditHistorySchema = z.object({
  success: z.literal(true),
  periods: z.array(period.extend({ creditsUsed: z.number(), totalCredits: z.number().describe('The same as creditsUsed (the spec’s name).') })),
});
export const tokenHistorySchema = z.object({
  success: z.literal(true),
  periods: z.array(
    period.extend({
      tokensUsed: z.number().describe('Credits used × 15, plus the prompt and completion tokens of the model calls made for the team.'),
      totalTokens: z.number().describe('The same as tokensUsed (the spec’s name).'),
    }),
  ),
});

const ok = z.object({ success: z.literal(true) });

const teamRoute = (path: string, operationId: string, summary: string, answer: z.ZodType, query?: z.ZodObject): RouteDoc => ({
  method: 'get',
  path,
  operationId,
  summary,
  tag: 'team',
  ...(query && { query }),
  responses: { 200: answer },
  ...(query && { errors: [400] }),
});

export const teamRouteDocs: RouteDoc[] = [
  teamRoute('/v2/team/credit-usage', 'getCreditUsage', 'The team’s remaining credits this billing period', creditUsageSchema),
  teamRoute('/v2/team/token-usage', 'getTokenUsage', 'The team’s remaining tokens (15 a credit) this billing period', tokenUsageSchema),
  teamRoute('/v2/team/credit-usage/historical', 'getCreditUsageHistory', 'Credits used month by month', creditHistorySchema, historyQuerySchema),
  teamRoute('/v2/team/token-usage/historical', 'getTokenUsageHistory', 'Tokens used month by month', tokenHistorySchema, historyQuerySchema),
  teamRoute('/v2/team/queue-status', 'getQueueStatus', 'The team’s running jobs and its concurrency', ok.extend(queueStatusSchema.shape)),
  teamRoute('/v2/concurrency-check', 'getConcurrency', 'Pages of the team being scraped now, beside its limit', ok.extend(concurrencySchema.shape)),
  teamRoute(
    '/v2/team/activity',
    'getActivity',
    'The team’s job-creating requests of the past 24 hours, newest first',
    ok.extend(activityListingSchema.shape),
    activityQuerySchema,
  ),
];
