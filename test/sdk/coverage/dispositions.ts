// What this service does with every request field the official SDKs can send,
// one row per field of the JS SDK's own request types (the Python SDK's fields
// map onto these rows: python-names.ts). The coverage table in
// docs/api/sdk-coverage.md is rendered from here, a unit test checks that every
// field the SDKs' types declare has a row, and the generated conformance suites
// check each row against the gateway: `implemented` and `sdk` rows must be
// accepted, `warning` rows answered with a warning naming the field, `cloud`
// rows refused with a message saying the service does not offer it.

export type Status =
  /** Accepted and acted on (the note says how, where it differs from upstream). */
  | 'implemented'
  /** Accepted with a `warning` in the answer that names the field: ignoring it changes nothing a caller relies on. */
  | 'warning'
  /** Refused (the answer says so) because it needs a Firecrawl cloud service. */
  | 'cloud'
  /** Refused for now: not implemented yet (the answer says so). */
  | 'todo'
  /** Refused because upstream retired it and names its replacement (the answer does too). */
  | 'retired'
  /** Never sent: the SDK itself uses it (polling, its own timeouts, callbacks). */
  | 'sdk';

export interface Disposition {
  status: Status;
  note?: string;
  /** The string values of the field, when its type lists them. */
  values?: Record<string, Disposition>;
}

export type FieldTable = Record<string, Record<string, Disposition>>;

const row =
  (status: Status) =>
  (note?: string, values?: Record<string, Disposition>): Disposition => ({ status, ...(note && { note }), ...(values && { values }) });

export const ok = row('implemented');
export const warn = (note: string, values?: Record<string, Disposition>) => row('warning')(note, values);
export const cloud = (note: string, values?: Record<string, Disposition>) => row('cloud')(note, values);
export const todo = (note: string, values?: Record<string, Disposition>) => row('todo')(note, values);
export const retired = (note: string, values?: Record<string, Disposition>) => row('retired')(note, values);
export const sdk = (note = 'used by the SDK, not sent') => row('sdk')(note);

/** The values of a literal type that all do what their name says. */
function each(...names: string[]): Record<string, Disposition> {
  return Object.fromEntries(names.map((n) => [n, ok()]));
}

const FORMAT_VALUES = {
  ...each('markdown', 'html', 'rawHtml', 'links', 'images', 'screenshot', 'summary', 'changeTracking', 'json', 'attributes', 'branding'),
  query: ok('fills answer: freeform as the question format, directQuote with passages copied from the page (checked)'),
  product: ok("the page's schema.org Product data (JSON-LD, microdata, RDFa), the configured model for what it leaves out"),
  menu: ok("the page's schema.org Menu data, the configured model for what it leaves out"),
  audio: cloud("downloads and transcodes a page's media through a Firecrawl cloud service"),
  video: cloud("downloads and transcodes a page's media through a Firecrawl cloud service"),
};

/** ScrapeOptions.formats, also for the Python SDK's own spellings of it. */
export const FORMATS_ROW = ok('see the format rows', FORMAT_VALUES);

const DEEP = 'deep research is retired upstream: 410 naming POST /v2/search';
const LLMSTXT = 'llms.txt generation is retired upstream, without a replacement: 410';

const POLLING = { pollInterval: sdk('seconds between the SDK’s status polls'), timeout: sdk('how long the SDK waits for the job') };

