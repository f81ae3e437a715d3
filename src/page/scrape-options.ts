import { z } from 'zod';
import { headerMapSchema } from '../platform/http/header-fields.ts';
import { integration, origin } from '../platform/http/common-schemas.ts';
import { qualitySchema, viewportSchema } from './formats/format-schemas.ts';
import { formatsSchema } from './formats/formats-schema.ts';
import { MODULES, requestedFormats } from './formats/registry.ts';

/**
 * scrapeOptions of the v2 routes that load pages: a strict object whose output has every default
 * applied, formats and parsers normalised to `{type, ...}` objects. The formats are the registry's
 * (formats/registry.ts); the rest is here.
 */

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// ---------------------------------------------------------------------------------------------
// parsers
// ---------------------------------------------------------------------------------------------

export const PDF_PARSER_MODES = ['fast', 'auto', 'ocr'] as const;

/**
 * The SDKs' PDFParser. mode: fast reads the text layer only, auto (unset) adds OCR for pages without
 * one, ocr reads every page by OCR. pageMarkdown is the SDKs' deprecated name of pages, folded into it.
 */
const pdfParserSchema = z
  .strictObject({
    type: z.literal('pdf'),
    mode: z.enum(PDF_PARSER_MODES, { error: `parsers.mode is one of ${PDF_PARSER_MODES.join(', ')}` }).optional(),
    maxPages: z.int().min(1).max(10000).optional(),
    pages: z.boolean().optional(),
    pageMarkdown: z.boolean().optional(),
    blocks: z.boolean().optional(),
    pageMarkers: z.boolean().optional(),
  })
  .transform(({ pageMarkdown, ...parser }) => (pageMarkdown !== undefined && parser.pages === undefined ? { ...parser, pages: pageMarkdown } : parser));

/** The SDKs' ImageParser: raster images (a URL or an upload) read by OCR as one-page documents. */
const imageParserSchema = z.strictObject({ type: z.literal('image') });

const parserObjectSchema = z.discriminatedUnion('type', [pdfParserSchema, imageParserSchema], {
  error: (iss) => (iss.code === 'invalid_union' && isRecord(iss.input) ? `Parser "${String(iss.input.type)}" is not supported by this service` : undefined),
});

const parserItemSchema = z.preprocess<unknown, typeof parserObjectSchema, 'pdf' | 'image' | z.input<typeof parserObjectSchema>>(
  (value: unknown) => (typeof value === 'string' ? { type: value } : value),
  parserObjectSchema,
);

// As upstream: PDFs and images are read unless the request lists its own parsers (the first pdf parser counts).
const parsersSchema = z.array(parserItemSchema).prefault(['pdf', 'image']);

// ---------------------------------------------------------------------------------------------
// actions
// ---------------------------------------------------------------------------------------------

export const MAX_ACTIONS = 50;
export const MAX_TOTAL_ACTION_WAIT_MS = 60_000;
export const TOTAL_WAIT_MESSAGE = 'Total wait time of actions exceeds 60 seconds';

export const ACTION_TYPES = ['wait', 'click', 'write', 'press', 'scroll', 'screenshot', 'scrape', 'executeJavascript', 'pdf'] as const;

const PDF_PAPER_FORMATS = ['A0', 'A1', 'A2', 'A3', 'A4', 'A5', 'A6', 'Letter', 'Legal', 'Tabloid', 'Ledger'] as const;

const waitActionSchema = z
  .strictObject({
    type: z.literal('wait'),
    milliseconds: z.int().min(1).max(60_000).optional(),
    selector: z.string().min(1).optional(),
  })
  .superRefine((action, ctx) => {
    if ((action.milliseconds === undefined) === (action.selector === undefined)) {
      ctx.addIssue({
        code: 'custom',
        message: 'A wait action needs exactly one of milliseconds or selector',
        input: action,
      });
    }
  });

