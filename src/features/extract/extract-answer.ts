// What GET /v2/extract/{id} answers (and the extract's webhook events carry):
// the SDKs' ExtractResponse, read from the row.
import { z } from 'zod';
import type { ExtractJob } from '../../generated/prisma/client.ts';
import { EXTRACT_STATUSES } from './definitions.ts';

export const extractAnswerSchema = z.object({
  success: z.literal(true),
  id: z.string(),
  status: z.enum(EXTRACT_STATUSES),
  data: z.unknown().describe('The JSON object extracted (null until completed).'),
  sources: z.record(z.string(), z.array(z.string())).optional().describe('With showSources: each top-level field with the URLs it came from.'),
  warning: z.string().optional(),
  error: z.string().optional(),
  expiresAt: z.string().describe('When the result is deleted (EXTRACT_RETENTION_HOURS after the end).'),
  creditsUsed: z.number().int(),
  tokensUsed: z.number().int().describe('Prompt and completion tokens of its model calls.'),
});

export const extractStartSchema = z.object({
  success: z.literal(true),
  id: z.string(),
});

export function extractAnswer(row: ExtractJob): z.output<typeof extractAnswerSchema> {
  return {
    success: true,
    id: row.id,
    status: row.status as z.output<typeof extractAnswerSchema>['status'],
    data: row.data ?? null,
    ...(row.sources !== null && { sources: row.sources as Record<string, string[]> }),
    ...(row.warning && { warning: row.warning }),
    ...(row.error && { error: row.error }),
    expiresAt: row.expiresAt.toISOString(),
    creditsUsed: row.creditsUsed,
    tokensUsed: row.promptTokens + row.completionTokens,
  };
}
