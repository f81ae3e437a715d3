// The /v1 scrape options (the flat body of /v1/scrape and /v1/batch/scrape, the
// scrapeOptions of /v1/crawl, /v1/search and /v1/extract) and their translation into
// /v2's: format strings with side objects become format objects, parsePDF becomes
// parsers, geolocation is location, and v1's own defaults (proxy basic, maxAge one day)
// are written out. Fields v1 and v2 share are validated by /v2's own field schemas.
import { z } from 'zod';
import { scrapeOptionsSchema, type ScrapeOptionsInput } from '../../page/scrape-options.ts';
import type { JsonField } from '../../jobs/crawl-request.ts';

/** Format names a v1 body may list; `content` is the v0 name of markdown, which the SDKs' types still allow. */
export const V1_FORMATS = [
  'markdown',
  'html',
  'rawHtml',
  'rawBase64',
  'links',
  'screenshot',
  'screenshot@fullPage',
  'extract',
  'json',
  'summary',
  'changeTracking',
  'branding',
  'product',
  'menu',
  'content',
] as const;
export type V1Format = (typeof V1_FORMATS)[number];

export const V1_DEFAULT_PROXY = 'basic';
export const V1_DEFAULT_MAX_AGE_MS = 86_400_000;
/** What the Python SDK sends as every timeout, and what v1 bumps for a model format (below). */
export const V1_SDK_TIMEOUT_MS = 30_000;
export const V1_MODEL_FORMAT_TIMEOUT_MS = 60_000;

export const JSON_OPTIONS_PAIRING_MESSAGE = "When 'extract' or 'json' format is specified, corresponding options must be provided, and vice versa";

const v2 = scrapeOptionsSchema.shape;

/** FIRE-1, upstream's browsing agent: accepted as the SDKs send it, not offered here. */
const agentSchema = z.strictObject({
  model: z.string().max(64).optional(),
  prompt: z.string().max(10_000).optional(),
  sessionId: z.string().max(256).optional(),
  waitBeforeClosingMs: z.int().min(0).optional(),
});

/** `jsonOptions` and its older name `extract`. The model prompt of a scrape is fixed here, so systemPrompt, temperature and mode are accepted and not used. */
const jsonOptionsSchema = z.strictObject({
  prompt: z.string().optional(),
  // null is what the Python SDK sends for a json format without a schema.
  schema: z.record(z.string(), z.unknown()).nullish(),
  systemPrompt: z.string().max(10_000).optional(),
  temperature: z.number().optional(),
  mode: z.literal('llm').optional(),
  checkPromptInjection: z.boolean().optional(),
  agent: agentSchema.optional(),
});

const changeTrackingOptionsSchema = z.strictObject({
  prompt: z.string().optional(),
  schema: z.record(z.string(), z.unknown()).nullish(),
  modes: z.array(z.enum(['json', 'git-diff'])).optional(),
  tag: z.string().nullish(),
});

/** The fields of the v1 scrape options, to spread into a request's own object. */
export const v1ScrapeOptionsShape = {
  formats: z.array(z.enum(V1_FORMATS, { error: `formats must be among ${V1_FORMATS.join(', ')}` })).default(['markdown']),
  jsonOptions: jsonOptionsSchema.optional(),
  extract: jsonOptionsSchema.optional(),
  changeTrackingOptions: changeTrackingOptionsSchema.optional(),
  headers: v2.headers,
  includeTags: v2.includeTags,
  excludeTags: v2.excludeTags,
  onlyMainContent: v2.onlyMainContent,
  onlyCleanContent: v2.onlyCleanContent,
  timeout: z.int({ error: 'timeout must be an integer number of milliseconds' }).min(1000, 'timeout must be at least 1000 ms').optional(),
  waitFor: v2.waitFor,
  mobile: v2.mobile,
  parsePDF: z.boolean().default(true),
  actions: v2.actions,
  location: v2.location,
  geolocation: v2.location.describe('Deprecated name of location.'),
  skipTlsVerification: v2.skipTlsVerification,
  removeBase64Images: v2.removeBase64Images,
  blockAds: v2.blockAds,
  storeInCache: v2.storeInCache,
  // Pages load one way here.
  fastMode: z.boolean().optional(),
  proxy: z.enum(['basic', 'stealth', 'enhanced', 'auto']).default(V1_DEFAULT_PROXY),
  maxAge: z.int().min(0).default(V1_DEFAULT_MAX_AGE_MS),
};

type ShapeOutput = z.output<z.ZodObject<typeof v1ScrapeOptionsShape>>;
export type V1ScrapeOptions = ShapeOutput & { agent?: z.output<typeof agentSchema> };

