// Body of POST /v1/map and its /v2 form. v1 chooses the sitemap with two booleans
// (sitemapOnly wins), and inherits the crawler's fields, which a map accepts and does
// not use (as upstream); so are useIndex, filterByPath, ignoreCache and headers.
import { z } from 'zod';
import { httpUrl, integration, origin } from '../../platform/http/common-schemas.ts';
import { crawlRequestSchema } from '../../jobs/crawl-request.ts';
import { headerMapSchema } from '../../platform/http/header-fields.ts';

const crawler = crawlRequestSchema.shape;
const unused = (what: string) => `Accepted and not used: ${what}.`;

export const v1MapRequestSchema = z.strictObject({
  url: httpUrl,
  search: z.string().optional().describe('Ranks the links by their relevance to these words.'),
  ignoreSitemap: z.boolean().default(false),
  sitemapOnly: z.boolean().default(false).describe('Only the sitemap’s URLs (wins over ignoreSitemap).'),
  includeSubdomains: z.boolean().default(true),
  ignoreQueryParameters: z.boolean().default(true),
  limit: z.int().optional(),
  timeout: z.int().optional(),
  location: z.strictObject({ country: z.string().optional(), languages: z.array(z.string()).optional() }).optional(),
  useIndex: z.boolean().optional().describe(unused('the local index is always asked')),
  filterByPath: z.boolean().optional().describe(unused('links are filtered by the start URL’s host only')),
  ignoreCache: z.boolean().optional().describe(unused('a map reads the site afresh')),
  headers: headerMapSchema().optional().describe(unused('sitemaps and the start page are fetched without them')),
  includePaths: crawler.includePaths.describe(unused('a crawler option')),
  excludePaths: crawler.excludePaths.describe(unused('a crawler option')),
  maxDepth: z.int().optional().describe(unused('a crawler option')),
  maxDiscoveryDepth: z.int().optional().describe(unused('a crawler option')),
  allowBackwardLinks: z.boolean().optional().describe(unused('a crawler option')),
  crawlEntireDomain: z.boolean().optional().describe(unused('a crawler option')),
  allowExternalLinks: z.boolean().optional().describe(unused('a crawler option')),
  allowSubdomains: z.boolean().optional().describe(unused('a crawler option')),
  ignoreRobotsTxt: z.boolean().optional().describe(unused('a crawler option')),
  deduplicateSimilarURLs: z.boolean().optional().describe(unused('a crawler option')),
  regexOnFullURL: z.boolean().optional().describe(unused('a crawler option')),
  delay: z.number().optional().describe(unused('a crawler option')),
  origin,
  integration,
});

export type V1MapRequest = z.output<typeof v1MapRequestSchema>;

export function toV2Map(req: V1MapRequest): Record<string, unknown> {
  return {
    url: req.url,
    search: req.search,
    sitemap: req.sitemapOnly ? 'only' : req.ignoreSitemap ? 'skip' : 'include',
    includeSubdomains: req.includeSubdomains,
    ignoreQueryParameters: req.ignoreQueryParameters,
    limit: req.limit,
    timeout: req.timeout,
    location: req.location,
    origin: req.origin,
    integration: req.integration,
  };
}
