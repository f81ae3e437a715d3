import { z } from 'zod';
import { httpUrl, integration, origin } from '../platform/http/common-schemas.ts';
import { scrapeOptionsSchema } from '../page/scrape-options.ts';
import { webhookSchema } from './webhooks/webhook-schema.ts';
import { MAX_PATH_PATTERNS_SIZE, patternProblem, patternSize } from './frontier/path-patterns.ts';

/** Body of POST /v2/crawl. Strict: unknown keys (maxDepth, ignoreSitemap, crawlerOptions, …) are rejected. */

export const MAX_PROMPT_LENGTH = 10_000;
export const DEFAULT_CRAWL_LIMIT = 10_000;
export const MAX_CRAWL_LIMIT = 10_000_000;
export const MAX_PATH_PATTERNS = 1000;
export const MAX_PATH_PATTERN_LENGTH = 2000;
export const SITEMAP_MODES = ['skip', 'include', 'only'] as const;

export const LIMIT_MESSAGE = 'limit must be a positive integer';
export const DELAY_MAX_MESSAGE = 'The delay parameter is measured in seconds and cannot exceed 60 seconds.';
export const DELAY_POSITIVE_MESSAGE = 'The delay parameter is measured in seconds and must be greater than 0.';
export const MAX_CONCURRENCY_MESSAGE = 'maxConcurrency must be a positive integer';

/**
 * A list of regular expressions in RE2 syntax (path-patterns.ts). The size of
 * the whole list is checked before any pattern is parsed, as parsing expands
 * counted repetitions; then each pattern must parse.
 */
function pathPatterns(field: 'includePaths' | 'excludePaths') {
  const pattern = z
    .string({ error: `${field} entries must be strings` })
    .max(MAX_PATH_PATTERN_LENGTH, `${field} patterns must be at most ${MAX_PATH_PATTERN_LENGTH} characters`);
  return z
    .array(pattern, { error: `${field} must be an array of regular expression strings` })
    .max(MAX_PATH_PATTERNS, `${field} may contain at most ${MAX_PATH_PATTERNS} patterns`)
    .superRefine((patterns, ctx) => {
      const size = patterns.reduce((sum, p) => sum + patternSize(p), 0);
      if (size > MAX_PATH_PATTERNS_SIZE) {
        ctx.addIssue({
          code: 'custom',
          message: `${field} patterns have a size of ${size} in all, more than ${MAX_PATH_PATTERNS_SIZE} (each character, class or escape counts 1; a counted repetition such as {1,100} multiplies what it repeats)`,
        });
        return;
      }
      patterns.forEach((p, i) => {
        const problem = patternProblem(p);
        if (problem) ctx.addIssue({ code: 'custom', path: [i], message: `Invalid ${field} pattern "${p}": ${problem}`, input: p });
      });
    })
    .default(() => []);
}

export const crawlRequestSchema = z.strictObject({
  url: httpUrl.describe('Base URL where the crawl starts.'),
  prompt: z
    .string()
    .max(MAX_PROMPT_LENGTH, `prompt must be at most ${MAX_PROMPT_LENGTH} characters`)
    .optional()
    .describe('Natural-language text from which crawler options are generated.'),
  excludePaths: pathPatterns('excludePaths').describe('RE2 patterns on the URL pathname. Matching URLs are excluded.'),
  includePaths: pathPatterns('includePaths').describe('RE2 patterns on the URL pathname. Only matching URLs are included.'),
  maxDiscoveryDepth: z
    .int({ error: 'maxDiscoveryDepth must be a non-negative integer' })
    .min(0, 'maxDiscoveryDepth must be a non-negative integer')
    .optional()
    .describe('Maximum depth by discovery order. The root page and sitemap pages have depth 0.'),
  sitemap: z.enum(SITEMAP_MODES).default('include'),
  ignoreQueryParameters: z.boolean().default(false),
  deduplicateSimilarURLs: z.boolean().default(true),
  regexOnFullURL: z.boolean().default(false),
  limit: z
    .int({ error: LIMIT_MESSAGE })
    .min(1, LIMIT_MESSAGE)
    .max(MAX_CRAWL_LIMIT, `limit must not exceed ${MAX_CRAWL_LIMIT}`)
    .default(DEFAULT_CRAWL_LIMIT)
    .describe('Maximum number of pages to crawl.'),
  crawlEntireDomain: z.boolean().default(false),
  allowExternalLinks: z.boolean().default(false),
  allowSubdomains: z.boolean().default(false),
  ignoreRobotsTxt: z.boolean().default(false),
  robotsUserAgent: z.string().min(1, 'robotsUserAgent must be 1 to 512 characters').max(512, 'robotsUserAgent must be 1 to 512 characters').optional(),
  delay: z
    .number()
    .gt(0, DELAY_POSITIVE_MESSAGE)
    .max(60, DELAY_MAX_MESSAGE)
    .optional()
    .describe('Seconds between scrapes. Setting it forces concurrency to 1.'),
  maxConcurrency: z
    .int({ error: MAX_CONCURRENCY_MESSAGE })
    .min(1, MAX_CONCURRENCY_MESSAGE)
    .optional()
    .describe("Concurrency cap for this crawl. When omitted, the team's concurrency limit applies."),
  webhook: webhookSchema.optional(),
  scrapeOptions: scrapeOptionsSchema.prefault({}),
  zeroDataRetention: z.boolean().default(false),
  origin,
  integration,
});

export type CrawlRequest = z.output<typeof crawlRequestSchema>;
export type CrawlRequestInput = z.input<typeof crawlRequestSchema>;

/** Where a document keeps the json format's result: `json`, and for the /v1 API's `extract` format `extract`. */
export const JSON_FIELDS = ['json', 'extract'] as const;
export type JsonField = (typeof JSON_FIELDS)[number];

/**
 * Options a job may hold beyond its /v2 request, which no /v2 body sets: the /v1 API's
 * (src/features/v1) translate into them.
 */
export interface JobExtras {
  /** v1 maxDepth: how many path segments a followed URL may have beyond the start URL's. */
  maxPathDepth?: number;
  /** The document fields the json format's result is stored under (`json` when absent). */
  jsonFields?: JsonField[];
}

/** A job's stored options: its request as validated (defaults applied), and its extras. */
export type JobOptions = CrawlRequest & JobExtras;
