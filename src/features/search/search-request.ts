// Body of POST /v2/search: every field of the spec and of upstream's schema
// and every value the SDKs' types allow. What each does here,
// is accepted with a warning, or refuses as a Firecrawl cloud service is decided in
// search-service.ts and documented in docs/api/search.md.
import { z } from 'zod';
import { integration, origin } from '../../platform/http/common-schemas.ts';
import { MAX_SEARCH_QUERY_LENGTH } from '../../platform/tools/search-contract.ts';
import { scrapeOptionsSchema, threatProtectionSchema } from '../../page/scrape-options.ts';

/** The sources searched here. */
export const SOURCES = ['web', 'images', 'news'] as const;
/** The sources of the SDKs' types that are cloud services (the Alexandria exchange's tools). */
export const CLOUD_SOURCES = ['alexandria'] as const;
const ALL_SOURCES = [...SOURCES, ...CLOUD_SOURCES] as const;
/** The categories searched here (narrowing the pages of the index). */
export const CATEGORIES = ['github', 'research', 'pdf'] as const;
/** The categories that switch upstream's search to an index of its own, a cloud service; neither combines with another category. */
export const CLOUD_CATEGORIES = ['developer', 'gov'] as const;
/** Upstream's other names of the developer category. */
export const DEVELOPER_ALIASES = ['repo', 'code', 'docs', 'devdex', 'repo_search', 'developer_index'] as const;
const CATEGORY_NAMES = [...CATEGORIES, ...CLOUD_CATEGORIES, ...DEVELOPER_ALIASES] as const;
export type RequestCategory = (typeof CATEGORIES)[number] | (typeof CLOUD_CATEGORIES)[number];

const sourceObject = z.object({
  type: z.enum(SOURCES, { error: `sources must be among ${ALL_SOURCES.join(', ')}` }),
  tbs: z.string().max(200).optional(),
  filter: z.string().max(200).optional(),
  lang: z.string().max(20).optional(),
  country: z.string().max(20).optional(),
  location: z.string().max(200).optional(),
});
const cloudSourceObject = z.strictObject({ type: z.enum(CLOUD_SOURCES) });
const categoryObject = z.object({
  type: z.enum(CATEGORY_NAMES, { error: `categories must be among ${[...CATEGORIES, ...CLOUD_CATEGORIES].join(', ')}` }),
  sites: z.array(z.string().max(253)).max(50).optional(),
});

/** A category by its one name here (an alias of developer is developer). */
export function categoryName(category: string | { type: string }): RequestCategory {
  const name = typeof category === 'string' ? category : category.type;
  return (DEVELOPER_ALIASES as readonly string[]).includes(name) ? 'developer' : (name as RequestCategory);
}

export const sourceName = (source: string | { type: string }) => (typeof source === 'string' ? source : source.type) as (typeof ALL_SOURCES)[number];

const hostname = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^(?=.{1,253}$)[a-z0-9_](?:[a-z0-9_-]{0,62})(?:\.[a-z0-9_-]{1,63})*$/, 'must be a hostname (no protocol, no path), e.g. example.com');

export const searchRequestSchema = z
  .strictObject({
    query: z.string({ error: 'query must be a string' }).max(MAX_SEARCH_QUERY_LENGTH, `query must be at most ${MAX_SEARCH_QUERY_LENGTH} characters`),
    limit: z.int({ error: 'limit must be an integer' }).min(1, 'limit must be at least 1').max(100, 'limit must be at most 100').default(10),
    sources: z
      .array(
        z.union([z.enum(ALL_SOURCES), sourceObject, cloudSourceObject], { error: `sources must be among ${ALL_SOURCES.join(', ')} (names or {type} objects)` }),
      )
      .min(1, 'sources must not be empty')
      .max(ALL_SOURCES.length)
      .default(['web']),
    categories: z
      .array(
        z.union([z.enum(CATEGORY_NAMES), categoryObject], {
          error: `categories must be among ${[...CATEGORIES, ...CLOUD_CATEGORIES].join(', ')} (names or {type} objects)`,
        }),
      )
      .max(10)
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
    highlights: z.boolean({ error: 'highlights must be true or false' }).optional(),
    threatProtection: threatProtectionSchema.optional(),
    toolDetail: z.enum(['compact', 'summary', 'full'], { error: 'toolDetail must be one of compact, summary, full' }).optional(),
    domainTools: z.boolean({ error: 'domainTools must be true or false' }).optional(),
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
    const types = req.sources.map(sourceName);
    if (new Set(types).size !== types.length) ctx.addIssue({ code: 'custom', message: 'each source may be named once', path: ['sources'] });
    const categories = new Set(req.categories.map(categoryName));
    for (const alone of CLOUD_CATEGORIES) {
      if (categories.has(alone) && categories.size > 1) {
        ctx.addIssue({ code: 'custom', message: `the ${alone} category cannot be combined with other categories`, path: ['categories'] });
      }
    }
  });

export type SearchRequest = z.output<typeof searchRequestSchema>;