/** v1's rule that a model format and its options come together, in both directions. */
export function refineV1ScrapeOptions(opts: Pick<V1ScrapeOptions, 'formats' | 'jsonOptions' | 'extract'>, ctx: z.RefinementCtx): void {
  const pairs = [
    [opts.formats.includes('json'), opts.jsonOptions !== undefined],
    [opts.formats.includes('extract'), opts.extract !== undefined],
  ];
  if (pairs.some(([format, options]) => format !== options)) ctx.addIssue({ code: 'custom', message: JSON_OPTIONS_PAIRING_MESSAGE, path: ['formats'] });
}

export const v1AgentField = agentSchema.optional().describe('FIRE-1 (upstream’s browsing agent): accepted, not offered here; the page is scraped without it.');

/** The scrapeOptions object of /v1/crawl, /v1/search and /v1/extract. */
export const v1ScrapeOptionsSchema = z.strictObject(v1ScrapeOptionsShape).superRefine(refineV1ScrapeOptions);

const dropUndefined = <T extends Record<string, unknown>>(o: T): T => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

/** The json format of v2 from v1's options: jsonOptions for a `json` format, else `extract`. */
type FormatInput = NonNullable<ScrapeOptionsInput['formats']>[number];

function jsonFormat(opts: V1ScrapeOptions): FormatInput {
  const source = (opts.formats.includes('json') ? opts.jsonOptions : undefined) ?? opts.extract ?? opts.jsonOptions ?? {};
  return dropUndefined({ type: 'json' as const, prompt: source.prompt, schema: source.schema ?? undefined, checkPromptInjection: source.checkPromptInjection });
}

export interface TranslatedScrapeOptions {
  scrapeOptions: ScrapeOptionsInput;
  /** Where the documents keep the json result, when not (only) under `json`. */
  jsonFields?: JsonField[];
}

/**
 * v1 options as /v2 scrape options. `defaultTimeout` is the route's (a v1 scrape's is 30 s); a
 * timeout of exactly 30 s (the SDKs' default) becomes 60 s with a model format, as upstream, since
 * the model's call comes on top of the page's load.
 */
export function toV2ScrapeOptions(opts: V1ScrapeOptions, defaultTimeout?: number): TranslatedScrapeOptions {
  const names = [...new Set(opts.formats.map((f) => (f === 'content' ? 'markdown' : f)))];
  const jsonFields = names.filter((n): n is JsonField => n === 'json' || n === 'extract');
  const formats: FormatInput[] = [];
  for (const name of names) {
    if (name === 'json' || name === 'extract') {
      if (name === jsonFields[0]) formats.push(jsonFormat(opts));
    } else if (name === 'changeTracking') {
      const ct = opts.changeTrackingOptions ?? {};
      formats.push(dropUndefined({ type: 'changeTracking' as const, modes: ct.modes, tag: ct.tag, prompt: ct.prompt, schema: ct.schema ?? undefined }));
    } else {
      // rawBase64, product and menu too: /v2's schema answers that this service does not produce them.
      formats.push(name as Exclude<FormatInput, object>);
    }
  }
  let timeout = opts.timeout ?? defaultTimeout;
  if (timeout === V1_SDK_TIMEOUT_MS && (jsonFields.length > 0 || names.includes('changeTracking'))) timeout = V1_MODEL_FORMAT_TIMEOUT_MS;
  const scrapeOptions = dropUndefined({
    formats,
    headers: opts.headers,
    includeTags: opts.includeTags,
    excludeTags: opts.excludeTags,
    onlyMainContent: opts.onlyMainContent,
    onlyCleanContent: opts.onlyCleanContent,
    timeout,
    waitFor: opts.waitFor,
    mobile: opts.mobile,
    parsers: opts.parsePDF ? ['pdf' as const] : [],
    actions: opts.actions,
    location: opts.location ?? opts.geolocation,
    skipTlsVerification: opts.skipTlsVerification,
    removeBase64Images: opts.removeBase64Images,
    blockAds: opts.blockAds,
    storeInCache: opts.storeInCache,
    proxy: opts.proxy,
    maxAge: opts.maxAge,
  });
  return { scrapeOptions, ...(jsonFields.includes('extract') && { jsonFields }) };
}

/** The fields of the flat v1 scrape options in a request, apart from the request's own. */
export function pickScrapeOptions<T extends V1ScrapeOptions>(req: T): V1ScrapeOptions {
  const picked = Object.fromEntries(Object.keys(v1ScrapeOptionsShape).map((k) => [k, req[k as keyof T]]));
  return { ...(picked as unknown as ShapeOutput), agent: req.agent };
}

/** Whether the request asked for FIRE-1, which this service does not run. */
export function asksForAgent(opts: V1ScrapeOptions): boolean {
  return opts.agent !== undefined || opts.jsonOptions?.agent !== undefined || opts.extract?.agent !== undefined;
}

export const AGENT_NOT_OFFERED_WARNING = 'agent (FIRE-1) is not offered by this service: the page was scraped without it.';