export const FIELDS: FieldTable = {
  // ---- scrape options (scrape, batch scrape, crawl, search, extract, monitors, parse) ----
  ScrapeOptions: {
    formats: FORMATS_ROW,
    headers: ok(),
    includeTags: ok(),
    excludeTags: ok(),
    onlyMainContent: ok(),
    timeout: ok(),
    waitFor: ok(),
    mobile: ok(),
    parsers: ok('"pdf" and {type: "pdf"}; see PDFParser and ImageParser'),
    actions: ok(),
    location: ok('locale, time zone and Accept-Language; no geo proxy'),
    skipTlsVerification: ok(),
    removeBase64Images: ok(),
    fastMode: ok('no effect: pages load one way here'),
    useMock: cloud("replays Firecrawl's own recorded test answers"),
    blockAds: ok(),
    proxy: ok(
      'the tier of the operator’s proxy pools (docs/operations.md, outbound proxy); direct without pools',
      each('basic', 'stealth', 'enhanced', 'auto'),
    ),
    maxAge: ok(),
    minAge: ok('cache only: a cached copy at least this old, else the page fails'),
    storeInCache: ok(),
    lockdown: ok('no effect'),
    redactPII: ok('local detectors for e-mail, phone, financial and secret values; the configured model for persons and locations; never unredacted'),
    threatProtection: ok('the lists apply to every URL the job fetches; the cloud scanners (normal, zscaler) are absent, so failurePolicy decides'),
    auditMetadata: ok('in the activity log'),
    profile: ok('stored; every batch starts a fresh browser'),
    integration: ok(),
    origin: ok(),
    domainTools: warn('Alexandria tools are a Firecrawl cloud service: the answer carries a warning and no tools'),
    toolDetail: ok('shapes only the tools list, which is never filled', each('compact', 'summary', 'full')),
  },
  'ScrapeOptions.profile': { name: ok(), saveChanges: ok() },
  ScrapeCallOptions: { autoResume: sdk('the SDK re-sends a scrape answered 408 processing_continues; the re-sent scrape attaches to the one still running') },
  Format: { type: ok('string formats given as {type}', FORMAT_VALUES) },
  JsonFormat: { type: ok(undefined, each('json')), prompt: ok(), schema: ok(), checkPromptInjection: ok('every model call treats the page as untrusted data') },
  ScreenshotFormat: { type: ok(undefined, each('screenshot')), fullPage: ok(), quality: ok(), viewport: ok() },
  'ScreenshotFormat.viewport': { width: ok(), height: ok() },
  Viewport: { width: ok(), height: ok() },
  ChangeTrackingFormat: {
    type: ok(undefined, each('changeTracking')),
    modes: ok(undefined, each('git-diff', 'json')),
    schema: ok(),
    prompt: ok(),
    tag: ok(),
  },
  AttributesFormat: {
    type: ok(undefined, each('attributes')),
    selectors: ok('without them (a bare "attributes"), attributes: [] and a warning naming the format'),
  },
  'AttributesFormat.selectors': { selector: ok(), attribute: ok() },
  QuestionFormat: { type: ok(undefined, each('question')), question: ok() },
  HighlightsFormat: { type: ok(undefined, each('highlights')), query: ok() },
  QueryFormat: {
    type: ok(undefined, each('query')),
    prompt: ok(),
    mode: ok('fills answer', { freeform: ok(), directQuote: ok('passages copied from the page; one the page does not hold is dropped') }),
  },
  PDFParser: {
    type: ok(undefined, each('pdf')),
    mode: ok('OCR with tesseract', { fast: ok('the text layer'), auto: ok('the text layer; OCR for pages without one'), ocr: ok('OCR of every page') }),
    maxPages: ok(),
    pages: ok('document.pages'),
    pageMarkdown: ok('the same as pages'),
    blocks: ok('document.blocks from the text layer or OCR'),
    pageMarkers: ok(),
  },
  ImageParser: { type: ok('images read by OCR as one-page documents', each('image')) },
  RedactPIIOptions: {
    mode: ok('every mode runs the patterns; accurate and aggressive add the model', each('fast', 'accurate', 'aggressive')),
    entities: ok(undefined, each('PERSON', 'EMAIL', 'PHONE', 'LOCATION', 'FINANCIAL', 'SECRET')),
    replaceStyle: ok(undefined, each('tag', 'mask', 'remove')),
  },
  ThreatProtectionOptions: {
    mode: ok(undefined, {
      off: ok(),
      'manual-only': ok('the lists'),
      normal: ok('no Google Web Risk scan here: failurePolicy decides a URL the lists do not'),
      zscaler: ok('no Zscaler connection here: failurePolicy decides a URL the lists do not'),
    }),
    riskScoreThreshold: ok('accepted; only a scan would use it'),
    blacklist: ok(),
    whitelist: ok(),
    blockedTlds: ok(),
    failurePolicy: ok(undefined, each('open', 'closed')),
  },
  AuditMetadata: { username: ok('in the activity log (audit_metadata of GET /v2/team/activity)') },
  LocationConfig: { country: ok('ISO 3166-1 alpha-2, or us-generic'), languages: ok() },
  // ---- actions ----
  WaitAction: { type: ok(undefined, each('wait')), milliseconds: ok(), selector: ok() },
  ScreenshotAction: { type: ok(undefined, each('screenshot')), fullPage: ok(), quality: ok(), viewport: ok() },
  'ScreenshotAction.viewport': { width: ok(), height: ok() },
  ClickAction: { type: ok(undefined, each('click')), selector: ok() },
  WriteAction: { type: ok(undefined, each('write')), text: ok() },
  PressAction: { type: ok(undefined, each('press')), key: ok() },
  ScrollAction: { type: ok(undefined, each('scroll')), direction: ok(undefined, each('up', 'down')), selector: ok() },
  ScrapeAction: { type: ok(undefined, each('scrape')) },
  ExecuteJavascriptAction: { type: ok(undefined, each('executeJavascript')), script: ok() },
  PDFAction: {
    type: ok(undefined, each('pdf')),
    format: ok(undefined, each('A0', 'A1', 'A2', 'A3', 'A4', 'A5', 'A6', 'Letter', 'Legal', 'Tabloid', 'Ledger')),
    landscape: ok(),
    scale: ok(),
  },
  // ---- crawl ----
  CrawlOptions: {
    prompt: ok('needs the configured model'),
    excludePaths: ok('RE2 syntax'),
    includePaths: ok('RE2 syntax'),
    maxDiscoveryDepth: ok(),
    sitemap: ok(undefined, each('skip', 'include', 'only')),
    ignoreQueryParameters: ok(),
    deduplicateSimilarURLs: ok(),
    limit: ok(),
    crawlEntireDomain: ok(),
    allowExternalLinks: ok(),
    allowSubdomains: ok(),
    ignoreRobotsTxt: ok('when enabled for the team'),
    robotsUserAgent: ok('when enabled for the team'),
    delay: ok(),
    maxConcurrency: ok(),
    webhook: ok(),
    scrapeOptions: ok(),
    regexOnFullURL: ok(),
    zeroDataRetention: ok('when enabled for the team'),
    integration: ok(),
    origin: ok(),
  },
  WebhookConfig: { url: ok(), headers: ok(), metadata: ok(), events: ok(undefined, each('completed', 'failed', 'page', 'started')) },
  PaginationConfig: { autoPaginate: sdk(), maxPages: sdk(), maxResults: sdk(), maxWaitTime: sdk() },
  WatcherOptions: {
    kind: { status: 'sdk', note: 'which status route the SDK watches', values: { crawl: sdk('watches a crawl'), batch: sdk('watches a batch scrape') } },
    pollInterval: sdk(),
    timeout: sdk(),
  },
  'crawl(req)': POLLING,
  'crawlUrl(req)': POLLING,
  // ---- batch scrape ----
  BatchScrapeOptions: {
    options: ok('the scrape options, sent at the top level'),
    webhook: ok(),
    appendToId: ok(),
    ignoreInvalidURLs: ok(),
    maxConcurrency: ok(),
    zeroDataRetention: ok('when enabled for the team'),
    idempotencyKey: ok('sent as the x-idempotency-key header'),
    integration: ok(),
    origin: ok(),
  },
  'batchScrape(opts)': POLLING,
  'batchScrapeUrls(opts)': POLLING,
  // ---- map ----
  MapOptions: {
    search: ok(),
    sitemap: ok(undefined, each('only', 'include', 'skip')),
    includeSubdomains: ok(),
    ignoreQueryParameters: ok(),
    limit: ok(),
    timeout: ok(),
    integration: ok(),
    origin: ok(),
    location: ok('accepted; the map reads sitemaps and links, which do not depend on it'),
    threatProtection: ok('a blocked start URL is a 403; the lists filter the links'),
    auditMetadata: ok('in the activity log'),
  },
  // ---- search ----
  SearchRequest: {
    sources: ok('web, news and images from the local index (and SearXNG when configured)', {
      ...each('web', 'news', 'images'),
      alexandria: warn('the Alexandria exchange is a Firecrawl cloud service: beside other sources a warning and data.tools: []; alone refused (501)'),
    }),
    categories: ok(undefined, { ...each('github', 'research', 'pdf'), developer: cloud('the developer index (501)') }),
    includeDomains: ok(),
    excludeDomains: ok(),
    limit: ok(),
    tbs: ok(),
    location: ok(),
    country: ok(),
    ignoreInvalidURLs: ok(),
    timeout: ok(),
    highlights: ok("descriptions become the passages of each stored page that say the query's words"),
    scrapeOptions: ok(),
    enterprise: ok('when enabled for the team', each('default', 'anon', 'zdr')),
    threatProtection: ok('the lists filter the results; the scanners (normal, zscaler) are refused as cloud services'),
    domainTools: warn('Alexandria tools are a Firecrawl cloud service: a warning, data.tools: []'),
    toolDetail: ok('shapes only data.tools, always empty here', each('compact', 'summary', 'full')),
    integration: ok(),
    origin: ok(),
  },
  'SearchRequest.sources': { type: ok(undefined, { ...each('web', 'news', 'images'), alexandria: warn('as the string form') }) },
  CategoryOption: { type: ok(undefined, { ...each('github', 'research', 'pdf'), developer: cloud('the developer index (501)') }) },
  // ---- extract and agent ----
  'prepareExtractPayload(args)': {
    urls: ok(),
    prompt: ok(),
    schema: ok(),
    systemPrompt: ok(),
    allowExternalLinks: ok(),
    enableWebSearch: warn('web search is not used: only the given URLs are read'),
    showSources: ok(),
    scrapeOptions: ok(),
    ignoreInvalidURLs: ok(),
    integration: ok(),
    origin: ok(),
    agent: ok('accepted; pages are read without FIRE-1 navigation'),
    webhook: ok(),
    threatProtection: ok('the lists apply to the pages the extract reads'),
  },
  AgentOptions: { model: ok('accepted', each('FIRE-1', 'v3-beta')) },
  'extract(args)': POLLING,
  'prepareAgentPayload(args)': {
    urls: ok(),
    prompt: ok(),
    schema: ok(),
    integration: ok(),
    origin: ok(),
    maxCredits: ok(),
    strictConstrainToURLs: ok(),
    model: ok('echoed in the status', { 'spark-1-pro': ok('runs LLM_MODEL'), 'spark-1-mini': ok('runs LLM_SMALL_MODEL'), 'spark-2': ok('runs LLM_MODEL') }),
    effort: ok('the share of AGENT_MAX_STEPS the run may take', { low: ok('a quarter'), medium: ok('half'), high: ok('all') }),
    webhook: ok('agent.started, action, completed, failed, cancelled through the webhook outbox, signed'),
    threatProtection: ok('the lists are checked before a tool reads a URL; the scanners (normal, zscaler) are a 400'),
    auditMetadata: ok('stored with the run'),
    threadId: ok('a follow-up run sees the thread’s earlier turns'),
    mode: ok(undefined, { extract: ok('answers in data'), chat: ok('answers in message') }),
    exchange: ok('accepted when it asks for nothing of the exchange; enabled, toolkits, approve and decline are refused (a cloud service)'),
  },
  AgentWebhookConfig: {
    url: ok(),
    headers: ok(),
    metadata: ok(),
    events: ok(undefined, each('started', 'action', 'completed', 'failed', 'cancelled')),
  },
  AgentExchangeOptions: {
    enabled: ok('false is accepted', { true: cloud('the Alexandria exchange is a Firecrawl cloud service (400)'), false: ok() }),
    toolkits: cloud('the Alexandria exchange (an empty list is accepted)'),
    maxCalls: ok('accepted; no exchange calls are made'),
    requireApproval: ok('accepted; no exchange calls are made'),
    approve: cloud('no run here waits on an approval of the exchange'),
    decline: cloud('no run here waits on an approval of the exchange'),
    onTermsRequired: ok('accepted; no provider terms here', each('skip', 'ask')),
  },
  'AgentExchangeOptions.approve': { approvalId: cloud('see approve'), callIds: cloud('see approve'), always: cloud('see approve') },
  'AgentExchangeOptions.decline': { approvalId: cloud('see decline') },
  AgentListOptions: { before: ok() },
  'agent(args)': POLLING,
  'getAgentTrace(options)': { liveView: ok('lists the run’s live browser sessions') },
  'getAgentThread(options)': { includeData: ok() },
  // ---- interact, parse, browser sessions ----
  ScrapeExecuteRequest: {
    code: ok(),
    prompt: ok('needs the configured model'),
    language: ok(undefined, each('python', 'node', 'bash')),
    timeout: ok(),
    origin: ok(),
  },
  ParseFile: { data: ok(), filename: ok(), contentType: ok() },
  ParseOptions: {
    formats: ok(undefined, {
      ...each('markdown', 'html', 'rawHtml', 'links', 'images', 'summary', 'json', 'attributes'),
      product: FORMAT_VALUES.product,
      menu: FORMAT_VALUES.menu,
    }),
    proxy: ok('no effect: nothing is fetched', each('basic', 'auto')),
  },
  ParseFormat: {
    type: ok(undefined, {
      ...each('markdown', 'html', 'rawHtml', 'links', 'images', 'summary', 'json', 'attributes'),
      product: FORMAT_VALUES.product,
      menu: FORMAT_VALUES.menu,
    }),
  },
  'browser(args)': { ttl: ok(), activityTtl: ok(), streamWebView: ok(), profile: ok(), integration: ok(), origin: ok() },
  'browser(args).profile': { name: ok(), saveChanges: ok() },
  'browserExecute(args)': { code: ok(), language: ok(undefined, each('python', 'node', 'bash')), timeout: ok() },
  'listBrowsers(args)': { status: ok(undefined, each('active', 'destroyed')) },
  // ---- monitors ----
  CreateMonitorRequest: { name: ok(), schedule: ok(), webhook: ok(), notification: ok(), targets: ok(), retentionDays: ok(), goal: ok(), judgeEnabled: ok() },
  UpdateMonitorRequest: {
    name: ok(),
    status: ok(undefined, each('active', 'paused')),
    schedule: ok(),
    webhook: ok(),
    notification: ok(),
    targets: ok(),
    retentionDays: ok(),
    goal: ok(),
    judgeEnabled: ok(),
  },
  MonitorSchedule: { cron: ok(), text: ok(), timezone: ok() },
  MonitorNotification: { email: ok() },
  MonitorEmailNotification: { enabled: ok(), recipients: ok(), includeDiffs: ok() },
  MonitorWebhookConfig: { url: ok(), headers: ok(), metadata: ok(), events: ok(undefined, each('monitor.page', 'monitor.check.completed')) },
  MonitorScrapeTarget: { id: ok(), type: ok(undefined, each('scrape')), urls: ok(), scrapeOptions: ok() },
  MonitorCrawlTarget: { id: ok(), type: ok(undefined, each('crawl')), url: ok(), crawlOptions: ok(), scrapeOptions: ok() },
  MonitorSearchTarget: {
    id: ok(),
    type: ok(undefined, each('search')),
    queries: ok(),
    searchWindow: ok(undefined, each('5m', '15m', '1h', '6h', '24h', '7d')),
    includeDomains: ok(),
    excludeDomains: ok(),
    maxResults: ok(),
  },
  ListMonitorsOptions: { limit: ok(), offset: ok() },
  GetMonitorCheckOptions: { limit: ok(), skip: ok(), status: ok(undefined, each('same', 'new', 'changed', 'removed', 'error')) },
  // ---- Firecrawl cloud services ----
  AlexandriaScrapeRequest: { alexandria: cloud('the Alexandria exchange: validated, then refused (501)') },
  AlexandriaCall: {
    provider: cloud('validated, then the method is refused (501)'),
    capability: cloud('validated, then the method is refused (501)'),
    options: cloud('validated, then the method is refused (501)'),
  },
  AlexandriaOptions: {
    requestId: cloud('validated, then the method is refused (501)'),
    timeout: cloud('validated, then the method is refused (501)'),
    integration: cloud('validated, then the method is refused (501)'),
    origin: cloud('validated, then the method is refused (501)'),
  },
  FindToolsOptions: {
    urls: cloud('validated, then the method is refused (501)'),
    providers: cloud('validated, then the method is refused (501)'),
    categories: cloud('validated, then the method is refused (501)'),
    groups: cloud('validated, then the method is refused (501)'),
    capabilities: cloud('validated, then the method is refused (501)'),
    level: cloud('validated, then the method is refused (501)', {
      providers: cloud('validated, then the method is refused (501)'),
      groups: cloud('validated, then the method is refused (501)'),
      tools: cloud('validated, then the method is refused (501)'),
    }),
    expand: cloud('validated, then the method is refused (501)', {
      options: cloud('validated, then the method is refused (501)'),
      response: cloud('validated, then the method is refused (501)'),
      examples: cloud('validated, then the method is refused (501)'),
    }),
    limit: cloud('validated, then the method is refused (501)'),
    offset: cloud('validated, then the method is refused (501)'),
  },
  DeveloperSearchOptions: Object.fromEntries(
    ['k', 'passages', 'types', 'repos', 'sources', 'language', 'topic', 'license', 'minStars', 'maxStars', 'archived', 'fork', 'skills'].map((f) => [
      f,
      cloud(
        'the developer index: validated, then refused (501)',
        f === 'types'
          ? {
              doc: cloud('validated, then refused'),
              issue: cloud('validated, then refused'),
              pull_request: cloud('validated, then refused'),
              readme: cloud('validated, then refused'),
            }
          : f === 'skills'
            ? { only: cloud('validated, then refused') }
            : undefined,
      ),
    ]),
  ),
  SearchPapersOptions: {
    k: cloud('validated, then the method is refused (501)'),
    authors: cloud('validated, then the method is refused (501)'),
    categories: cloud('validated, then the method is refused (501)'),
    from: cloud('validated, then the method is refused (501)'),
    to: cloud('validated, then the method is refused (501)'),
  },
  'getPaper(options)': { query: cloud('validated, then the method is refused (501)'), k: cloud('validated, then the method is refused (501)') },
  SimilarPapersOptions: {
    intent: cloud('validated, then the method is refused (501)'),
    mode: cloud('validated, then the method is refused (501)', {
      similar: cloud('validated, then refused'),
      citers: cloud('validated, then refused'),
      references: cloud('validated, then refused'),
    }),
    k: cloud('validated, then the method is refused (501)'),
    rerank: cloud('validated, then the method is refused (501)'),
    anchor: cloud('validated, then the method is refused (501)'),
  },
  SearchGithubOptions: { k: cloud('validated, then the method is refused (501)') },
  SearchFeedbackRequest: {
    rating: cloud('validated, then the method is refused (501)', {
      good: cloud('validated, then refused'),
      partial: cloud('validated, then refused'),
      bad: cloud('validated, then refused'),
    }),
    valuableSources: cloud('validated, then the method is refused (501)'),
    missingContent: cloud('validated, then the method is refused (501)'),
    querySuggestions: cloud('validated, then the method is refused (501)'),
    integration: cloud('validated, then the method is refused (501)'),
    origin: cloud('validated, then the method is refused (501)'),
  },
  EndpointFeedbackRequest: {
    endpoint: cloud('validated, then the method is refused (501)', {
      search: cloud('validated, then refused'),
      scrape: cloud('validated, then refused'),
      parse: cloud('validated, then refused'),
      map: cloud('validated, then refused'),
    }),
    jobId: cloud('validated, then the method is refused (501)'),
    issues: cloud('validated, then the method is refused (501)'),
    tags: cloud('validated, then the method is refused (501)'),
    note: cloud('validated, then the method is refused (501)'),
    url: cloud('validated, then the method is refused (501)'),
    pageNumbers: cloud('validated, then the method is refused (501)'),
    metadata: cloud('validated, then the method is refused (501)'),
  },
  FeedbackValuableSource: { url: cloud('validated, then the method is refused (501)'), reason: cloud('validated, then the method is refused (501)') },
  FeedbackMissingContent: { topic: cloud('validated, then the method is refused (501)'), description: cloud('validated, then the method is refused (501)') },
  // ---- the v1 client (FirecrawlApp / Firecrawl.v1) ----
  'v1 CrawlScrapeOptions': {
    formats: ok(undefined, {
      ...Object.fromEntries(
        ['markdown', 'html', 'rawHtml', 'links', 'screenshot', 'screenshot@fullPage', 'changeTracking', 'json', 'extract'].map((f) => [f, ok()]),
      ),
      content: ok(),
    }),
    headers: ok(),
    includeTags: ok(),
    excludeTags: ok(),
    onlyMainContent: ok(),
    waitFor: ok(),
    timeout: ok(),
    location: ok(),
    mobile: ok(),
    skipTlsVerification: ok(),
    removeBase64Images: ok(),
    blockAds: ok(),
    proxy: ok(undefined, Object.fromEntries(['basic', 'stealth', 'enhanced', 'auto'].map((p) => [p, ok()]))),
    storeInCache: ok(),
    maxAge: ok(),
    parsePDF: ok(),
    auditMetadata: ok(),
  },
  'v1 ScrapeParams': {
    extract: ok('becomes the json format; the result is stored under extract'),
    jsonOptions: ok('becomes the json format'),
    changeTrackingOptions: ok('becomes the changeTracking format'),
    actions: ok(),
    agent: warn('FIRE-1 navigation is not offered: the page is scraped without it and the document says so'),
    zeroDataRetention: ok(),
  },
  'v1 ScrapeParams.extract': { prompt: ok(), schema: ok(), systemPrompt: ok() },
  'v1 ScrapeParams.jsonOptions': { prompt: ok(), schema: ok(), systemPrompt: ok(), checkPromptInjection: ok() },
  'v1 ScrapeParams.changeTrackingOptions': { prompt: ok(), schema: ok(), modes: ok(undefined, { json: ok(), 'git-diff': ok() }), tag: ok() },
  'v1 AgentOptions': { model: warn('see agent', { 'FIRE-1': warn('see agent') }), prompt: warn('see agent'), sessionId: warn('see agent') },
  'v1 AgentOptionsExtract': { model: ok('accepted; pages are read without FIRE-1', { 'FIRE-1': ok() }), sessionId: ok('accepted') },
  'v1 AuditMetadata': { username: ok() },
  'v1 LocationConfig': { country: ok(), languages: ok() },
  'v1 CrawlParams': Object.fromEntries(
    [
      'includePaths',
      'excludePaths',
      'maxDepth',
      'maxDiscoveryDepth',
      'limit',
      'allowBackwardLinks',
      'crawlEntireDomain',
      'allowExternalLinks',
      'ignoreSitemap',
      'scrapeOptions',
      'webhook',
      'deduplicateSimilarURLs',
      'ignoreQueryParameters',
      'regexOnFullURL',
      'delay',
      'allowSubdomains',
      'maxConcurrency',
      'zeroDataRetention',
    ].map((f) => [f, ok()]),
  ),
  'v1 CrawlParams.webhook': {
    url: ok(),
    headers: ok(),
    metadata: ok(),
    events: ok(undefined, Object.fromEntries(['completed', 'failed', 'page', 'started'].map((e) => [e, ok()]))),
  },
  'v1 MapParams': {
    ...Object.fromEntries(
      ['search', 'ignoreSitemap', 'includeSubdomains', 'sitemapOnly', 'limit', 'timeout', 'location', 'auditMetadata'].map((f) => [f, ok()]),
    ),
    useIndex: ok('accepted; the local index is always asked'),
  },
  'v1 ExtractParams': Object.fromEntries(
    ['prompt', 'schema', 'systemPrompt', 'allowExternalLinks', 'enableWebSearch', 'includeSubdomains', 'origin', 'showSources', 'scrapeOptions', 'agent'].map(
      (f) => [f, ok()],
    ),
  ),
  'v1 SearchParams': Object.fromEntries(['limit', 'tbs', 'filter', 'lang', 'country', 'location', 'origin', 'timeout', 'scrapeOptions'].map((f) => [f, ok()])),
  'v1 DeepResearchParams': {
    maxDepth: retired(DEEP),
    timeLimit: retired(DEEP),
    maxUrls: retired(DEEP),
    analysisPrompt: retired(DEEP),
    systemPrompt: retired(DEEP),
    formats: retired(DEEP, { markdown: retired(DEEP), json: retired(DEEP) }),
    jsonOptions: retired(DEEP),
  },
  'v1 DeepResearchParams.jsonOptions': { prompt: retired(DEEP), schema: retired(DEEP), systemPrompt: retired(DEEP) },
  'v1 GenerateLLMsTextParams': { maxUrls: retired(LLMSTXT), showFullText: retired(LLMSTXT), cache: retired(LLMSTXT), __experimental_stream: retired(LLMSTXT) },
};
