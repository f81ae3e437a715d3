// Body of POST /v2/search: every field of the spec and of upstream's schema
// (firecrawl-v2.md 1.10), including the fields the SDKs send that have no effect
// here (documented in docs/api/search.md).
import { z } from 'zod';
import { integration, origin } from '../../platform/http/common-schemas.ts';
import { scrapeOptionsSchema } from '../../page/scrape-options.ts';

export const MAX_QUERY_LENGTH = 500;
export const SOURCES = ['web', 'images', 'news'] as const;
export const CATEGORIES = ['github', 'research', 'pdf'] as const;

const sourceObject = z.object({
  type: z.enum(SOURCES, { error: `sources must be among ${SOURCES.join(', ')}` }),
  tbs: z.string().max(200).optional(),
  filter: z.string().max(200).optional(),
  lang: z.string().max(20).optional(),
  country: z.string().max(20).optional(),
  location: z.string().max(200).optional(),
});
const categoryObject = z.object({
  type: z.enum(CATEGORIES, { error: `categories must be among ${CATEGORIES.join(', ')}` }),
  sites: z.array(z.string().max(253)).max(50).optional(),
});

const hostname = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^(?=.{1,253}$)[a-z0-9_](?:[a-z0-9_-]{0,62})(?:\.[a-z0-9_-]{1,63})*$/, 'must be a hostname (no protocol, no path), e.g. example.com');

export const searchRequestSchema = z
  .strictObject({
    query: z.string({ error: 'query must be a string' }).max(MAX_QUERY_LENGTH, `query must be at most ${MAX_QUERY_LENGTH} characters`),
    limit: z.int({ error: 'limit must be an integer' }).min(1, 'limit must be at least 1').max(100, 'limit must be at most 100').default(10),
    sources: z
      .array(z.union([z.enum(SOURCES), sourceObject], { error: `sources must be among ${SOURCES.join(', ')} (names or {type} objects)` }))
      .min(1, 'sources must not be empty')
      .max(3)
      .default(['web']),
    categories: z
      .array(z.union([z.enum(CATEGORIES), categoryObject], { error: `categories must be among ${CATEGORIES.join(', ')} (names or {type} objects)` }))
      .max(3)
      .default([]),
    includeDomains: z.array(hostname).max(100).optional(),
    excludeDomains: z.array(hostname).max(100).optional(),
    tbs: z.string().max(200).optional(),
    filter: z.string().max(200).optional(),
    location: z.string().max(200).optional(),
    country: z.string().max(20).optional(),
    lang: z.string().max(20).default('en'),
    timeout: z
      .int({ error: 'timeout must be an integer number of milliseconds' })
      .min(1, 'timeout must be positive')
      .max(600_000, 'timeout must be at most 600000 ms')
      .default(60_000),
    ignoreInvalidURLs: z.boolean().default(false),
    enterprise: z
      .array(z.enum(['default', 'anon', 'zdr'], { error: 'enterprise must be among default, anon, zdr' }))
      .max(3)
      .optional(),
    safe: z.boolean({ error: 'safe must be true or false' }).optional(),
    asyncScraping: z.boolean().optional(),
    highlights: z.boolean().optional(),
    threatProtection: z.unknown().optional(),
    toolDetail: z.unknown().optional(),
    domainTools: z.unknown().optional(),
    scrapeOptions: z
      .preprocess((v) => (v && typeof v === 'object' && !Array.isArray(v) && !('formats' in v) ? { ...v, formats: [] } : v), scrapeOptionsSchema)
      .optional(),
    origin,
    integration,
  })
  .superRefine((req, ctx) => {
    if (req.includeDomains?.length && req.excludeDomains?.length) {
      ctx.addIssue({ code: 'custom', message: 'includeDomains and excludeDomains cannot both be specified', path: ['includeDomains'] });
    }
    const types = req.sources.map((s) => (typeof s === 'string' ? s : s.type));
    if (new Set(types).size !== types.length) ctx.addIssue({ code: 'custom', message: 'each source may be named once', path: ['sources'] });
  });

export type SearchRequest = z.output<typeof searchRequestSchema>;
