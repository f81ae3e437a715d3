// How the Python SDK's names map onto the rows of dispositions.ts: its pydantic
// models onto the JS SDK's interfaces, its snake_case fields onto the wire's
// camelCase, and the keyword arguments of its methods onto the request types
// they fill. A Python field that maps onto no row is a missing row.
import { FORMATS_ROW, ok, sdk, warn, type Disposition, type FieldTable } from './dispositions.ts';

/** The rows (groups of dispositions.ts) a model's fields are looked up in, first match wins. */
export const PY_MODEL_GROUPS: Record<string, string[]> = {
  ScrapeOptions: ['ScrapeOptions', 'py ScrapeOptions'],
  ScrapeFormats: ['py ScrapeFormats'],
  Format: ['Format'],
  JsonFormat: ['JsonFormat'],
  ChangeTrackingFormat: ['ChangeTrackingFormat'],
  ScreenshotFormat: ['ScreenshotFormat'],
  AttributesFormat: ['AttributesFormat'],
  AttributeSelector: ['AttributesFormat.selectors'],
  QuestionFormat: ['QuestionFormat'],
  HighlightsFormat: ['HighlightsFormat'],
  QueryFormat: ['QueryFormat'],
  PDFParser: ['PDFParser'],
  ImageParser: ['ImageParser'],
  RedactPIIOptions: ['RedactPIIOptions'],
  ThreatProtectionOptions: ['ThreatProtectionOptions'],
  AuditMetadata: ['AuditMetadata'],
  Location: ['LocationConfig'],
  Viewport: ['Viewport'],
  WaitAction: ['WaitAction'],
  ScreenshotAction: ['ScreenshotAction'],
  ClickAction: ['ClickAction'],
  WriteAction: ['WriteAction'],
  PressAction: ['PressAction'],
  ScrollAction: ['ScrollAction'],
  ScrapeAction: ['ScrapeAction'],
  ExecuteJavascriptAction: ['ExecuteJavascriptAction'],
  PDFAction: ['PDFAction'],
  WebhookConfig: ['WebhookConfig'],
  PaginationConfig: ['PaginationConfig'],
  Source: ['SearchRequest.sources'],
  Category: ['CategoryOption'],
  AgentOptions: ['AgentOptions'],
  AgentWebhookConfig: ['AgentWebhookConfig'],
  AgentExchangeOptions: ['AgentExchangeOptions'],
  AlexandriaCall: ['AlexandriaCall'],
  MonitorSchedule: ['MonitorSchedule'],
  MonitorNotification: ['MonitorNotification'],
  MonitorEmailNotification: ['MonitorEmailNotification'],
  MonitorWebhookConfig: ['MonitorWebhookConfig'],
  MonitorTarget: ['py MonitorTarget', 'MonitorScrapeTarget', 'MonitorCrawlTarget', 'MonitorSearchTarget'],
  V1ScrapeOptions: ['v1 CrawlScrapeOptions', 'v1 ScrapeParams'],
  V1ScrapeParams: ['v1 CrawlScrapeOptions', 'v1 ScrapeParams', 'py v1 scrape'],
  V1CrawlParams: ['v1 CrawlParams'],
  V1MapParams: ['v1 MapParams'],
  V1SearchParams: ['v1 SearchParams', 'py v1 search'],
  V1JsonConfig: ['v1 ScrapeParams.jsonOptions', 'py v1 JsonConfig'],
  V1ChangeTrackingOptions: ['v1 ScrapeParams.changeTrackingOptions'],
  V1WebhookConfig: ['v1 CrawlParams.webhook'],
  V1LocationConfig: ['v1 LocationConfig'],
  V1AgentOptions: ['v1 AgentOptions'],
  V1ExtractAgent: ['v1 AgentOptionsExtract'],
  V1WaitAction: ['WaitAction'],
  V1ScreenshotAction: ['ScreenshotAction'],
  V1ClickAction: ['ClickAction'],
  V1WriteAction: ['WriteAction'],
  V1PressAction: ['PressAction'],
  V1ScrollAction: ['ScrollAction'],
  V1ScrapeAction: ['ScrapeAction'],
  V1ExecuteJavascriptAction: ['ExecuteJavascriptAction'],
  V1PDFAction: ['PDFAction'],
};

const SCRAPE = ['ScrapeOptions', 'py ScrapeOptions'];
const CRAWL = ['py crawl', 'CrawlOptions', ...SCRAPE];
const BATCH = ['py batch', 'BatchScrapeOptions', ...SCRAPE];
const V1_SCRAPE = ['v1 CrawlScrapeOptions', 'v1 ScrapeParams', 'py v1 scrape'];
/** The deprecated v1-named methods of the v2 client take a dict of v1 params and keyword arguments. */
const V1_ALIAS = ['py v1 alias'];