const actionSchema = z.discriminatedUnion(
  'type',
  [
    waitActionSchema,
    z.strictObject({ type: z.literal('click'), selector: z.string().min(1), all: z.boolean().optional() }),
    z.strictObject({ type: z.literal('write'), text: z.string() }),
    z.strictObject({ type: z.literal('press'), key: z.string().min(1) }),
    z.strictObject({
      type: z.literal('scroll'),
      direction: z.enum(['up', 'down']).default('down'),
      selector: z.string().min(1).optional(),
    }),
    z.strictObject({
      type: z.literal('screenshot'),
      fullPage: z.boolean().optional(),
      quality: qualitySchema.optional(),
      viewport: viewportSchema.optional(),
    }),
    z.strictObject({ type: z.literal('scrape') }),
    z.strictObject({ type: z.literal('executeJavascript'), script: z.string().min(1) }),
    z.strictObject({
      type: z.literal('pdf'),
      format: z.enum(PDF_PAPER_FORMATS).optional(),
      landscape: z.boolean().optional(),
      scale: z.number().min(0.1).max(2).optional(),
    }),
  ],
  {
    error: (iss) => {
      // The union also raises invalid_type (with itself as inst) for non-object items.
      if ((iss.code as string) === 'invalid_type') return 'Invalid action: expected an object with a "type" field';
      if (iss.code === 'invalid_union') {
        const type = isRecord(iss.input) ? iss.input.type : undefined;
        return type === undefined ? 'Invalid action: missing "type"' : `Action type "${String(type)}" is not supported`;
      }
      return undefined;
    },
  },
);

const actionsSchema = z
  .array(actionSchema)
  .max(MAX_ACTIONS, `At most ${MAX_ACTIONS} actions are allowed`)
  .superRefine((actions, ctx) => {
    const total = actions.reduce((sum, a) => sum + (a.type === 'wait' ? (a.milliseconds ?? 0) : 0), 0);
    if (total > MAX_TOTAL_ACTION_WAIT_MS) {
      ctx.addIssue({ code: 'custom', message: TOTAL_WAIT_MESSAGE, input: actions });
    }
  });

// ---------------------------------------------------------------------------------------------
// location, profile
// ---------------------------------------------------------------------------------------------

export const locationSchema = z.strictObject({
  // us-generic and us-whitelist are upstream's names for its US proxies: the page sees the US locale and time zone.
  country: z
    .string()
    .trim()
    .regex(/^(?:[A-Za-z]{2}|us-generic|us-whitelist)$/i, 'location.country must be a 2-letter ISO 3166-1 country code (or us-generic)')
    .transform((c) => c.slice(0, 2).toUpperCase())
    .default('US'),
  languages: z.array(z.string().min(1).max(35)).max(50).optional(),
});

const profileSchema = z.strictObject({
  name: z
    .string({ error: (iss) => (iss.input === undefined ? 'profile.name is required' : undefined) })
    .min(1, 'profile.name must be 1 to 128 characters')
    .max(128, 'profile.name must be 1 to 128 characters'),
  saveChanges: z.boolean().default(true),
});

// ---------------------------------------------------------------------------------------------
// scrapeOptions
// ---------------------------------------------------------------------------------------------

export const PROXY_MODES = ['basic', 'stealth', 'enhanced', 'auto'] as const;
export const WAIT_FOR_TIMEOUT_MESSAGE = 'waitFor must not exceed half of timeout';

/** A 400 for a field the SDKs can send that this service does not (yet) honour: never silently ignored. */
function refuse(ctx: z.RefinementCtx, path: string, why: string, input: unknown): void {
  ctx.addIssue({ code: 'custom', path: [path], message: `${path} is not available from this service: ${why}`, input });
}

export const REDACT_PII_ENTITIES = ['PERSON', 'EMAIL', 'PHONE', 'LOCATION', 'FINANCIAL', 'SECRET'] as const;
export const REDACT_PII_MODES = ['accurate', 'aggressive', 'fast'] as const;
/** The SDKs' RedactPIIOptions (docs/api/redaction.md); `true` is every default. */
export const redactPiiSchema = z.union([
  z.boolean(),
  z.strictObject({
    mode: z.enum(REDACT_PII_MODES).optional(),
    entities: z
      .array(z.enum(REDACT_PII_ENTITIES))
      .max(REDACT_PII_ENTITIES.length * 2)
      .optional(),
    replaceStyle: z.enum(['tag', 'mask', 'remove']).optional(),
  }),
]);

