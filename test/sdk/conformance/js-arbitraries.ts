// Arbitraries of the JS SDK's own request types. Each object arbitrary lists
// every field of its SDK type (`fields<T>` takes `Required<T>`'s keys), so a
// field the SDK adds or drops breaks this file's build, and each value is one
// the type allows and that is right in substance (a real-looking URL, a CSS
// selector, a timeout in range): a 400 for such a request is a defect. Values
// of fields this service refuses by design (docs/api/sdk-coverage.md) are
// generated too; the oracle (oracle.ts) expects their refusal.
import type {
  ActionOption,
  AgentExchangeOptions,
  AgentWebhookConfig,
  AttributesFormat,
  BatchScrapeOptions,
  CategoryOption,
  ChangeTrackingFormat,
  CrawlOptions,
  FormatOption,
  HighlightsFormat,
  JsonFormat,
  LocationConfig,
  MapOptions,
  ParseOptions,
  QuestionFormat,
  ScrapeOptions,
  ScreenshotFormat,
  SearchRequest,
  ThreatProtectionOptions,
  WebhookConfig,
  FirecrawlClient,
} from '@mendable/firecrawl-js';
import fc from 'fast-check';

/**
 * A field that is not generated, with the reason: its value must name something that exists (a job,
 * a thread), which a random request cannot; the round-trip suites send it.
 */
export class NotGenerated {
  constructor(readonly reason: string) {}
}

/** Every field of T, each with an arbitrary of its values (or why not): missing or extra fields do not compile. */
export type Fields<T> = { [K in keyof Required<T>]: fc.Arbitrary<Exclude<T[K], undefined>> | NotGenerated };

/** The keys T requires. */
type RequiredKeys<T> = { [K in keyof T]-?: undefined extends T[K] ? never : K }[keyof T];

/** Compiles only when `R` lists every key T requires. */
type AllRequired<T, R extends readonly PropertyKey[]> = [Exclude<RequiredKeys<T>, R[number]>] extends [never]
  ? R
  : { missing: Exclude<RequiredKeys<T>, R[number]> };

/**
 * An object of T: its required fields (all listed in `required`, or it does not compile) and any subset
 * of the others. Curried (`fields<T>()(...)`) so that T is given and the required keys are inferred.
 */
export function fields<T>() {
  return <const R extends readonly RequiredKeys<T>[]>(arbitraries: Fields<T>, required: AllRequired<T, R>): fc.Arbitrary<T> => {
    const generated = Object.fromEntries(Object.entries(arbitraries).filter(([, a]) => !(a instanceof NotGenerated)));
    return fc.record(generated as Record<string, fc.Arbitrary<unknown>>, { requiredKeys: required as unknown as string[] }) as unknown as fc.Arbitrary<T>;
  };
}

type RedactPII = NonNullable<ScrapeOptions['redactPII']>;
type RedactPIIOptions = Exclude<RedactPII, boolean>;
type PDFParser = Extract<NonNullable<ScrapeOptions['parsers']>[number], { type: 'pdf' }>;
type QueryFormat = Extract<FormatOption, { type: 'query' }>;
type AuditMetadata = NonNullable<ScrapeOptions['auditMetadata']>;
type ExtractArgs = Parameters<FirecrawlClient['startExtract']>[0];
type AgentArgs = Parameters<FirecrawlClient['startAgent']>[0];

// ---- values right in substance ----

const word = fc.stringMatching(/^[a-z][a-z0-9]{0,11}$/);
const text = fc.stringMatching(/^[A-Za-z][A-Za-z0-9 ,.?-]{0,60}$/);
const host = fc.tuple(word, fc.constantFrom('example.com', 'example.org', 'test.example.net')).map(([sub, domain]) => `${sub}.${domain}`);
export const publicUrl = fc
  .tuple(fc.constantFrom('https', 'http'), host, fc.array(word, { maxLength: 3 }))
  .map(([scheme, h, path]) => `${scheme}://${h}/${path.join('/')}`);
