// Body of POST /v1/extract and its /v2 form. The fields v2's extract has no use for
// (limit, urlTrace, timeout, ignoreSitemap, includeSubdomains) are accepted and not
// used; urls and schema may be null, as the Python SDK sends them.
import { z } from 'zod';
import { integration, origin } from '../../platform/http/common-schemas.ts';
import { webhookSchema } from '../../jobs/webhooks/webhook-schema.ts';
import { toV2ScrapeOptions, v1ScrapeOptionsSchema } from './scrape-options.ts';

const unused = (what: string) => `Accepted and not used: ${what}.`;

export const v1ExtractRequestSchema = z.strictObject({
  urls: z.array(z.string()).nullish(),
  prompt: z.string().optional(),
  systemPrompt: z.string().optional(),
  schema: z.record(z.string(), z.unknown()).nullish(),
  limit: z.int().optional().describe(unused('a wildcard URL reads EXTRACT_MAX_PAGES pages')),
  ignoreSitemap: z.boolean().optional().describe(unused('a wildcard URL is crawled from its links')),
  includeSubdomains: z.boolean().optional().describe(unused('a wildcard crawl stays on its host unless allowExternalLinks')),
  allowExternalLinks: z.boolean().default(false),
  enableWebSearch: z.boolean().default(false),
  scrapeOptions: v1ScrapeOptionsSchema.optional(),
  urlTrace: z.boolean().optional().describe(unused('urlTrace is answered empty')),
  timeout: z.int().optional().describe(unused('the extract runs until done')),
  showSources: z.boolean().default(false),
  agent: z.strictObject({ model: z.string().optional(), sessionId: z.string().optional() }).optional(),
  ignoreInvalidURLs: z.boolean().default(false),
  webhook: webhookSchema.optional(),
  origin,
  integration,
});

export type V1ExtractRequest = z.output<typeof v1ExtractRequestSchema>;

export function toV2Extract(req: V1ExtractRequest): Record<string, unknown> {
  return {
    urls: req.urls ?? undefined,
    prompt: req.prompt,
    systemPrompt: req.systemPrompt,
    schema: req.schema ?? undefined,
    allowExternalLinks: req.allowExternalLinks,
    enableWebSearch: req.enableWebSearch,
    showSources: req.showSources,
    ignoreInvalidURLs: req.ignoreInvalidURLs,
    ...(req.scrapeOptions && { scrapeOptions: toV2ScrapeOptions(req.scrapeOptions).scrapeOptions }),
    webhook: req.webhook,
    agent: req.agent,
    origin: req.origin,
    integration: req.integration,
  };
}
