// Body of POST /v2/map. Strict, like every body; accepts what the official SDKs send.
import { z } from 'zod';
import { httpUrl, integration, origin } from '../../platform/http/common-schemas.ts';
import { SITEMAP_MODES } from '../../jobs/crawl-request.ts';
import { auditMetadataSchema, threatProtectionSchema } from '../../page/scrape-options.ts';

export const DEFAULT_MAP_LIMIT = 5000;
export const MAX_MAP_LIMIT = 100_000;
export const DEFAULT_MAP_TIMEOUT_MS = 60_000;
export const MAX_MAP_TIMEOUT_MS = 300_000;
export const MAX_SEARCH_LENGTH = 500;

export const mapRequestSchema = z.strictObject({
  url: httpUrl,
  search: z.string().max(MAX_SEARCH_LENGTH, `search must be at most ${MAX_SEARCH_LENGTH} characters`).optional(),
  sitemap: z.enum(SITEMAP_MODES).default('include'),
  includeSubdomains: z.boolean().default(true),
  ignoreQueryParameters: z.boolean().default(true),
  limit: z
    .int({ error: `limit must be an integer from 1 to ${MAX_MAP_LIMIT}` })
    .min(1, `limit must be an integer from 1 to ${MAX_MAP_LIMIT}`)
    .max(MAX_MAP_LIMIT, `limit must be an integer from 1 to ${MAX_MAP_LIMIT}`)
    .default(DEFAULT_MAP_LIMIT),
  timeout: z
    .int({ error: `timeout must be an integer number of milliseconds from 1000 to ${MAX_MAP_TIMEOUT_MS}` })
    .min(1000, `timeout must be an integer number of milliseconds from 1000 to ${MAX_MAP_TIMEOUT_MS}`)
    .max(MAX_MAP_TIMEOUT_MS, `timeout must be an integer number of milliseconds from 1000 to ${MAX_MAP_TIMEOUT_MS}`)
    .default(DEFAULT_MAP_TIMEOUT_MS),
  // Accepted for compatibility; the map reads sitemaps and pages the same from every location.
  location: z.strictObject({ country: z.string().max(16).optional(), languages: z.array(z.string().max(35)).max(50).optional() }).optional(),
  // Sent by the SDKs' MapOptions: threatProtection's lists filter the map's links (map-site.ts); auditMetadata is logged.
  threatProtection: threatProtectionSchema.optional(),
  auditMetadata: auditMetadataSchema.optional(),
  origin,
  integration,
});

export type MapRequest = z.output<typeof mapRequestSchema>;