const selector = fc.constantFrom('main', 'article', '#content', '.item', 'a[href]', 'div > p', 'h1, h2', 'ul li:first-child');
const headerName = fc.stringMatching(/^x-[a-z]{1,12}$/);
const headerValue = fc.stringMatching(/^[A-Za-z0-9 ;=_./-]{0,40}$/);
const headers = fc.dictionary(headerName, headerValue, { maxKeys: 4 });
const pathPattern = fc.constantFrom('^/blog/.*', '/docs/', '.*\\.html$', '^/[a-z]+/?$', 'page-[0-9]+');
const jsonSchema = fc.constantFrom(
  { type: 'object', properties: { title: { type: 'string' } } },
  { type: 'object', properties: { items: { type: 'array', items: { type: 'string' } }, count: { type: 'number' } }, required: ['items'] },
);
const country = fc.constantFrom('US', 'DE', 'fr', 'JP', 'BR', 'us-generic');
const languages = fc.array(fc.constantFrom('en-US', 'de-DE', 'fr', 'ja-JP', 'pt-BR'), { maxLength: 3 });

// ---- formats ----

const jsonFormat = fields<JsonFormat>()(
  {
    type: fc.constant('json'),
    prompt: text,
    schema: jsonSchema,
    checkPromptInjection: fc.boolean(),
  },
  ['type'],
).filter((f) => f.prompt !== undefined || f.schema !== undefined);

const viewport = fc.record({ width: fc.integer({ min: 1, max: 7680 }), height: fc.integer({ min: 1, max: 4320 }) });
const screenshotFormat = fields<ScreenshotFormat>()(
  {
    type: fc.constant('screenshot'),
    fullPage: fc.boolean(),
    quality: fc.integer({ min: 1, max: 100 }),
    viewport,
  },
  ['type'],
);
const changeTrackingFormat = fields<ChangeTrackingFormat>()(
  {
    type: fc.constant('changeTracking'),
    modes: fc.uniqueArray(fc.constantFrom('git-diff', 'json'), { maxLength: 2 }),
    schema: jsonSchema,
    prompt: text,
    tag: word,
  },
  ['type', 'modes'],
);
const attributesFormat = fields<AttributesFormat>()(
  {
    type: fc.constant('attributes'),
    selectors: fc.array(fc.record({ selector, attribute: fc.constantFrom('href', 'src', 'data-id', 'class') }), { minLength: 1, maxLength: 3 }),
  },
  ['type', 'selectors'],
);
const questionFormat = fields<QuestionFormat>()({ type: fc.constant('question'), question: text }, ['type', 'question']);
const highlightsFormat = fields<HighlightsFormat>()({ type: fc.constant('highlights'), query: text }, ['type', 'query']);
const queryFormat = fields<QueryFormat>()({ type: fc.constant('query'), prompt: text, mode: fc.constantFrom('freeform', 'directQuote') }, ['type', 'prompt']);
const formatName = fc.constantFrom(
  'markdown',
  'html',
  'rawHtml',
  'links',
  'images',
  'screenshot',
  'summary',
  'branding',
  'product',
  'menu',
  'audio',
  'video',
) satisfies fc.Arbitrary<FormatOption>;

/** A format by its kind: one item per kind, as the service allows (one screenshot, one of each model format, ...). */
const formatOfKind: Record<string, fc.Arbitrary<FormatOption>> = {
  name: formatName,
  nameObject: formatName.map((type) => ({ type })),
  json: jsonFormat,
  screenshot: screenshotFormat,
  attributes: attributesFormat,
  question: questionFormat,
  highlights: highlightsFormat,
  query: queryFormat,
  changeTracking: changeTrackingFormat,
};

function formatType(f: FormatOption): string {
  return typeof f === 'string' ? f : f.type;
}

/**
 * A formats list as the service takes it (docs/api/crawl.md#scrapeoptions): distinct types,
 * changeTracking with the markdown it compares, not both question and query (both fill `answer`).
 */
export const formats: fc.Arbitrary<FormatOption[]> = fc.array(fc.oneof(...Object.values(formatOfKind)), { maxLength: 4 }).map((list) => {
  const seen = new Set<string>();
  const unique = list.filter((f) => !seen.has(formatType(f)) && seen.add(formatType(f)));
  const answered = seen.has('question') ? unique.filter((f) => formatType(f) !== 'query') : unique;
  return answered.some((f) => formatType(f) === 'changeTracking') && !seen.has('markdown') ? [...answered, 'markdown' as const] : answered;
});