export const THREAT_PROTECTION_MODES = ['off', 'manual-only', 'normal', 'zscaler'] as const;
// A host (Unicode allowed, as IDNs are), optionally with * globs: what the rules compare against a URL's host.
const threatHostEntry = z
  .string()
  .max(253)
  .regex(/^\.?[\p{L}\p{N}*_-]+(?:\.[\p{L}\p{N}*_-]+)*\.?$/u, 'must be a domain or a glob such as *.example.com (no scheme, port or path)');
/** The SDKs' ThreatProtectionOptions (an enterprise per-request override of the team's policy); see docs/api/redaction.md. */
export const threatProtectionSchema = z.strictObject({
  mode: z.enum(THREAT_PROTECTION_MODES, { error: `mode must be one of ${THREAT_PROTECTION_MODES.join(', ')}` }).optional(),
  // Only a scanner gives risk scores, and there is none here: accepted and kept.
  riskScoreThreshold: z.int().min(0).max(100).optional(),
  blacklist: z.array(threatHostEntry).max(1000).optional(),
  whitelist: z.array(threatHostEntry).max(1000).optional(),
  blockedTlds: z
    .array(
      z
        .string()
        .max(63)
        .regex(/^\.?[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)*$/u, 'must be a TLD without the leading dot, e.g. zip'),
    )
    .max(1000)
    .optional(),
  failurePolicy: z.enum(['open', 'closed']).optional(),
});

/** The SDKs' AuditMetadata: who, in the caller's own system, made the request (the Python SDK allows 1024 characters). */
export const auditMetadataSchema = z.strictObject({ username: z.string().max(1024) });

/**
 * Keys the SDKs' ScrapeOptions carry beyond how a page loads. Accepted so that no client's
 * default body is refused; what each does is in docs/api/crawl.md#scrapeoptions and docs/api/redaction.md.
 */
export const clientOptionFields = {
  // Pages load one way here; the Python SDK sends fastMode: false with every scrape.
  fastMode: z.boolean().optional(),
  // Refused below: it replays Firecrawl's own recorded answers.
  useMock: z.string().max(256).optional(),
  redactPII: redactPiiSchema.optional(),
  threatProtection: threatProtectionSchema.optional(),
  auditMetadata: auditMetadataSchema.optional(),
  // As on the json format: every model call here already treats the page as untrusted data.
  checkPromptInjection: z.boolean().optional(),
  // Alexandria tools are a Firecrawl cloud service: asking for them is answered with a warning, no tools.
  domainTools: z.boolean().optional(),
  toolDetail: z.enum(['compact', 'summary', 'full']).optional(),
  integration,
  origin,
};

/** Entities only a model finds: mode "fast" runs patterns alone. */
const MODEL_ENTITIES: readonly string[] = ['PERSON', 'LOCATION'];

export function refuseUnavailableClientOptions(
  opts: {
    useMock?: string;
    redactPII?: z.output<typeof redactPiiSchema>;
    formats?: { type: string }[];
    actions?: { type: string }[];
  },
  ctx: z.RefinementCtx,
): void {
  if (opts.useMock !== undefined) refuse(ctx, 'useMock', "it replays Firecrawl's own recorded test answers, which this service does not have", opts.useMock);
  const redact = opts.redactPII;
  if (redact === undefined || redact === false) return;
  // Images and PDFs of the page cannot be redacted, and change tracking compares with snapshots that were not.
  for (const { unredactable, type } of MODULES) {
    if (unredactable !== undefined && opts.formats?.some((f) => f.type === type))
      ctx.addIssue({ code: 'custom', path: ['redactPII'], message: unredactable, input: redact });
  }
  for (const type of ['screenshot', 'pdf']) {
    if (opts.actions?.some((a) => a.type === type))
      ctx.addIssue({
        code: 'custom',
        path: ['redactPII'],
        message: `redactPII cannot be combined with a ${type} action: its ${type === 'pdf' ? 'PDF' : 'image'} of the page cannot be redacted`,
        input: redact,
      });
  }
  if (typeof redact === 'object' && redact.mode === 'fast') {
    const named = redact.entities?.filter((e) => MODEL_ENTITIES.includes(e)) ?? [];
    if (named.length > 0)
      ctx.addIssue({
        code: 'custom',
        path: ['redactPII', 'entities'],
        message: `redactPII mode "fast" finds entities by pattern only and ${named.join(' and ')} need${named.length === 1 ? 's' : ''} the model: use mode "accurate" or "aggressive", or leave ${named.join(' and ')} out`,
        input: redact,
      });
  }
}