/** The rows a v2 client method's keyword arguments are looked up in ('py arguments' is added to every method). */
export const PY_METHOD_GROUPS: Record<string, string[]> = {
  scrape: [...SCRAPE, 'py scrape'],
  scrape_url: V1_ALIAS,
  scrape_alexandria: ['AlexandriaScrapeRequest', 'AlexandriaOptions', 'py alexandria'],
  find_tools: ['FindToolsOptions', 'py find_tools'],
  interact: ['ScrapeExecuteRequest'],
  scrape_execute: ['ScrapeExecuteRequest'],
  parse: [...SCRAPE, 'ParseFile', 'ParseOptions', 'py parse'],
  search: ['SearchRequest'],
  developer_search: ['DeveloperSearchOptions'],
  gov_search: ['py gov_search'],
  search_papers: ['SearchPapersOptions'],
  read_paper: ['getPaper(options)'],
  related_papers: ['SimilarPapersOptions'],
  search_github: ['SearchGithubOptions'],
  map: ['MapOptions'],
  map_url: V1_ALIAS,
  crawl: CRAWL,
  start_crawl: CRAWL,
  crawl_url: V1_ALIAS,
  async_crawl_url: V1_ALIAS,
  wait_crawl: ['py wait'],
  wait_batch_scrape: ['py wait'],
  get_crawl_status: ['PaginationConfig', 'py status'],
  get_batch_scrape_status: ['PaginationConfig', 'py status'],
  get_crawl_status_page: ['py status'],
  get_batch_scrape_status_page: ['py status'],
  check_crawl_status: V1_ALIAS,
  check_batch_scrape_status: V1_ALIAS,
  crawl_params_preview: ['CrawlOptions'],
  batch_scrape: BATCH,
  start_batch_scrape: BATCH,
  batch_scrape_urls: V1_ALIAS,
  async_batch_scrape_urls: V1_ALIAS,
  extract: ['prepareExtractPayload(args)', 'py extract'],
  start_extract: ['prepareExtractPayload(args)', 'py extract'],
  agent: ['prepareAgentPayload(args)', 'py agent'],
  start_agent: ['prepareAgentPayload(args)', 'py agent'],
  list_agents: ['AgentListOptions'],
  get_agent_trace: ['getAgentTrace(options)'],
  get_agent_thread: ['getAgentThread(options)'],
  create_monitor: ['CreateMonitorRequest'],
  update_monitor: ['UpdateMonitorRequest'],
  list_monitors: ['ListMonitorsOptions'],
  list_monitor_checks: ['ListMonitorsOptions'],
  get_monitor_check: ['GetMonitorCheckOptions', 'PaginationConfig', 'py status'],
  browser: ['browser(args)', 'py browser'],
  browser_execute: ['browserExecute(args)'],
  list_browsers: ['listBrowsers(args)'],
  get_credit_usage_historical: ['py usage'],
  get_token_usage_historical: ['py usage'],
  watcher: ['WatcherOptions'],
};

/** The same for the v1 client (V1FirecrawlApp, AsyncV1FirecrawlApp). */
export const PY_V1_METHOD_GROUPS: Record<string, string[]> = {
  scrape_url: V1_SCRAPE,
  search: ['v1 SearchParams', 'py v1 search'],
  crawl_url: ['v1 CrawlParams', 'py v1 crawl'],
  async_crawl_url: ['v1 CrawlParams', 'py v1 crawl'],
  crawl_url_and_watch: ['v1 CrawlParams', 'py v1 crawl'],
  map_url: ['v1 MapParams'],
  batch_scrape_urls: [...V1_SCRAPE, 'py v1 batch'],
  async_batch_scrape_urls: [...V1_SCRAPE, 'py v1 batch'],
  batch_scrape_urls_and_watch: [...V1_SCRAPE, 'py v1 batch'],
  extract: ['v1 ExtractParams'],
  async_extract: ['v1 ExtractParams'],
  deep_research: ['v1 DeepResearchParams', 'py v1 deep_research'],
  async_deep_research: ['v1 DeepResearchParams', 'py v1 deep_research'],
  generate_llms_text: ['v1 GenerateLLMsTextParams', 'py v1 llmstxt'],
  async_generate_llms_text: ['v1 GenerateLLMsTextParams', 'py v1 llmstxt'],
  get_credit_usage_historical: ['py usage'],
  get_token_usage_historical: ['py usage'],
};

export const PY_V1_CLIENTS = new Set(['V1FirecrawlApp', 'AsyncV1FirecrawlApp']);

