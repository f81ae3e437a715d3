// The `options` part of POST /v2/parse: the scrape options that apply to a file
// (the SDKs' ParseOptions), strict like every body. Options about loading a page
// (waitFor, actions, location, mobile, the cache) are unknown keys here, as the
// SDKs refuse them; formats a file cannot have are named in the 400.
import { z } from 'zod';
import { integration, origin } from '../../platform/http/common-schemas.ts';
import { refuseUnavailableClientOptions, scrapeOptionsSchema } from '../../page/scrape-options.ts';
import { MODULES } from '../../page/formats/registry.ts';

/** Formats that need a rendered web page. */
export const PAGE_ONLY_FORMATS: readonly string[] = MODULES.filter((m) => m.pageOnly).map((m) => m.type);

export function pageOnlyFormatMessage(format: string): string {
  return `The ${format} format is not available for uploads: it needs a web page rendered in a browser (${PAGE_ONLY_FORMATS.join(', ')} are not available for POST /v2/parse).`;
}

const shape = scrapeOptionsSchema.shape;

export const parseOptionsSchema = z
  .strictObject({
    formats: shape.formats.superRefine((formats, ctx) => {
      formats.forEach((format, i) => {
        if (PAGE_ONLY_FORMATS.includes(format.type)) {
          ctx.addIssue({ code: 'custom', message: pageOnlyFormatMessage(format.type), path: [i], input: format });
        }
      });
    }),
    onlyMainContent: shape.onlyMainContent,
    onlyCleanContent: shape.onlyCleanContent,
    includeTags: shape.includeTags,
    excludeTags: shape.excludeTags,
    removeBase64Images: shape.removeBase64Images,
    timeout: shape.timeout.describe('Longest the parse may wait for a slot of the team’s concurrency limit, in ms.'),
    parsers: shape.parsers.describe(
      '`pdf` converts PDFs (modes, `maxPages`, `pages`, `blocks`, `pageMarkers`), `image` reads images by OCR; both by default; a file whose parser is not listed is a 400. See docs/api/parsers.md.',
    ),
    // Accepted because the SDKs' ParseOptions carry them; nothing is fetched, so they change nothing.
    headers: shape.headers,
    skipTlsVerification: shape.skipTlsVerification,
    blockAds: shape.blockAds,
    fastMode: shape.fastMode,
    useMock: shape.useMock,
    redactPII: shape.redactPII,
    auditMetadata: shape.auditMetadata,
    domainTools: shape.domainTools,
    // A browser profile holds a browser's state; nothing is loaded in a browser for a file.
    profile: shape.profile,
    // Sent by the Python SDK, whose ParseOptions are its ScrapeOptions: no page is loaded, so they change nothing.
    toolDetail: shape.toolDetail,
    threatProtection: shape.threatProtection,
    checkPromptInjection: shape.checkPromptInjection,
    // The Python SDK sends these empty (it refuses a wait, actions and mobile rendering for an upload itself).
    waitFor: z.literal(0, { error: 'waitFor does not apply to an uploaded file: leave it out (or 0)' }).optional(),
    actions: z
      .array(z.never(), { error: 'actions do not apply to an uploaded file: leave them out (or [])' })
      .max(0, 'actions do not apply to an uploaded file: leave them out (or [])')
      .optional(),
    mobile: z.literal(false, { error: 'mobile rendering does not apply to an uploaded file: leave mobile out (or false)' }).optional(),
    proxy: z.enum(['basic', 'auto']).optional(),
    zeroDataRetention: z.boolean().default(false),
    origin,
    integration,
  })
  .superRefine(refuseUnavailableClientOptions);

export type ParseOptions = z.output<typeof parseOptionsSchema>;