/** The warnings a document carries for options this service answers without acting on them. */
export function clientOptionWarnings(so: Pick<ScrapeOptions, 'domainTools' | 'formats'>): string[] {
  return [
    ...(so.domainTools ? ['domainTools: Alexandria tools are a Firecrawl cloud service, which this service does not offer; no tools are listed.'] : []),
    ...requestedFormats(so.formats).flatMap(({ module, format }) => module.warning?.(format) ?? []),
  ];
}

export const scrapeOptionsSchema = z
  .strictObject({
    formats: formatsSchema,
    onlyMainContent: z.boolean().default(true),
    onlyCleanContent: z.boolean().default(false),
    includeTags: z.array(z.string()).optional(),
    excludeTags: z.array(z.string()).optional(),
    maxAge: z.int().min(0).default(172_800_000),
    minAge: z.int().min(0).optional(),
    headers: headerMapSchema().optional(),
    waitFor: z.int().min(0).max(60_000).default(0),
    mobile: z.boolean().default(false),
    skipTlsVerification: z.boolean().optional(),
    timeout: z.int().min(1000).max(300_000).default(60_000),
    parsers: parsersSchema,
    actions: actionsSchema.optional(),
    location: locationSchema.optional(),
    removeBase64Images: z.boolean().default(true),
    blockAds: z.boolean().default(true),
    proxy: z.enum(PROXY_MODES).default('auto'),
    storeInCache: z.boolean().default(true),
    lockdown: z.boolean().default(false),
    profile: profileSchema.optional(),
    ...clientOptionFields,
  })
  .superRefine((opts, ctx) => {
    if (opts.waitFor > opts.timeout / 2) {
      ctx.addIssue({ code: 'custom', message: WAIT_FOR_TIMEOUT_MESSAGE, path: ['waitFor'], input: opts.waitFor });
    }
    refuseUnavailableClientOptions(opts, ctx);
  });

export type ScrapeOptions = z.output<typeof scrapeOptionsSchema>;
export type ScrapeOptionsInput = z.input<typeof scrapeOptionsSchema>;
export type { ScrapeFormat } from './formats/registry.ts';
export type ScrapeParser = ScrapeOptions['parsers'][number];
export type PdfParser = Extract<ScrapeParser, { type: 'pdf' }>;

/** The pdf parser's options, or undefined when PDFs are not to be parsed. */
export function pdfParser(so: Pick<ScrapeOptions, 'parsers'>): PdfParser | undefined {
  return so.parsers.find((p): p is PdfParser => p.type === 'pdf');
}

/** Whether images (a URL or an upload) are read by OCR. */
export function parsesImages(so: Pick<ScrapeOptions, 'parsers'>): boolean {
  return so.parsers.some((p) => p.type === 'image');
}
export type ScrapeAction = z.output<typeof actionSchema>;
export type ScrapeLocation = z.output<typeof locationSchema>;
export type ScrapeProfile = z.output<typeof profileSchema>;

/** The scrape options an empty object parses to (a fresh object on every call). */
export function defaultScrapeOptions(): ScrapeOptions {
  return scrapeOptionsSchema.parse({});
}
