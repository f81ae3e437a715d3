// What /v1 answers, reshaped from /v2's answers: the one source of their types and
// of their OpenAPI schemas. Map links are plain URL strings, search results a flat
// list of web results, team usage snake_case, job status without v2's timestamps and
// warning, and the json result where the v1 format put it.
import { z } from 'zod';
import { pageDocumentSchema, type PageDocument } from '../../page/document-schema.ts';
import type { JsonField } from '../../jobs/crawl-request.ts';
import { placeJsonResult } from '../../jobs/json-fields.ts';
import { jobStatusSchema, type JobStatus } from '../../jobs/job-responses.ts';

export const v1ScrapeAnswerSchema = z.object({ success: z.literal(true), data: pageDocumentSchema });

/** A scrape's document as v1 names its fields, with the warnings the translation adds. */
export function v1Document(document: PageDocument, jsonFields: readonly JsonField[] | undefined, warnings: string[] = []): PageDocument {
  const placed = placeJsonResult(document, jsonFields);
  const warning = [placed.warning, ...warnings].filter(Boolean).join(' ');
  return warning ? { ...placed, warning } : placed;
}

export const v1JobStatusSchema = jobStatusSchema.omit({ success: true, createdAt: true, completedAt: true, warning: true }).extend({
  success: z.boolean().describe('false for a failed job, which then carries error.'),
  creditsUsed: z.number().int(),
  error: z.string().optional().describe('Why the job failed; never present otherwise (the Python SDK marks any answer with an error key failed).'),
});
export type V1JobStatus = z.infer<typeof v1JobStatusSchema>;

/** GET /v1/crawl/{id}: v2's status without createdAt, completedAt and warning; a failed job is success false with its error. */
export function v1JobStatus(status: JobStatus, jobError: string | null): V1JobStatus {
  const { success: _s, createdAt: _c, completedAt: _d, warning: _w, ...rest } = status;
  if (status.status === 'failed') return { success: false, ...rest, error: jobError ?? 'The job failed' };
  return { success: true, ...rest };
}

export const v1CancelledSchema = z.object({ status: z.literal('cancelled') });

/** The crawler options of an active crawl under their v1 names (maxDepth only for a crawl started through /v1). */
export function v1CrawlOptions(options: Record<string, unknown>): Record<string, unknown> {
  const { sitemap, crawlEntireDomain, maxPathDepth, robotsUserAgent: _r, maxConcurrency: _m, zeroDataRetention: _z, ...rest } = options;
  return {
    ...rest,
    ...(maxPathDepth !== undefined && { maxDepth: maxPathDepth }),
    ...(crawlEntireDomain !== undefined && { allowBackwardLinks: crawlEntireDomain, crawlEntireDomain }),
    ...(sitemap !== undefined && { ignoreSitemap: sitemap === 'skip' }),
  };
}

export const v1MapAnswerSchema = z.object({ success: z.literal(true), links: z.array(z.string()).describe('The site’s URLs, plain strings.') });

export function v1MapAnswer(answer: { links: { url: string }[] }): z.infer<typeof v1MapAnswerSchema> {
  return { success: true, links: answer.links.map((l) => l.url) };
}

const v1SearchResultSchema = pageDocumentSchema.partial().extend({ url: z.string(), title: z.string(), description: z.string() });
export const v1SearchAnswerSchema = z.object({
  success: z.literal(true),
  data: z.array(v1SearchResultSchema).describe('Web results; each also carries the scraped document’s fields when scrapeOptions.formats named some.'),
  id: z.string(),
  warning: z.string().optional(),
});
type V1SearchResult = z.infer<typeof v1SearchResultSchema>;

export const NO_RESULTS_WARNING = 'No search results found';
export const NO_CONTENT_WARNING = 'No content found in search results';

/**
 * v2's web results as v1's flat list: without v2's position and category. When the results were
 * scraped for markdown, those whose markdown came back empty are left out, unless that leaves
 * none (then all stay, with a warning), as upstream.
 */
export function v1SearchAnswer(
  answer: { data: { web?: Record<string, unknown>[] }; id: string; warning: string | null },
  scraped: { formats: string[]; jsonFields?: JsonField[] },
): z.infer<typeof v1SearchAnswerSchema> {
  const results = (answer.data.web ?? []).map(({ position: _p, category: _c, ...item }) =>
    scraped.formats.length > 0 ? (placeJsonResult(item as PageDocument, scraped.jsonFields) as V1SearchResult) : (item as V1SearchResult),
  );
  const warnings = answer.warning ? [answer.warning] : [];
  let data = results;
  if (results.length === 0) warnings.push(NO_RESULTS_WARNING);
  else if (scraped.formats.includes('markdown')) {
    const withContent = results.filter((r) => typeof r.markdown === 'string' && r.markdown.trim() !== '');
    if (withContent.length > 0) data = withContent;
    else warnings.push(NO_CONTENT_WARNING);
  }
  return { success: true, data, id: answer.id, ...(warnings.length > 0 && { warning: warnings.join('; ') }) };
}

