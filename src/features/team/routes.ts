// Team usage, activity and queue routes. Field names follow both official SDKs; where the
// spec names a field otherwise (totalCredits / totalTokens), both are sent.
import { Router } from 'express';
import { z } from 'zod';
import type { GatewayDeps } from '../../platform/http/app.ts';
import { authOf } from '../../platform/http/auth.ts';
import { activityQuerySchema, listActivity } from './activity-listing.ts';
import { concurrencyOf, queueStatus } from './queue-status.ts';
import { balanceOf, toTokens, usageHistory } from './usage-report.ts';

export const historyQuerySchema = z.object({
  byApiKey: z.enum(['true', 'false'], { error: 'byApiKey must be true or false' }).default('false'),
});

export function teamRoutes(deps: GatewayDeps): Router {
  const router = Router();

  router.get('/team/credit-usage', (_req, res) => {
    const { remainingCredits, planCredits, billingPeriodStart, billingPeriodEnd } = balanceOf(authOf(res).team);
    res.json({ success: true, data: { remainingCredits, planCredits, billingPeriodStart, billingPeriodEnd } });
  });

  router.get('/team/token-usage', (_req, res) => {
    const { remainingCredits, planCredits, billingPeriodStart, billingPeriodEnd } = balanceOf(authOf(res).team);
    res.json({
      success: true,
      data: {
        remainingTokens: toTokens(remainingCredits),
        planTokens: planCredits === null ? null : toTokens(planCredits),
        billingPeriodStart,
        billingPeriodEnd,
      },
    });
  });

  router.get('/team/credit-usage/historical', async (req, res) => {
    const { byApiKey } = historyQuerySchema.parse(req.query);
    const periods = await usageHistory(deps.db, authOf(res).team.id, byApiKey === 'true');
    res.json({ success: true, periods: periods.map(({ credits, tokens: _tokens, ...p }) => ({ ...p, creditsUsed: credits, totalCredits: credits })) });
  });

  router.get('/team/token-usage/historical', async (req, res) => {
    const { byApiKey } = historyQuerySchema.parse(req.query);
    const periods = await usageHistory(deps.db, authOf(res).team.id, byApiKey === 'true');
    // Model tokens count on top of the credits' 15 each (docs/api/team.md).
    res.json({ success: true, periods: periods.map(({ credits: _credits, tokens, ...p }) => ({ ...p, tokensUsed: tokens, totalTokens: tokens })) });
  });

  router.get('/team/queue-status', async (_req, res) => {
    res.json({ success: true, ...(await queueStatus(deps.db, authOf(res).team)) });
  });

  router.get('/concurrency-check', async (_req, res) => {
    res.json({ success: true, ...(await concurrencyOf(deps.db, authOf(res).team)) });
  });

  router.get('/team/activity', async (req, res) => {
    const query = activityQuerySchema.parse(req.query);
    res.json({ success: true, ...(await listActivity(deps.db, authOf(res).team.id, query)) });
  });

  return router;
}
