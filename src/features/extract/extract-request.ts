// Body of POST /v2/extract: the SDKs' ExtractRequest. Strict like every body; the
// fields this service accepts without acting on them (agent, ignoreInvalidURLs,
// enableWebSearch) are listed in docs/api/extract.md.
import { z } from 'zod';
import { integration, normaliseHttpUrl, origin } from '../../platform/http/common-schemas.ts';
import { scrapeOptionsSchema, threatProtectionSchema } from '../../page/scrape-options.ts';
import { jsonSchemaField, MAX_MODEL_PROMPT_CHARS } from '../../page/formats/format-schemas.ts';
import { webhookSchema } from '../../jobs/webhooks/webhook-schema.ts';
import { nestedAtMost } from '../../platform/json-depth.ts';

/** A URL ending in this is crawled (EXTRACT_MAX_PAGES pages under it), not scraped alone. */
export const WILDCARD_SUFFIX = '/*';

/** The most any server accepts; EXTRACT_MAX_URLS may allow fewer. */
export const MAX_EXTRACT_URLS = 1000;

export const EXTRACT_NEEDS_MESSAGE = 'An extract needs a prompt, a schema or both';
export const EXTRACT_URLS_MESSAGE = 'urls must name at least one URL';

/** Deeper objects would overflow the stack of the recursive validators and serializers after them. */
const MAX_ACCEPTED_DEPTH = 32;

/** An object the SDKs may send and this service keeps without reading. */
function acceptedObject(path: string) {
  return nestedAtMost(path, MAX_ACCEPTED_DEPTH).pipe(z.record(z.string(), z.json()));
}

const extractUrl = z.string().transform((value, ctx) => {
  const wildcard = value.endsWith(WILDCARD_SUFFIX);
  const parsed = normaliseHttpUrl(wildcard ? value.slice(0, -WILDCARD_SUFFIX.length) : value);
  if (!parsed.ok) {
    ctx.addIssue({ code: 'custom', message: `${value}: ${parsed.message}`, input: value });
    return z.NEVER;
  }
  return wildcard ? `${parsed.url}${WILDCARD_SUFFIX}` : parsed.url;
});

export const extractRequestSchema = z
  .strictObject({
    urls: z
      .array(extractUrl)
      .min(1, EXTRACT_URLS_MESSAGE)
      .max(MAX_EXTRACT_URLS, `urls may name at most ${MAX_EXTRACT_URLS} URLs`)
      .describe('Pages to read; one ending in /* is crawled (EXTRACT_MAX_PAGES pages).'),
    prompt: z.string().trim().min(1, 'prompt must not be empty').max(MAX_MODEL_PROMPT_CHARS).optional().describe('What to extract, in words.'),
    schema: jsonSchemaField('schema').optional().describe('JSON schema the answer must be valid under.'),
    systemPrompt: z.string().max(MAX_MODEL_PROMPT_CHARS).optional().describe('Added to the task the model is given (never replaces the data rule).'),
    allowExternalLinks: z.boolean().default(false).describe('A wildcard crawl follows links to other sites.'),
    enableWebSearch: z.boolean().default(false).describe('Accepted; web search is not used (the answer carries a warning).'),
    showSources: z.boolean().default(false).describe('Answer `sources`: each top-level field with the URLs it came from.'),
    ignoreInvalidURLs: z.boolean().default(true).describe('Accepted: a URL that cannot be fetched is always a warning, not a failure.'),
    scrapeOptions: scrapeOptionsSchema.optional().describe('How pages are fetched; formats are replaced by markdown.'),
    zeroDataRetention: z.boolean().default(false).describe('Pages go to the model only when it is marked local (LLM_IS_LOCAL).'),
    webhook: webhookSchema.optional().describe('Signed extract.started, extract.completed and extract.failed events.'),
    // Accepted for the SDKs, not acted on.
    agent: acceptedObject('agent').optional(),
    threatProtection: threatProtectionSchema.optional().describe('Applied to every page the extract fetches (over scrapeOptions.threatProtection).'),
    origin,
    integration,
  })
  .superRefine((req, ctx) => {
    if (req.prompt === undefined && req.schema === undefined) ctx.addIssue({ code: 'custom', message: EXTRACT_NEEDS_MESSAGE, path: ['prompt'] });
  });

export type ExtractRequest = z.output<typeof extractRequestSchema>;