// ---- actions ----

export const actions: fc.Arbitrary<ActionOption[]> = fc.array(
  fc.oneof(
    fc.record({ type: fc.constant('wait' as const), milliseconds: fc.integer({ min: 1, max: 2000 }) }),
    fc.record({ type: fc.constant('wait' as const), selector }),
    fc.record({ type: fc.constant('click' as const), selector }),
    fc.record({ type: fc.constant('write' as const), text }),
    fc.record({ type: fc.constant('press' as const), key: fc.constantFrom('Enter', 'Tab', 'ArrowDown', 'Escape') }),
    fields<Extract<ActionOption, { type: 'scroll' }>>()({ type: fc.constant('scroll'), direction: fc.constantFrom('up', 'down'), selector }, [
      'type',
      'direction',
    ]),
    fields<Extract<ActionOption, { type: 'screenshot' }>>()(
      {
        type: fc.constant('screenshot'),
        fullPage: fc.boolean(),
        quality: fc.integer({ min: 1, max: 100 }),
        viewport,
      },
      ['type'],
    ),
    fc.constant({ type: 'scrape' as const }),
    fc.record({ type: fc.constant('executeJavascript' as const), script: fc.constantFrom('1 + 1', 'document.title', 'window.scrollTo(0, 100)') }),
    fields<Extract<ActionOption, { type: 'pdf' }>>()(
      {
        type: fc.constant('pdf'),
        format: fc.constantFrom('A0', 'A1', 'A2', 'A3', 'A4', 'A5', 'A6', 'Letter', 'Legal', 'Tabloid', 'Ledger'),
        landscape: fc.boolean(),
        scale: fc.double({ min: 0.1, max: 2, noNaN: true }),
      },
      ['type'],
    ),
  ),
  { maxLength: 4 },
) as fc.Arbitrary<ActionOption[]>;

// ---- scrape options ----

const pdfParser = fields<PDFParser>()(
  {
    type: fc.constant('pdf'),
    mode: fc.constantFrom('fast', 'auto', 'ocr'),
    maxPages: fc.integer({ min: 1, max: 10000 }),
    pages: fc.boolean(),
    pageMarkdown: fc.boolean(),
    blocks: fc.boolean(),
    pageMarkers: fc.boolean(),
  },
  ['type'],
);
const parsers = fc.array(fc.oneof(fc.constantFrom('pdf', 'image'), pdfParser, fc.constant({ type: 'image' as const })), { maxLength: 2 });

/** Mode "fast" finds entities by pattern only: it names none that only a model finds (docs/api/redaction.md). */
const redactPII: fc.Arbitrary<RedactPII> = fc.oneof(
  fc.boolean(),
  fields<RedactPIIOptions>()(
    {
      mode: fc.constantFrom('accurate', 'aggressive', 'fast'),
      entities: fc.uniqueArray(fc.constantFrom('PERSON', 'EMAIL', 'PHONE', 'LOCATION', 'FINANCIAL', 'SECRET'), { maxLength: 3 }),
      replaceStyle: fc.constantFrom('tag', 'mask', 'remove'),
    },
    [],
  ).map((r) => (r.mode === 'fast' && r.entities ? { ...r, entities: r.entities.filter((e) => e !== 'PERSON' && e !== 'LOCATION') } : r)),
);

export const threatProtection = fields<ThreatProtectionOptions>()(
  {
    mode: fc.constantFrom('off', 'manual-only', 'normal', 'zscaler'),
    riskScoreThreshold: fc.integer({ min: 0, max: 100 }),
    blacklist: fc.array(
      fc.oneof(
        host,
        host.map((h) => `*.${h}`),
      ),
      { maxLength: 3 },
    ),
    whitelist: fc.array(host, { maxLength: 3 }),
    blockedTlds: fc.array(fc.constantFrom('zip', 'xyz', 'top'), { maxLength: 2 }),
    failurePolicy: fc.constantFrom('open', 'closed'),
  },
  [],
);

export const auditMetadata = fields<AuditMetadata>()({ username: word }, ['username']);
const location = fields<LocationConfig>()({ country, languages }, []);

