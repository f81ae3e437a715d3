// The answers of the job routes every crawl-pipeline job kind shares (job-routes.ts):
// the one source of their types and of their OpenAPI schemas.
import { z } from 'zod';
import { pageDocumentSchema } from '../page/document-schema.ts';

export const jobStartedSchema = z.object({
  success: z.literal(true),
  id: z.string().describe('The job id.'),
  url: z.string().describe('Where its status is read.'),
});

export const jobStatusSchema = z.object({
  success: z.literal(true),
  status: z.enum(['scraping', 'completed', 'failed', 'cancelled']),
  completed: z.number().int().describe('Pages scraped successfully.'),
  total: z.number().int().describe('Pages attempted or waiting.'),
  creditsUsed: z.number(),
  expiresAt: z.string().describe('When the job and its documents expire (ISO 8601).'),
  createdAt: z.string(),
  completedAt: z.string().optional(),
  warning: z
    .string()
    .optional()
    .describe('Why the job ended short (robots.txt blocks, credits ran out), or, while it runs, that an operator paused it (status stays scraping).'),
  next: z.string().optional().describe('The URL of the next page of documents, while the job runs or documents remain.'),
  data: z.array(pageDocumentSchema),
});
export type JobStatus = z.infer<typeof jobStatusSchema>;

export const jobErrorsSchema = z.object({
  errors: z.array(z.object({ id: z.string(), timestamp: z.string(), url: z.string(), error: z.string() })),
  robotsBlocked: z.array(z.string()).describe('URLs robots.txt kept the crawl from.'),
});
export type JobErrors = z.infer<typeof jobErrorsSchema>;

export const webhookDeliveriesSchema = z.object({
  success: z.literal(true),
  data: z.array(
    z.object({
      webhookId: z.string(),
      type: z.string().describe('crawl.started, crawl.page, crawl.completed or crawl.failed.'),
      url: z.string(),
      state: z.string().describe('pending, delivered or failed.'),
      attempts: z.number().int(),
      createdAt: z.string(),
      nextAttemptAt: z.string().nullable(),
      finishedAt: z.string().nullable(),
      lastStatusCode: z.number().int().nullable(),
      lastError: z.string().nullable(),
      attemptLog: z.array(
        z.object({
          attempt: z.number().int(),
          startedAt: z.string(),
          durationMs: z.number().int(),
          statusCode: z.number().int().nullable(),
          error: z.string().nullable(),
        }),
      ),
    }),
  ),
});
export type WebhookDeliveries = z.infer<typeof webhookDeliveriesSchema>;

export const jobCancelledSchema = z.object({ success: z.literal(true), status: z.literal('cancelled') });

export const activeCrawlsSchema = z.object({
  success: z.literal(true),
  crawls: z.array(
    z.object({
      id: z.string(),
      teamId: z.string(),
      url: z.string(),
      created_at: z.string(),
      options: z.record(z.string(), z.unknown()).describe('The crawler options it was started with, scrapeOptions among them (header values redacted).'),
    }),
  ),
});