/** Wire names that are not the plain camelCase of the Python name. */
export const PY_WIRE_NAMES: Record<string, string> = {
  redact_pii: 'redactPII',
  regex_on_full_url: 'regexOnFullURL',
  deduplicate_similar_urls: 'deduplicateSimilarURLs',
  ignore_invalid_urls: 'ignoreInvalidURLs',
  strict_constrain_to_urls: 'strictConstrainToURLs',
  schema_field: 'schema',
};

export function wireName(pythonName: string, alias: string | null): string {
  if (alias) return alias;
  return PY_WIRE_NAMES[pythonName] ?? pythonName.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

const refusal = (): Disposition => ({ status: 'cloud', note: 'validated, then the method is refused (501)' });

/** Rows for what only the Python SDK has: its own models' extra fields and its methods' arguments. */
export const PY_ONLY_FIELDS: FieldTable = {
  'py arguments': {
    url: ok(),
    urls: ok(),
    query: ok(),
    id: ok(),
    jobId: ok(),
    crawlId: ok(),
    monitorId: ok(),
    checkId: ok(),
    sessionId: ok(),
    threadId: ok(),
    snapshotId: ok(),
    paperId: ok(),
    file: ok(),
    requestTimeout: sdk('the HTTP timeout of the SDK’s own request'),
    pollInterval: sdk('seconds between the SDK’s status polls'),
    params: ok('a dict of the request’s fields, merged into the body'),
  },
  'py ScrapeOptions': { checkPromptInjection: ok('every model call treats the page as untrusted data') },
  'py MonitorTarget': { type: ok(undefined, { scrape: ok(), crawl: ok(), search: ok() }) },
  'py ScrapeFormats': {
    ...Object.fromEntries(
      ['markdown', 'html', 'rawHtml', 'summary', 'links', 'screenshot', 'changeTracking', 'images', 'json'].map((f) => [f, ok(`sent as the "${f}" format`)]),
    ),
    formats: { ...FORMATS_ROW, note: 'formats given as a list beside the booleans' },
  },
  'py scrape': {
    autoResume: sdk('the SDK re-sends a scrape answered 408 processing_continues; the re-sent scrape attaches to the one still running'),
    alexandria: refusal(),
    requestId: refusal(),
  },
  'py alexandria': { calls: refusal() },
  'py find_tools': { options: refusal() },
  'py parse': { options: ok('a ParseOptions object or dict, sent as the options part') },
  'py crawl': { timeout: sdk('how long the SDK waits for the crawl'), ignoreSitemap: ok('sent as sitemap "skip" / "include"') },
  'py batch': { timeout: sdk('how long the SDK waits for the batch'), waitTimeout: sdk('how long the SDK waits for the batch') },
  'py wait': { timeout: sdk('how long the SDK waits') },
  'py status': { paginationConfig: sdk('how far the SDK follows `next`'), nextUrl: ok('the `next` URL it reads') },
  'py gov_search': {
    k: refusal(),
    jurisdiction: refusal(),
    courtType: {
      ...refusal(),
      values: Object.fromEntries(
        [
          'federal-appellate',
          'federal-bankruptcy',
          'federal-district',
          'federal-special',
          'federal-supreme',
          'military',
          'state-appellate',
          'state-attorney-general',
          'state-special',
          'state-supreme',
          'state-trial',
        ].map((c) => [c, refusal()]),
      ),
    },
    court: refusal(),
    cites: refusal(),
    domain: refusal(),
  },
  'py extract': { timeout: sdk('how long the SDK waits for the extract') },
  'py agent': {
    location: ok('the agent’s scrapes take it as their location, its searches as country and lang'),
    zeroDataRetention: ok(),
    timeout: sdk('how long the SDK waits for the agent'),
  },
  'py browser': {
    blockAds: ok('the session’s browser goes through the guard proxy that refuses the ad and tracker hosts; cookie notices are not hidden'),
    location: ok('Accept-Language, navigator.languages and the time zone of the country; the IP address stays the service’s'),
  },
  'py usage': { byApiKey: ok() },
  'py v1 alias': { params: ok('a dict of v1 parameters the SDK converts to the v2 request'), idempotencyKey: ok('ignored by the SDK for v2 crawls') },
  'py v1 scrape': { parsePdf: ok('becomes the parsers list'), webhook: ok() },
  'py v1 search': { query: ok() },
  'py v1 JsonConfig': { agent: warn('FIRE-1 navigation is not offered: the page is scraped without it and the document says so') },
  'py v1 crawl': { idempotencyKey: ok('sent as the x-idempotency-key header') },
  'py v1 batch': { idempotencyKey: ok('sent as the x-idempotency-key header'), maxConcurrency: ok() },
  'py v1 deep_research': { onActivity: sdk('a callback of the SDK'), onSource: sdk('a callback of the SDK') },
  'py v1 llmstxt': { experimentalStream: { status: 'retired', note: 'llms.txt generation is retired upstream: 410' } },
};