const scrapeOptionFields: Fields<ScrapeOptions> = {
  formats,
  headers,
  includeTags: fc.array(selector, { maxLength: 2 }),
  excludeTags: fc.array(selector, { maxLength: 2 }),
  onlyMainContent: fc.boolean(),
  timeout: fc.integer({ min: 1000, max: 300_000 }),
  waitFor: fc.integer({ min: 0, max: 60_000 }),
  mobile: fc.boolean(),
  parsers,
  actions,
  location,
  skipTlsVerification: fc.boolean(),
  removeBase64Images: fc.boolean(),
  fastMode: fc.boolean(),
  useMock: word,
  blockAds: fc.boolean(),
  proxy: fc.constantFrom('basic', 'stealth', 'enhanced', 'auto'),
  maxAge: fc.integer({ min: 0, max: 30 * 86_400_000 }),
  minAge: fc.integer({ min: 0, max: 30 * 86_400_000 }),
  storeInCache: fc.boolean(),
  lockdown: fc.boolean(),
  redactPII,
  threatProtection,
  auditMetadata,
  profile: fc.record({ name: fc.stringMatching(/^[a-z][a-z0-9-]{0,20}$/), saveChanges: fc.boolean() }, { requiredKeys: ['name'] }),
  integration: word,
  origin: word,
  domainTools: fc.boolean(),
  toolDetail: fc.constantFrom('compact', 'summary', 'full'),
};

/** waitFor at most half the timeout (the service's rule, as upstream's). */
function withinTimeout<T extends { timeout?: number; waitFor?: number }>(o: T): T {
  if (o.waitFor === undefined) return o;
  return { ...o, waitFor: Math.min(o.waitFor, Math.floor((o.timeout ?? 60_000) / 2)) };
}

/** Redaction leaves nothing unredacted (docs/api/redaction.md): no screenshot or changeTracking format, no screenshot or pdf action beside it. */
function redactable<T extends Pick<ScrapeOptions, 'redactPII' | 'formats' | 'actions'>>(o: T): T {
  if (!o.redactPII) return o;
  return {
    ...o,
    ...(o.formats && { formats: o.formats.filter((f) => !['screenshot', 'changeTracking'].includes(formatType(f))) }),
    ...(o.actions && { actions: o.actions.filter((a) => a.type !== 'screenshot' && a.type !== 'pdf') }),
  };
}

export const scrapeOptions: fc.Arbitrary<ScrapeOptions> = fields<ScrapeOptions>()(scrapeOptionFields, []).map((o) => redactable(withinTimeout(o)));
type CrawlScrapeOptions = NonNullable<CrawlOptions['scrapeOptions']>;
export const crawlScrapeOptions: fc.Arbitrary<CrawlScrapeOptions> = scrapeOptions.map(({ toolDetail: _, ...o }) => o);

// ---- crawl, batch scrape, map, search ----

const webhookConfig = fields<WebhookConfig>()(
  {
    url: publicUrl,
    headers,
    metadata: fc.dictionary(word, word, { maxKeys: 3 }),
    events: fc.uniqueArray(fc.constantFrom('completed', 'failed', 'page', 'started'), { maxLength: 4 }),
  },
  ['url'],
);
const webhook = fc.oneof(publicUrl, webhookConfig);

export const crawlOptions = fields<CrawlOptions>()(
  {
    prompt: text,
    excludePaths: fc.array(pathPattern, { maxLength: 2 }),
    includePaths: fc.array(pathPattern, { maxLength: 2 }),
    maxDiscoveryDepth: fc.integer({ min: 0, max: 10 }),
    sitemap: fc.constantFrom('skip', 'include', 'only'),
    ignoreQueryParameters: fc.boolean(),
    deduplicateSimilarURLs: fc.boolean(),
    limit: fc.integer({ min: 1, max: 10_000 }),
    crawlEntireDomain: fc.boolean(),
    allowExternalLinks: fc.boolean(),
    allowSubdomains: fc.boolean(),
    ignoreRobotsTxt: fc.boolean(),
    robotsUserAgent: fc.constantFrom('MyBot/1.0', 'ExampleCrawler'),
    delay: fc.integer({ min: 1, max: 60 }),
    maxConcurrency: fc.integer({ min: 1, max: 50 }),
    webhook,
    scrapeOptions: crawlScrapeOptions,
    regexOnFullURL: fc.boolean(),
    zeroDataRetention: fc.boolean(),
    integration: word,
    origin: word,
  },
  [],
);

