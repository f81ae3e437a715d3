// What the monitor routes answer, as the SDKs' Monitor, MonitorCheck and
// MonitorCheckPage types describe them: the zod schemas (the OpenAPI answers) and
// the mappers from rows.
import { z } from 'zod';
import type { Monitor, MonitorCheck, MonitorCheckPage } from '../../generated/prisma/client.ts';
import { CHECK_PAGE_STATUSES } from './monitor-request.ts';
import { emptySummary, type MonitorSummary } from './page-statuses.ts';

const json = z.record(z.string(), z.unknown());
const time = z.string().describe('ISO 8601');

export const summarySchema = z.strictObject({
  totalPages: z.int(),
  same: z.int(),
  changed: z.int(),
  new: z.int(),
  removed: z.int(),
  error: z.int(),
});

export const monitorSchema = z.strictObject({
  id: z.uuid(),
  name: z.string(),
  status: z.enum(['active', 'paused', 'deleted']),
  schedule: z.strictObject({ cron: z.string(), text: z.string().optional(), timezone: z.string() }),
  nextRunAt: time.nullable().describe("The schedule's next run (null while paused)."),
  lastRunAt: time.nullable(),
  currentCheckId: z.uuid().nullable().describe('The check running now, if any.'),
  targets: z.array(json),
  webhook: json.nullable(),
  notification: json.nullable(),
  retentionDays: z.int(),
  estimatedCreditsPerMonth: z.int().nullable(),
  lastCheckSummary: summarySchema.nullable(),
  goal: z.string().nullable(),
  judgeEnabled: z.boolean(),
  createdAt: time,
  updatedAt: time,
});

export const CHECK_STATUSES = ['queued', 'running', 'completed', 'failed', 'partial', 'skipped_overlap', 'skipped_no_credits'] as const;

export const checkSchema = z.strictObject({
  id: z.uuid(),
  monitorId: z.uuid(),
  status: z.enum(CHECK_STATUSES),
  trigger: z.enum(['scheduled', 'manual']),
  scheduledFor: time.nullable(),
  startedAt: time.nullable(),
  finishedAt: time.nullable(),
  estimatedCredits: z.int().nullable(),
  reservedCredits: z.null().describe('Always null: credits are charged per page as the jobs run, not reserved.'),
  actualCredits: z.int().nullable(),
  billingStatus: z.enum(['not_applicable', 'reserved', 'confirmed', 'released', 'failed']),
  summary: summarySchema,
  targetResults: z.array(json),
  notificationStatus: json.nullable(),
  error: z.string().nullable(),
  createdAt: time,
  updatedAt: time,
});

export const checkPageSchema = z.strictObject({
  id: z.uuid(),
  targetId: z.string(),
  url: z.string(),
  status: z.enum(CHECK_PAGE_STATUSES),
  previousScrapeId: z.uuid().nullable().describe('The job that loaded the page in the previous check.'),
  currentScrapeId: z.uuid().nullable().describe('The job that loaded it in this check (GET /v2/crawl/{id} or /v2/batch/scrape/{id}).'),
  statusCode: z.int().nullable(),
  error: z.string().nullable(),
  diff: z.strictObject({ text: z.string().optional(), json: z.unknown().optional() }).nullable(),
  snapshot: json.nullable(),
  judgment: json.nullable().describe('Present when the monitor has a goal, judgeEnabled and the server a model (LLM_BASE_URL).'),
  createdAt: time,
});

export const checkDetailSchema = checkSchema.extend({
  pages: z.array(checkPageSchema),
  next: z.string().nullable().describe('URL of the next page of pages, or null.'),
});

const iso = (d: Date | null) => d?.toISOString() ?? null;

export interface LiveSchedule {
  nextRunAt: string | null;
  paused: boolean;
}

export function monitorAnswer(
  m: Monitor,
  extra: { live?: LiveSchedule; currentCheckId: string | null; lastCheckSummary: MonitorSummary | null },
): z.infer<typeof monitorSchema> {
  // The schedule is where an operator pauses a monitor (the Temporal UI): its state is the monitor's.
  const status = m.status === 'deleted' ? 'deleted' : extra.live ? (extra.live.paused ? 'paused' : 'active') : (m.status as 'active' | 'paused');
  return {
    id: m.id,
    name: m.name,
    status,
    schedule: { cron: m.cron, ...(m.scheduleText !== null && { text: m.scheduleText }), timezone: m.timezone },
    nextRunAt: status === 'active' ? (extra.live?.nextRunAt ?? null) : null,
    lastRunAt: iso(m.lastRunAt),
    currentCheckId: extra.currentCheckId,
    targets: m.targets as Record<string, unknown>[],
    webhook: m.webhook as Record<string, unknown> | null,
    notification: m.notification as Record<string, unknown> | null,
    retentionDays: m.retentionDays,
    estimatedCreditsPerMonth: m.estimatedCreditsPerMonth,
    lastCheckSummary: extra.lastCheckSummary,
    goal: m.goal,
    judgeEnabled: m.judgeEnabled,
    createdAt: m.createdAt.toISOString(),
    updatedAt: m.updatedAt.toISOString(),
  };
}

function billingStatus(c: MonitorCheck): z.infer<typeof checkSchema>['billingStatus'] {
  if (c.status === 'failed' && c.error?.includes('Insufficient credits')) return 'failed';
  return (c.actualCredits ?? 0) > 0 ? 'confirmed' : 'not_applicable';
}

export function checkAnswer(c: MonitorCheck): z.infer<typeof checkSchema> {
  return {
    id: c.id,
    monitorId: c.monitorId,
    status: c.status as z.infer<typeof checkSchema>['status'],
    trigger: c.trigger as 'scheduled' | 'manual',
    scheduledFor: iso(c.scheduledFor),
    startedAt: iso(c.startedAt),
    finishedAt: iso(c.finishedAt),
    estimatedCredits: c.estimatedCredits,
    reservedCredits: null,
    actualCredits: c.actualCredits,
    billingStatus: billingStatus(c),
    summary: { ...emptySummary(), ...(c.summary as Partial<MonitorSummary>) },
    // A search target's result URLs are its pages (GET .../checks/{checkId}), not part of its result.
    targetResults: (c.targetResults as Record<string, unknown>[]).map(({ resultUrls: _pages, ...result }) => result),
    notificationStatus: c.notificationStatus as Record<string, unknown> | null,
    error: c.error,
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
  };
}

export function checkPageAnswer(p: MonitorCheckPage): z.infer<typeof checkPageSchema> {
  return {
    id: p.id,
    targetId: p.targetId,
    url: p.url,
    status: p.status as z.infer<typeof checkPageSchema>['status'],
    previousScrapeId: p.previousScrapeId,
    currentScrapeId: p.currentScrapeId,
    statusCode: p.statusCode,
    error: p.error,
    diff: p.diff as z.infer<typeof checkPageSchema>['diff'],
    snapshot: p.snapshot as Record<string, unknown> | null,
    judgment: p.judgment as Record<string, unknown> | null,
    createdAt: p.createdAt.toISOString(),
  };
}
