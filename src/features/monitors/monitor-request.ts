// Bodies of POST /v2/monitor and PATCH /v2/monitor/{id}, as the SDKs' CreateMonitorRequest
// and UpdateMonitorRequest describe them. Targets are checked here with the schemas the
// scrape and crawl endpoints use, so a target that would fail its job is refused when
// the monitor is made, not at its first check.
import { z } from 'zod';
import { httpUrl, origin } from '../../platform/http/common-schemas.ts';
import { headerMapSchema } from '../../platform/http/header-fields.ts';
import { scrapeOptionsSchema } from '../../page/scrape-options.ts';
import { crawlRequestSchema } from '../../jobs/crawl-request.ts';
import { RESERVED_WEBHOOK_HEADERS } from '../../jobs/webhooks/webhook-schema.ts';

export const MAX_TARGETS = 20;
export const MAX_TARGET_URLS = 100;
export const MAX_NAME_CHARS = 256;
export const MAX_GOAL_CHARS = 2000;

export const MONITOR_EVENTS = ['monitor.page', 'monitor.check.completed'] as const;

export const scheduleSchema = z
  .strictObject({
    cron: z.string().max(200).optional().describe('A 5-field cron expression (minute hour day-of-month month day-of-week).'),
    text: z
      .string()
      .max(100)
      .optional()
      .describe('The schedule in words ("every 15 minutes", "hourly", "daily at 9:00", "weekdays at 18:30"), normalised to cron.'),
    timezone: z.string().max(64).optional().describe('IANA time zone the cron expression is read in; UTC by default.'),
  })
  .refine((s) => (s.cron === undefined) !== (s.text === undefined), 'schedule needs exactly one of cron and text');

const targetId = z.string().min(1).max(64).optional().describe('Names the target in check results; given one when absent.');

const scrapeTargetSchema = z.strictObject({
  id: targetId,
  type: z.literal('scrape'),
  urls: z.array(httpUrl).min(1, 'a scrape target needs at least one URL').max(MAX_TARGET_URLS, `a scrape target may list at most ${MAX_TARGET_URLS} URLs`),
  scrapeOptions: scrapeOptionsSchema.optional(),
});

/** A crawl request's own options: everything but what the target and the monitor give. */
export const crawlOptionsSchema = crawlRequestSchema.omit({ url: true, scrapeOptions: true, webhook: true, origin: true, integration: true, prompt: true });

const crawlTargetSchema = z.strictObject({
  id: targetId,
  type: z.literal('crawl'),
  url: httpUrl,
  crawlOptions: crawlOptionsSchema.optional(),
  scrapeOptions: scrapeOptionsSchema.optional(),
});

const searchTargetSchema = z
  .strictObject({
    id: targetId,
    type: z.literal('search'),
    queries: z.array(z.string().min(1).max(500)).min(1, 'a search target needs at least one query').max(10),
    searchWindow: z.enum(['5m', '15m', '1h', '6h', '24h', '7d']).optional(),
    includeDomains: z.array(z.string().max(253)).max(100).optional(),
    excludeDomains: z.array(z.string().max(253)).max(100).optional(),
    maxResults: z.int().min(1).max(100).optional(),
  })
  .refine((t) => !(t.includeDomains?.length && t.excludeDomains?.length), {
    message: 'includeDomains and excludeDomains cannot both be specified',
    path: ['includeDomains'],
  });

export const targetSchema = z.discriminatedUnion('type', [scrapeTargetSchema, crawlTargetSchema, searchTargetSchema]);
export type MonitorTarget = z.output<typeof targetSchema>;

const targetsSchema = z
  .array(targetSchema)
  .min(1, 'a monitor needs at least one target')
  .max(MAX_TARGETS, `a monitor may have at most ${MAX_TARGETS} targets`)
  .superRefine((targets, ctx) => {
    const ids = targets.map((t) => t.id).filter((id) => id !== undefined);
    if (new Set(ids).size !== ids.length) ctx.addIssue({ code: 'custom', message: 'target ids must be unique within a monitor' });
  });

export const monitorWebhookSchema = z.strictObject({
  url: httpUrl,
  headers: headerMapSchema(RESERVED_WEBHOOK_HEADERS).optional(),
  metadata: z.record(z.string(), z.string().max(1000)).optional(),
  events: z.array(z.enum(MONITOR_EVENTS)).min(1).optional().describe('Events to send; both when absent.'),
});
export type MonitorWebhook = z.output<typeof monitorWebhookSchema>;

export const notificationSchema = z.strictObject({
  email: z
    .strictObject({
      enabled: z.boolean().optional(),
      recipients: z.array(z.email()).max(20).optional(),
      includeDiffs: z.boolean().optional(),
    })
    .optional(),
});

const name = z.string().trim().min(1, 'name must not be empty').max(MAX_NAME_CHARS);
const retentionDays = z.int().min(1, 'retentionDays must be at least 1');
const goal = z.string().max(MAX_GOAL_CHARS);

export const createMonitorSchema = z.strictObject({
  name,
  schedule: scheduleSchema,
  targets: targetsSchema,
  webhook: monitorWebhookSchema.optional(),
  notification: notificationSchema.optional(),
  retentionDays: retentionDays.optional(),
  goal: goal.optional(),
  judgeEnabled: z.boolean().optional(),
  origin,
});
export type CreateMonitorRequest = z.output<typeof createMonitorSchema>;

export const updateMonitorSchema = z.strictObject({
  name: name.optional(),
  status: z.enum(['active', 'paused']).optional(),
  schedule: scheduleSchema.optional(),
  targets: targetsSchema.optional(),
  webhook: monitorWebhookSchema.nullable().optional(),
  notification: notificationSchema.nullable().optional(),
  retentionDays: retentionDays.optional(),
  goal: goal.nullable().optional(),
  judgeEnabled: z.boolean().optional(),
  origin,
});
export type UpdateMonitorRequest = z.output<typeof updateMonitorSchema>;

const page = {
  limit: z.coerce.number().int().min(1).max(100).default(20),
  offset: z.coerce.number().int().min(0).default(0),
};
export const listQuerySchema = z.object(page);

export const CHECK_PAGE_STATUSES = ['same', 'new', 'changed', 'removed', 'error'] as const;
export type CheckPageStatus = (typeof CHECK_PAGE_STATUSES)[number];

export const checkQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  skip: z.coerce.number().int().min(0).default(0),
  status: z.enum(CHECK_PAGE_STATUSES).optional(),
});