export const batchScrapeOptions = fields<BatchScrapeOptions>()(
  {
    options: crawlScrapeOptions,
    webhook,
    appendToId: new NotGenerated('the id of an existing batch scrape'),
    ignoreInvalidURLs: fc.boolean(),
    maxConcurrency: fc.integer({ min: 1, max: 50 }),
    zeroDataRetention: fc.boolean(),
    idempotencyKey: fc.uuid(),
    integration: word,
    origin: word,
  },
  [],
);

export const mapOptions = fields<MapOptions>()(
  {
    search: text,
    sitemap: fc.constantFrom('only', 'include', 'skip'),
    includeSubdomains: fc.boolean(),
    ignoreQueryParameters: fc.boolean(),
    limit: fc.integer({ min: 1, max: 100_000 }),
    timeout: fc.integer({ min: 1000, max: 300_000 }),
    integration: word,
    origin: word,
    location,
    threatProtection,
    auditMetadata,
  },
  [],
);

const sourceName = fc.constantFrom('web', 'news', 'images', 'alexandria');
const categoryName = fc.constantFrom('github', 'research', 'pdf', 'developer');
type SearchOptions = Omit<SearchRequest, 'query'>;
export const searchOptions = fields<SearchOptions>()(
  {
    domainTools: fc.boolean(),
    toolDetail: fc.constantFrom('compact', 'summary', 'full'),
    // With a source served here: alexandria alone is refused (501, test/integration/cloud-services.test.ts), beside one it is a warning.
    sources: fc
      .uniqueArray(
        fc.oneof(
          sourceName,
          sourceName.map((type) => ({ type })),
        ),
        {
          minLength: 1,
          maxLength: 3,
          selector: (s) => (typeof s === 'string' ? s : s.type),
        },
      )
      .map((list) => (list.every((s) => (typeof s === 'string' ? s : s.type) === 'alexandria') ? [...list, 'web' as const] : list)),
    categories: fc.uniqueArray(
      fc.oneof(
        categoryName,
        categoryName.map((type): CategoryOption => ({ type })),
      ),
      {
        maxLength: 1,
        selector: (c) => (typeof c === 'string' ? c : c.type),
      },
    ),
    includeDomains: fc.array(host, { maxLength: 2 }),
    excludeDomains: fc.array(host, { maxLength: 2 }),
    limit: fc.integer({ min: 1, max: 100 }),
    tbs: fc.constantFrom('qdr:h', 'qdr:d', 'qdr:w', 'qdr:m', 'qdr:y', 'sbd:1,qdr:w', 'cdr:1,cd_min:01/01/2025,cd_max:12/31/2025'),
    location: fc.constantFrom('Germany', 'San Francisco,California,United States'),
    country: fc.constantFrom('us', 'de', 'fr', 'jp'),
    ignoreInvalidURLs: fc.boolean(),
    timeout: fc.integer({ min: 1000, max: 120_000 }),
    highlights: fc.boolean(),
    scrapeOptions: crawlScrapeOptions,
    enterprise: fc.uniqueArray(fc.constantFrom('default', 'anon', 'zdr'), { maxLength: 1 }),
    threatProtection,
    integration: word,
    origin: word,
  },
  [],
).filter((o) => !(o.includeDomains?.length && o.excludeDomains?.length));

// ---- extract, agent, parse ----

export const extractArgs: fc.Arbitrary<ExtractArgs> = fields<ExtractArgs>()(
  {
    urls: fc.array(publicUrl, { minLength: 1, maxLength: 3 }),
    prompt: text,
    schema: jsonSchema,
    systemPrompt: text,
    allowExternalLinks: fc.boolean(),
    enableWebSearch: fc.boolean(),
    showSources: fc.boolean(),
    scrapeOptions: scrapeOptions,
    ignoreInvalidURLs: fc.boolean(),
    integration: word,
    origin: word,
    agent: fc.record({ model: fc.constantFrom('FIRE-1', 'v3-beta') }),
    webhook: fc.oneof(publicUrl, webhookConfig),
    threatProtection,
  },
  [],
).filter((a) => a.urls !== undefined && (a.prompt !== undefined || a.schema !== undefined));