const billingPeriod = { billing_period_start: z.string(), billing_period_end: z.string() };
export const v1CreditUsageSchema = z.object({
  success: z.literal(true),
  data: z.object({
    remaining_credits: z.number().int(),
    plan_credits: z.number().int().describe('0 when the team has no monthly plan (v2 answers null).'),
    ...billingPeriod,
  }),
});
export const v1TokenUsageSchema = z.object({
  success: z.literal(true),
  data: z.object({
    remaining_tokens: z.number().int(),
    plan_tokens: z.number().int().describe('0 when the team has no monthly plan (v2 answers null).'),
    ...billingPeriod,
  }),
});

interface V2Balance {
  billingPeriodStart: string;
  billingPeriodEnd: string;
}

// v1's types (the JS SDK's CreditUsageResponseV1) make the plan a number: no plan is an allotment of 0.
export function v1CreditUsage(data: V2Balance & { remainingCredits: number; planCredits: number | null }): z.infer<typeof v1CreditUsageSchema> {
  return {
    success: true,
    data: {
      remaining_credits: data.remainingCredits,
      plan_credits: data.planCredits ?? 0,
      billing_period_start: data.billingPeriodStart,
      billing_period_end: data.billingPeriodEnd,
    },
  };
}

export function v1TokenUsage(data: V2Balance & { remainingTokens: number; planTokens: number | null }): z.infer<typeof v1TokenUsageSchema> {
  return {
    success: true,
    data: {
      remaining_tokens: data.remainingTokens,
      plan_tokens: data.planTokens ?? 0,
      billing_period_start: data.billingPeriodStart,
      billing_period_end: data.billingPeriodEnd,
    },
  };
}

const period = { startDate: z.string(), endDate: z.string(), apiKey: z.string().nullable().optional() };
export const v1CreditHistorySchema = z.object({ success: z.literal(true), periods: z.array(z.object({ ...period, creditsUsed: z.number().int() })) });
export const v1TokenHistorySchema = z.object({ success: z.literal(true), periods: z.array(z.object({ ...period, tokensUsed: z.number().int() })) });

type V2Period = { startDate: string; endDate: string; apiKey?: string | null };

/** v2's history without its second name of each number (totalCredits, totalTokens). */
export function v1History<K extends 'creditsUsed' | 'tokensUsed'>(periods: (V2Period & Record<K, number>)[], field: K): (V2Period & Record<K, number>)[] {
  return periods.map(
    (p) =>
      ({ startDate: p.startDate, endDate: p.endDate, ...(p.apiKey !== undefined && { apiKey: p.apiKey }), [field]: p[field] }) as V2Period & Record<K, number>,
  );
}

/** The same bodies as /v2 answers: documented by reference, not repeated. */
export const sameAsV2Schema = (route: string) => z.looseObject({ success: z.literal(true) }).describe(`The same body as ${route}.`);

export const EXTRACT_DEPRECATION = {
  message: 'The /v1/extract endpoint is deprecated: POST /v2/extract runs the same extract on the current API.',
  replacement: '/v2/extract',
} as const;

const deprecation = {
  warnings: z.array(z.string()).describe('Says that /v1/extract is deprecated and what replaces it.'),
  replacement: z.literal(EXTRACT_DEPRECATION.replacement),
};
export const v1ExtractStartedSchema = z.object({ success: z.literal(true), id: z.string(), urlTrace: z.array(z.unknown()), ...deprecation });
export const v1ExtractStatusSchema = z.object({
  success: z.literal(true),
  id: z.string(),
  status: z.enum(['processing', 'completed', 'failed', 'cancelled']),
  data: z.unknown().describe('The extracted object once completed; [] until then.'),
  sources: z.record(z.string(), z.array(z.string())).optional(),
  warning: z.string().optional(),
  error: z.string().optional(),
  expiresAt: z.string(),
  creditsUsed: z.number().int(),
  tokensUsed: z.number().int(),
  ...deprecation,
});

export function v1ExtractStatus(answer: Record<string, unknown>): z.infer<typeof v1ExtractStatusSchema> {
  return {
    ...(answer as Omit<z.infer<typeof v1ExtractStatusSchema>, 'warnings' | 'replacement'>),
    data: answer.data ?? [],
    warnings: [EXTRACT_DEPRECATION.message],
    replacement: EXTRACT_DEPRECATION.replacement,
  };
}