const agentWebhook = fields<AgentWebhookConfig>()(
  {
    url: publicUrl,
    headers,
    metadata: fc.dictionary(word, word, { maxKeys: 3 }),
    events: fc.uniqueArray(fc.constantFrom('started', 'action', 'completed', 'failed', 'cancelled'), { maxLength: 5 }),
  },
  ['url'],
);
const exchange = fields<AgentExchangeOptions>()(
  {
    enabled: fc.boolean(),
    // A non-empty list asks for the exchange's providers (an empty one asks nothing: accepted, docs/api/agent.md).
    toolkits: fc.array(word, { minLength: 1, maxLength: 5 }),
    maxCalls: fc.integer({ min: 0, max: 20 }),
    requireApproval: fc.boolean(),
    approve: fc.record({ approvalId: word, callIds: fc.array(word, { maxLength: 2 }), always: fc.boolean() }, { requiredKeys: ['approvalId'] }),
    decline: fc.record({ approvalId: word }),
    onTermsRequired: fc.constantFrom('skip', 'ask'),
  },
  [],
);
export const agentArgs: fc.Arbitrary<AgentArgs> = fields<AgentArgs>()(
  {
    urls: fc.array(publicUrl, { maxLength: 3 }),
    prompt: text,
    schema: jsonSchema,
    integration: word,
    origin: word,
    maxCredits: fc.integer({ min: 1, max: 1000 }),
    strictConstrainToURLs: fc.boolean(),
    model: fc.constantFrom('spark-1-pro', 'spark-1-mini', 'spark-2'),
    effort: fc.constantFrom('low', 'medium', 'high'),
    webhook: fc.oneof(publicUrl, agentWebhook),
    threatProtection,
    auditMetadata,
    threadId: new NotGenerated('the id of an existing agent thread'),
    mode: fc.constantFrom('extract', 'chat'),
    exchange,
  },
  ['prompt'],
)
  // A chat-mode run answers text: no schema (docs/api/agent.md).
  .map((a) => (a.mode === 'chat' ? { ...a, schema: undefined } : a));

const parseFormatName = fc.constantFrom('markdown', 'html', 'rawHtml', 'links', 'images', 'summary', 'attributes', 'product', 'menu');
type ParseFormatOption = NonNullable<ParseOptions['formats']>[number];
const parseFormats = fc
  .array(
    fc.oneof(
      parseFormatName.filter((n) => n !== 'attributes') as fc.Arbitrary<ParseFormatOption>,
      jsonFormat,
      attributesFormat,
      questionFormat,
      highlightsFormat,
      queryFormat,
    ),
    {
      maxLength: 3,
    },
  )
  .map((list) => {
    const seen = new Set<string>();
    const typeOf = (f: ParseFormatOption) => (typeof f === 'string' ? f : f.type);
    const unique = list.filter((f) => !seen.has(typeOf(f)) && seen.add(typeOf(f)));
    return seen.has('question') ? unique.filter((f) => typeOf(f) !== 'query') : unique;
  });
export const parseOptions = fields<ParseOptions>()(
  {
    formats: parseFormats,
    headers,
    includeTags: fc.array(selector, { maxLength: 2 }),
    excludeTags: fc.array(selector, { maxLength: 2 }),
    onlyMainContent: fc.boolean(),
    timeout: fc.integer({ min: 1000, max: 300_000 }),
    parsers,
    skipTlsVerification: fc.boolean(),
    removeBase64Images: fc.boolean(),
    fastMode: fc.boolean(),
    useMock: word,
    blockAds: fc.boolean(),
    redactPII,
    auditMetadata,
    profile: fc.record({ name: fc.stringMatching(/^[a-z][a-z0-9-]{0,20}$/), saveChanges: fc.boolean() }, { requiredKeys: ['name'] }),
    integration: word,
    origin: word,
    domainTools: fc.boolean(),
    proxy: fc.constantFrom('basic', 'auto'),
  },
  [],
);
