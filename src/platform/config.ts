// The one place that reads the environment. Every variable is documented in the
// settings table of docs/operations.md; add new ones there too.
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { parseAllowlist } from './net/address-policy.ts';
import { CHROMIUM_ENVIRONMENT } from './browser/chromium-environment.ts';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

function str(name: string): string | undefined {
  const v = process.env[name];
  return v === undefined || v === '' ? undefined : v;
}

function int(name: string, fallback: number): number {
  const v = str(name);
  if (v === undefined) return fallback;
  const n = Number(v);
  if (!Number.isInteger(n)) throw new Error(`${name} must be an integer, got "${v}"`);
  return n;
}

function positiveInt(name: string, fallback: number, formerName?: string): number {
  if (formerName && str(formerName) !== undefined) throw new Error(`${formerName} was renamed to ${name}; set that instead`);
  const n = int(name, fallback);
  if (n < 1) throw new Error(`${name} must be at least 1, got ${n}`);
  return n;
}

function boundedInt(name: string, fallback: number, min: number, max: number, why: string): number {
  const n = int(name, fallback);
  if (n < min || n > max) throw new Error(`${name} must be between ${min} and ${max} (${why}), got ${n}`);
  return n;
}

const MB = 1024 * 1024;

function nonNegativeInt(name: string, fallback: number): number {
  const n = int(name, fallback);
  if (n < 0) throw new Error(`${name} must be 0 or more, got ${n}`);
  return n;
}

function bool(name: string, fallback: boolean): boolean {
  const v = str(name);
  if (v === undefined) return fallback;
  if (['1', 'true', 'yes', 'on'].includes(v.toLowerCase())) return true;
  if (['0', 'false', 'no', 'off'].includes(v.toLowerCase())) return false;
  throw new Error(`${name} must be true or false, got "${v}"`);
}

function oneOf<T extends string>(name: string, values: readonly T[], fallback: T): T {
  const v = str(name);
  if (v === undefined) return fallback;
  if (!(values as readonly string[]).includes(v)) throw new Error(`${name} must be ${values.join(' or ')}, got "${v}"`);
  return v as T;
}

function searxngUrl(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const url = URL.parse(value);
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    throw new Error(`SEARXNG_URL must be an http(s) URL of a SearXNG instance, got "${value}"`);
  return value;
}

/** The named variables that are set, and nothing else. */
function pick(names: readonly string[]): Record<string, string> {
  const picked: Record<string, string> = {};
  for (const name of names) {
    const v = str(name);
    if (v !== undefined) picked[name] = v;
  }
  return picked;
}

/** Comma-separated `host:port` pairs (IPv6 in brackets). */
function endpoints(name: string): { host: string; port: number }[] {
  return (str(name) ?? '')
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e !== '')
    .map((entry) => {
      const match = /^(?:\[([^\]]+)\]|([^:[\]]+)):(\d{1,5})$/.exec(entry);
      const port = Number(match?.[3]);
      if (!match || port < 1 || port > 65535) throw new Error(`${name} must list host:port pairs such as temporal-ui:8080 or [fd00::5]:5432, got "${entry}"`);
      return { host: match[1] ?? match[2], port };
    });
}

/**
 * How processes reach Temporal over TLS; undefined: plaintext. Any file, the server name or an API
 * key turns TLS on (an API key is a bearer secret, never sent in the clear). The files are read
 * once at start (temporal/connection-options.ts).
 */
function temporalTls() {
  const caFile = str('TEMPORAL_TLS_CA_FILE');
  const serverName = str('TEMPORAL_TLS_SERVER_NAME');
  const certFile = str('TEMPORAL_TLS_CERT_FILE');
  const keyFile = str('TEMPORAL_TLS_KEY_FILE');
  const apiKey = str('TEMPORAL_API_KEY');
  if ((certFile === undefined) !== (keyFile === undefined))
    throw new Error(
      `TEMPORAL_TLS_CERT_FILE and TEMPORAL_TLS_KEY_FILE go together (the client certificate and its private key); only ${certFile ? 'TEMPORAL_TLS_CERT_FILE' : 'TEMPORAL_TLS_KEY_FILE'} is set`,
    );
  const implied = [
    caFile && 'TEMPORAL_TLS_CA_FILE',
    serverName && 'TEMPORAL_TLS_SERVER_NAME',
    certFile && 'TEMPORAL_TLS_CERT_FILE',
    apiKey && 'TEMPORAL_API_KEY',
  ].filter(Boolean);
  const enabled = bool('TEMPORAL_TLS', implied.length > 0);
  if (!enabled && implied.length > 0)
    throw new Error(`TEMPORAL_TLS is off but ${implied.join(', ')} ${implied.length > 1 ? 'need' : 'needs'} TLS; unset TEMPORAL_TLS`);
  if (!enabled) return undefined;
  if (str('TEMPORAL_ADDRESS') === undefined)
    throw new Error('the TEMPORAL_TLS settings are for an external Temporal (TEMPORAL_ADDRESS); the dev server npm start runs speaks plaintext');
  return { caFile, serverName, clientCert: certFile && keyFile ? { certFile, keyFile } : undefined };
}

function logLevel(): LogLevel {
  const v = str('LOG_LEVEL') ?? 'info';
  if (!['debug', 'info', 'warn', 'error'].includes(v)) throw new Error(`LOG_LEVEL must be debug, info, warn or error, got "${v}"`);
  return v as LogLevel;
}

/** The resume of a POST /v2/scrape that answered 408 (src/jobs/scrape-resume.ts). */
function scrapeResume() {
  /** Retry-After of a scrape's 408 whose job goes on: when the SDKs send the request again (they wait at least 5 s). */
  const resumeRetryAfterSeconds = boundedInt('SCRAPE_RESUME_RETRY_AFTER_SECONDS', 5, 1, 600, 'seconds from 1 to 600, the longest wait the SDKs honour');
  /** How long after its latest 408 an ended scrape still answers the same request sent again (its resume). */
  const resumeWindowSeconds = boundedInt('SCRAPE_RESUME_WINDOW_SECONDS', 600, 10, 86_400, 'seconds from 10 to 86400');
  if (resumeWindowSeconds < 2 * resumeRetryAfterSeconds) {
    throw new Error(
      `SCRAPE_RESUME_WINDOW_SECONDS must be at least twice SCRAPE_RESUME_RETRY_AFTER_SECONDS (a resume sent when told must find its scrape), got ${resumeWindowSeconds} and ${resumeRetryAfterSeconds}`,
    );
  }
  return { resumeRetryAfterSeconds, resumeWindowSeconds };
}

export function loadConfig() {
  const dataDir = resolve(str('DATA_DIR') ?? '.data');
  const taskQueue = str('TEMPORAL_TASK_QUEUE') ?? 'crawl';
  const host = str('HOST') ?? '0.0.0.0';
  const port = int('PORT', 3002);
  return {
    dataDir,
    logLevel: logLevel(),
    gateway: {
      host,
      port,
      /**
       * The base of every link the API hands out (crawl `url` and `next`, session `cdpUrl` and live
       * views). Never taken from the request's Host or X-Forwarded-* headers, which the client picks.
       * Unset: the address `npm start` prints for the gateway.
       */
      publicBaseUrl: str('PUBLIC_BASE_URL') ?? `http://${host === '0.0.0.0' ? 'localhost' : host}:${port}`,
      bodyLimit: str('BODY_LIMIT') ?? '10mb',
      /**
       * How long an API request may wait on PostgreSQL or Temporal not answering, from its arrival, before
       * it is answered 503 SERVICE_UNAVAILABLE (a scrape: its own timeout). Longer than a clear request takes on a busy machine.
       */
      requestDeadlineMs: boundedInt('REQUEST_DEADLINE_MS', 10_000, 3_000, 600_000, 'milliseconds from 3000 (its checks begin 1500 before it) to 600000'),
      /** Per API key, shared by all gateway replicas (a row per key); perMinute 0 turns it off. */
      rateLimit: {
        perMinute: nonNegativeInt('API_KEY_RATE_LIMIT_PER_MINUTE', 600),
        burst: positiveInt('API_KEY_RATE_LIMIT_BURST', 100),
      },
    },
    /**
     * The operations ports of the worker, the browser host and the gateway (GET /live, GET /ready,
     * GET /metrics); 0: none.
     * Off by default so several processes on one machine never collide; npm start gives its
     * children free ports unless these are set, docker compose sets them.
     */
    ops: {
      bind: str('OPS_BIND_ADDRESS') ?? '127.0.0.1',
      workerPort: nonNegativeInt('WORKER_OPS_PORT', 0),
      browserHostPort: nonNegativeInt('BROWSER_HOST_OPS_PORT', 0),
      gatewayPort: nonNegativeInt('GATEWAY_OPS_PORT', 0),
    },
    idempotency: {
      /** How long an x-idempotency-key of a team answers repeats with its first request's answer. */
      windowHours: positiveInt('IDEMPOTENCY_KEY_WINDOW_HOURS', 24),
    },
    monitors: {
      /** Monitors a team may have (not counting deleted ones); one more is refused with 429 MONITOR_LIMIT. */
      maxPerTeam: positiveInt('MONITOR_MAX_PER_TEAM', 50),
      /** The shortest time between two scheduled checks a monitor may ask for; a schedule that runs more often is a 400. */
      minIntervalMinutes: positiveInt('MONITOR_MIN_INTERVAL_MINUTES', 5),
      /** Days a monitor keeps its checks when the request names none, and the most it may ask for. */
      defaultRetentionDays: positiveInt('MONITOR_DEFAULT_RETENTION_DAYS', 30),
      maxRetentionDays: positiveInt('MONITOR_MAX_RETENTION_DAYS', 365),
      /** A check missed while Temporal or the workers were down is still run if it is at most this late; older ones are skipped. */
      catchupWindowMinutes: positiveInt('MONITOR_CATCHUP_WINDOW_MINUTES', 10),
      /** Scheduled checks start up to this many seconds late, at random (at most a tenth of the monitor's interval), so monitors of one minute do not all start at once. */
      jitterSeconds: nonNegativeInt('MONITOR_JITTER_SECONDS', 30),
      /** How often each worker compares the monitors of its task queue with their Temporal Schedules and repairs the difference. */
      reconcileIntervalMs: positiveInt('MONITOR_RECONCILE_INTERVAL_MS', 30_000),
    },
    extract: {
      /** URLs one POST /v2/extract may name (plain URLs and `/*` wildcards together); more is a 400. */
      maxUrls: positiveInt('EXTRACT_MAX_URLS', 10),
      /** Pages a `/*` wildcard URL of an extract crawls (its crawl job's limit). */
      maxPages: positiveInt('EXTRACT_MAX_PAGES', 10),
      /** Model calls over chunks of LLM_MAX_INPUT_CHARS one extract makes before its merge; pages beyond them are left out with a warning. */
      maxChunks: positiveInt('EXTRACT_MAX_CHUNKS', 8),
      /** How long after it was made an extract's row (its data and sources) stays readable; the scheduled purge deletes it. */
      retentionHours: positiveInt('EXTRACT_RETENTION_HOURS', 24),
    },
    activityLog: {
      /** Rows older than this are deleted by the scheduled purge (the activity listing shows the past 24 h). */
      retentionHours: positiveInt('ACTIVITY_LOG_RETENTION_HOURS', 24),
    },
    database: {
      /** Unset: an embedded PostgreSQL under dataDir is used. */
      url: str('DATABASE_URL'),
      embeddedPort: int('EMBEDDED_PG_PORT', 54329),
      /** How long opening a connection (and waiting for a free one in a pool) may take before the statement fails. */
      connectTimeoutMs: boundedInt('DB_CONNECT_TIMEOUT_MS', 10_000, 500, 600_000, 'milliseconds from 500 to 600000'),
      /**
       * How long one statement may take, counted by the client (a server that stopped answering, a connection
       * into a black hole) and by the server (statement_timeout). Also the limit of a transaction.
       */
      queryTimeoutMs: boundedInt('DB_QUERY_TIMEOUT_MS', 30_000, 1_000, 3_600_000, 'milliseconds from 1000 to 3600000'),
    },
    temporal: {
      /** Unset: `npm start` runs the Temporal dev server itself. */
      address: str('TEMPORAL_ADDRESS'),
      tls: temporalTls(),
      /** A Temporal Cloud API key, sent as a bearer token on every call (over TLS only). */
      apiKey: str('TEMPORAL_API_KEY'),
      namespace: str('TEMPORAL_NAMESPACE') ?? 'default',
      /** Control work: every workflow, and the activities that never wait for a browser (plan, finish, purge). */
      taskQueue,
      /** Browser work: scrape batches, each with a Chromium of its own; a worker runs WORKER_BROWSER_SLOTS at once. */
      browserTaskQueue: str('TEMPORAL_BROWSER_TASK_QUEUE') ?? `${taskQueue}-browser`,
      /** Network I/O: webhook deliveries, many at once per worker, never in a browser's place. */
      webhookTaskQueue: str('TEMPORAL_WEBHOOK_TASK_QUEUE') ?? `${taskQueue}-webhooks`,
      cliPath: str('TEMPORAL_CLI_PATH') ?? 'temporal',
      devPort: int('TEMPORAL_DEV_PORT', 7233),
      devUiPort: int('TEMPORAL_UI_PORT', 8233),
      /** The dev server's HTTP API (workflows as JSON); pinned so the address guard knows it. */
      devHttpPort: int('TEMPORAL_DEV_HTTP_PORT', 7243),
      /** The dev server's Prometheus endpoint; pinned for the same reason. */
      devMetricsPort: int('TEMPORAL_DEV_METRICS_PORT', 7244),
      uiUrl: str('TEMPORAL_UI_URL'),
      /** A workflow bundle built ahead of time (scripts/bundle-workflows.ts); unset: workers bundle the sources at start-up. */
      workflowBundlePath: str('TEMPORAL_WORKFLOW_BUNDLE'),
    },
    worker: {
      shutdownGraceMs: int('WORKER_SHUTDOWN_GRACE_MS', 30_000),
      /** Browsers (scrape batches, each its own Chromium) one worker runs at once. */
      browserSlots: positiveInt('WORKER_BROWSER_SLOTS', 2, 'WORKER_MAX_BROWSER_BATCHES'),
      /** Control activities (plan, finish, purge) one worker runs at once; they wait on the database only. */
      controlSlots: positiveInt('WORKER_CONTROL_SLOTS', 50),
      /** How far the worker's heap may grow past what is live before a full collection (platform/process/heap-growth.ts); 0: V8 decides. */
      heapGrowthPercent: boundedInt('WORKER_HEAP_GROWTH_PERCENT', 50, 0, 300, "V8's own factor is at most 4x, i.e. 300 %"),
      /**
       * A worker process whose database heartbeat (every 2 s) is this old is dead: live workers fail its
       * running attempts at once so that they are retried (platform/temporal/abandoned-attempts.ts).
       */
      deadAfterMs: boundedInt('WORKER_DEAD_AFTER_MS', 10_000, 6_000, 3_600_000, 'a worker heartbeats every 2 s; three beats must fit in it'),
    },
    crawl: {
      /** Most URLs one activity claims (as they are found); one browser serves the whole batch, so bigger batches spend less on browser start-up (bench/crawl.ts). */
      batchSize: int('CRAWL_BATCH_SIZE', 500),
      /** Pages in flight per browser (Crawlee's fixed concurrency). */
      pagesPerBrowser: int('CRAWL_PAGES_PER_BROWSER', 8),
      /** A crawl's workflow continues as new past this many history events (Temporal suggests it at 4,096). */
      historyEventBudget: int('CRAWL_HISTORY_EVENT_BUDGET', 3000),
      /** Least time between two updates of a running crawl's PagesCrawled and PagesQueued search attributes (each is a history event). */
      progressIntervalMs: int('CRAWL_PROGRESS_INTERVAL_MS', 10_000),
      /**
       * A batch that has held its browser this long gives it up when a crawl whose share of browsers is
       * no bigger than its own has been waiting (a crawl with fewer browsers gets one at once).
       */
      browserTimeSliceMs: positiveInt('CRAWL_BROWSER_TIME_SLICE_MS', 10_000),
      /** A batch whose worker stops heartbeating this long is retried elsewhere. */
      heartbeatTimeoutMs: int('CRAWL_HEARTBEAT_TIMEOUT_MS', 60_000),
      /**
       * How long the gateway (and the worker's reconciler) waits for Temporal to confirm a crawl's
       * workflow start; a start not confirmed by then is left to the reconciler.
       */
      startTimeoutMs: positiveInt('CRAWL_START_TIMEOUT_MS', 5_000),
      /** Crawls one team may have running (status scraping) at once; POST /v2/crawl answers 429 beyond. */
      maxActivePerTeam: positiveInt('TEAM_MAX_ACTIVE_CRAWLS', 50),
      /** How long results stay readable after a crawl ends. */
      retentionHours: int('CRAWL_RETENTION_HOURS', 24),
      /** How often the scheduled purge deletes expired crawls and old cache entries. */
      purgeIntervalMinutes: int('CRAWL_PURGE_INTERVAL_MINUTES', 60),
      /** Cached page loads older than this are deleted (maxAge can never reach past it). */
      cacheRetentionHours: int('PAGE_CACHE_RETENTION_HOURS', 168),
      /** Off by default: crawl targets on loopback/private/link-local/metadata addresses are refused. */
      allowPrivateAddresses: bool('CRAWL_ALLOW_PRIVATE_ADDRESSES', false),
      /** IPs or CIDRs allowed even though private (e.g. an intranet host). */
      privateAddressAllowlist: parseAllowlist(str('CRAWL_PRIVATE_ADDRESS_ALLOWLIST')),
      /** More listeners of this deployment that crawls and webhooks never reach, besides those the settings name. */
      refusedEndpoints: endpoints('CRAWL_REFUSED_ENDPOINTS'),
      /** Upstream HTTP proxy for every crawl request; none by default (no proxy pool). */
      proxyUrl: str('CRAWL_PROXY_URL'),
      /** Bytes of a robots.txt that are read, as Google does (500 KiB); the rest is ignored from the last line break before it. */
      robotsMaxBytes: positiveInt('CRAWL_ROBOTS_MAX_BYTES', 512_000),
      /** Sitemap fetches per crawl, sitemap indexes included. */
      maxSitemaps: positiveInt('CRAWL_MAX_SITEMAPS', 20),
      /** A sitemap bigger than this as received or once inflated is skipped (the sitemap protocol's 50 MB). */
      sitemapMaxBytes: positiveInt('CRAWL_SITEMAP_MAX_BYTES', 52_428_800),
      /** Entries read from one sitemap (the sitemap protocol's 50,000); the rest are ignored. */
      sitemapMaxUrls: positiveInt('CRAWL_SITEMAP_MAX_URLS', 50_000),
      userAgent: str('CRAWL_USER_AGENT'),
      mobileUserAgent: str('CRAWL_MOBILE_USER_AGENT'),
      /**
       * browser: every page in Chromium; auto: over HTTP first, Chromium when the page needs it
       * (page/rendering/needs-browser.ts); http: never Chromium (requests that need it are refused).
       */
      rendering: oneOf('CRAWL_RENDERING', ['browser', 'auto', 'http'] as const, 'auto'),
      /**
       * A single scrape that needs Chromium opens a fresh context in a browser the worker keeps running
       * (platform/browser/warm-browser.ts), closed after this long unused; 0: a browser per scrape, as a crawl batch.
       */
      warmBrowserIdleMs: nonNegativeInt('CRAWL_WARM_BROWSER_IDLE_MS', 300_000),
      /** Threads that turn pages into documents beside the worker's event loop (0: on the event loop itself). */
      conversionThreads: nonNegativeInt('CRAWL_CONVERSION_THREADS', Math.max(1, Math.min(4, availableParallelism() - 1))),
      /** Longest a page's conversion may take; the page then fails and its thread is replaced. */
      conversionTimeoutMs: positiveInt('CRAWL_CONVERSION_TIMEOUT_MS', 60_000),
      /** Images of a page taken over HTTP whose size is read from their first bytes, for the search index (0: none). */
      imageProbes: nonNegativeInt('CRAWL_IMAGE_PROBES', 20),
      /** Bytes of an image fetched to read its size; its header must lie within them. */
      imageProbeBytes: positiveInt('CRAWL_IMAGE_PROBE_BYTES', 65_536),
      /** Time all the image probes of one page share. */
      imageProbeTimeoutMs: positiveInt('CRAWL_IMAGE_PROBE_TIMEOUT_MS', 5_000),
      /**
       * Longest URL, and URL key, a crawl admits (characters; both are ASCII once parsed). The key
       * is unique-indexed, and a B-tree entry cannot pass 2,704 bytes, so the cap stays well below.
       */
      maxUrlLength: boundedInt('CRAWL_MAX_URL_LENGTH', 2048, 256, 2500, 'the URL key is unique-indexed and an index entry holds at most 2,704 bytes'),
      /** Largest page HTML (UTF-8 bytes) turned into a document; a larger page is a failed page. */
      maxPageBytes: positiveInt('CRAWL_MAX_PAGE_BYTES', 10 * MB),
      /** Largest file (PDF, download) fetched outside the browser; a larger one is a failed page. */
      maxFileBytes: positiveInt('CRAWL_MAX_FILE_BYTES', 50 * MB),
      /** Largest stored document (its JSON, every format together); PostgreSQL's jsonb stops at 255 MB. */
      maxDocumentBytes: boundedInt('CRAWL_MAX_DOCUMENT_BYTES', 50 * MB, 1, 200 * MB, 'a jsonb value holds at most 255 MB'),
      /** A crawl admits no new URL while more URLs wait in its queue than this many per credit of its team's balance. */
      queuedUrlsPerCredit: positiveInt('CRAWL_QUEUED_URLS_PER_CREDIT', 2),
      /** Most page URLs read from all of a crawl's sitemaps together (before filters), whatever its limit. */
      sitemapTotalMaxUrls: positiveInt('CRAWL_SITEMAP_TOTAL_MAX_URLS', 100_000),
    },
    scrape: {
      /** URLs one POST /v2/batch/scrape may name (appendToId adds more to a running batch). */
      batchMaxUrls: positiveInt('BATCH_SCRAPE_MAX_URLS', 10_000),
      /** Links fetched from a map's start page (before filters), so a huge page cannot flood the answer. */
      mapMaxPageLinks: positiveInt('MAP_MAX_PAGE_LINKS', 10_000),
      /** How long after its end a map's links stay in the database (they are answered once; kept for the activity log). */
      mapRetentionHours: positiveInt('MAP_RETENTION_HOURS', 24),
      /**
       * How long the page of a POST /v2/scrape may take to load (or `timeout`, when longer): past the
       * request's `timeout` the answer is a 408 and the page's work goes on this long. At most 5
       * minutes, the longest `timeout`, which the scrape batch's claim window is sized for.
       */
      pageBudgetMs: boundedInt('SCRAPE_PAGE_BUDGET_MS', 120_000, 1000, 300_000, 'milliseconds from 1000 to 300000, the longest scrape timeout'),
      ...scrapeResume(),
    },
    webhooks: {
      /** Per-attempt limit: a receiver must answer within this. */
      timeoutMs: int('WEBHOOK_TIMEOUT_MS', 10_000),
      /** First retry after about this long; each later one waits twice as long (±20 % jitter). */
      retryInitialMs: int('WEBHOOK_RETRY_INITIAL_MS', 5_000),
      /** Longest wait between two attempts of one event. */
      retryMaxIntervalMs: int('WEBHOOK_RETRY_MAX_INTERVAL_MS', 3_600_000),
      /** An event not delivered this long after it was written is given up (recorded as failed). */
      giveUpAfterHours: int('WEBHOOK_GIVE_UP_AFTER_HOURS', 24),
      /** Deliveries in flight at once per crawl. */
      concurrency: int('WEBHOOK_CONCURRENCY', 8),
      /** How often a crawl's delivery loop looks for new events. */
      pollIntervalMs: int('WEBHOOK_POLL_INTERVAL_MS', 500),
    },
    llm: {
      /**
       * OpenAI-compatible endpoint (…/v1): crawl prompts, summaries, the json, question and highlights formats
       * and change tracking's json mode; unset: prompts and those formats are refused (400), summaries are extractive.
       */
      baseUrl: str('LLM_BASE_URL'),
      apiKey: str('LLM_API_KEY'),
      model: str('LLM_MODEL') ?? 'gpt-4o-mini',
      /** A cheaper model of the same endpoint for small tasks (summary, question, highlights, an agent's spark-1-mini); LLM_MODEL when unset. */
      smallModel: str('LLM_SMALL_MODEL'),
      timeoutMs: int('LLM_TIMEOUT_MS', 30_000),
      /** The endpoint runs where the operator keeps data (a local Ollama, vLLM…): only then may zero-data-retention jobs send it pages. */
      local: bool('LLM_IS_LOCAL', false),
      /** Most characters of page text sent to the model for one format (the start of the page's markdown). */
      maxInputChars: positiveInt('LLM_MAX_INPUT_CHARS', 32_000),
      /** redactPII: most chunks of LLM_MAX_INPUT_CHARS the model reads of one page for PERSON and LOCATION; a longer page fails. */
      redactMaxChunks: positiveInt('REDACT_PII_MAX_MODEL_CHUNKS', 8),
    },
    chromium: {
      path: str('CHROMIUM_PATH'),
      headless: bool('CHROMIUM_HEADLESS', true),
      /** false runs Chromium with --no-sandbox: only where the sandbox cannot start, accepting the risk. */
      sandbox: bool('CHROMIUM_SANDBOX', true),
      /** Who Chromium runs as when the worker is root (a user name, or uid[:gid]). */
      user: str('CHROMIUM_USER') ?? 'nobody',
      /** The only variables Chromium inherits: never the worker's secrets. */
      environment: pick(CHROMIUM_ENVIRONMENT),
    },
    sandbox: {
      /** bubblewrap, which walls every execute in (namespaces, a read-only filesystem of the runtimes only, no network). */
      bwrapPath: str('SANDBOX_BWRAP_PATH') ?? '/usr/bin/bwrap',
      /**
       * When the host is root, each session's executes run as a uid of its own from this range (no passwd
       * entry needed): its processes are counted apart from the service's, Chromium's and other sessions'.
       * Pick a range no one else uses.
       */
      uidBase: boundedInt('SANDBOX_UID_BASE', 2_000_000_000, 1000, 4_000_000_000, 'a uid range below 2^32 that no account uses'),
      /** Sessions one browser host can run executes for at once (the size of the uid range). */
      maxSessions: positiveInt('SANDBOX_MAX_SESSIONS', 10_000),
      /** Address space of each sandboxed process (RLIMIT_AS); Node needs about 1.5 GB of it to start. */
      memoryBytes: positiveInt('SANDBOX_MEMORY_BYTES', 2048 * MB),
      /** Processes and threads of one session's sandboxes together (RLIMIT_NPROC, counted per uid). */
      maxProcesses: positiveInt('SANDBOX_MAX_PROCESSES', 256),
      /** Largest file a sandboxed process may write (RLIMIT_FSIZE). */
      maxFileBytes: positiveInt('SANDBOX_MAX_FILE_BYTES', 64 * MB),
      /** Size of each run's private /tmp (a tmpfs, counted in the host's memory). */
      tmpBytes: positiveInt('SANDBOX_TMP_BYTES', 128 * MB),
      /** Open files per sandboxed process (RLIMIT_NOFILE). */
      maxOpenFiles: positiveInt('SANDBOX_MAX_OPEN_FILES', 1024),
      /** stdout, stderr and result of one execute are each cut at this many bytes. */
      maxOutputBytes: positiveInt('SANDBOX_MAX_OUTPUT_BYTES', MB),
      /** Keep a node and a python runner started and attached per session, so an execute starts at once. */
      warmRunners: bool('SANDBOX_WARM_RUNNERS', true),
      /** How long a session's agent-browser daemon may take to start and attach. */
      daemonStartTimeoutMs: positiveInt('SANDBOX_DAEMON_START_TIMEOUT_MS', 20_000),
      /** The Python that runs python executes (its prefix is mounted read-only into the sandbox). */
      python: str('SANDBOX_PYTHON') ?? 'python3',
      /** Where the Python Playwright package lives (bootstrap installs it into .tools/python). */
      pythonPackagesPath: str('PYTHON_PACKAGES_PATH'),
    },
    search: {
      /** Index every stored page in the local search index (zero-data-retention pages never are). */
      indexPages: bool('SEARCH_INDEX_PAGES', true),
      /**
       * Let every team find pages fetched without credentials (no custom headers, cookies or actions) by
       * any team's jobs. For single-tenant deployments; off, a team finds only pages its own jobs fetched.
       */
      sharePublicPages: bool('SEARCH_SHARE_PUBLIC_PAGES', false),
      /** Search the local index (POST /v2/search); off leaves only the configured web engines. */
      local: bool('SEARCH_LOCAL', true),
      /** Matching pages the local index ranks exactly per query (taken by page score first). */
      candidates: positiveInt('SEARCH_CANDIDATES', 200),
      /** Longest one query of the local index may run; past it the index is reported as not answering. */
      statementTimeoutMs: positiveInt('SEARCH_STATEMENT_TIMEOUT_MS', 5000),
      /** A SearXNG instance (http(s)://host:port) for the open web, searched after the local index; unset: none. */
      searxngUrl: searxngUrl(str('SEARXNG_URL')),
      /** SearXNG's `engines` parameter (comma-separated names); unset: the instance's defaults. */
      searxngEngines: str('SEARXNG_ENGINES'),
      searxngMaxResponseBytes: positiveInt('SEARXNG_MAX_RESPONSE_BYTES', 5 * MB),
      /** Result pages (about 20 results each) read per search at most. */
      searxngMaxPages: positiveInt('SEARXNG_MAX_PAGES', 3),
    },
    browserSessions: {
      /** This host's id (its task queue is <TEMPORAL_TASK_QUEUE>-host-<id>); unset: a new random id each start. */
      hostId: str('BROWSER_HOST_ID'),
      /** Where the host's CDP relay listens; gateways connect to it with the host's secret. */
      hostBind: str('BROWSER_HOST_BIND') ?? '127.0.0.1',
      /** 0: an ephemeral port. */
      hostPort: int('BROWSER_HOST_PORT', 0),
      /** How gateways reach the relay (ws://host:port), recorded in browser_host; unset: ws://BIND:PORT. */
      hostUrl: str('BROWSER_HOST_URL'),
      /** Sessions one host runs at once; beyond it new sessions go to another host or are refused (503). */
      maxSessionsPerHost: positiveInt('BROWSER_HOST_MAX_SESSIONS', 20),
      /** A host whose heartbeat is older than this gets no new sessions. */
      hostStaleMs: positiveInt('BROWSER_HOST_STALE_MS', 15_000),
      /** At most one idle-timer touch per session and gateway per this interval (and a third of activityTtl at most). */
      touchIntervalMs: positiveInt('BROWSER_TOUCH_INTERVAL_MS', 15_000),
      /**
       * When the host is root, each session's Chromium runs as a uid of its own from this range (instead of
       * CHROMIUM_USER), apart from other sessions' browsers and from their executes' uids (SANDBOX_UID_BASE).
       */
      chromiumUidBase: boundedInt('BROWSER_CHROMIUM_UID_BASE', 2_100_000_000, 1000, 4_000_000_000, 'a uid range below 2^32 that no account uses'),
      /** Largest saved profile (gzipped storage folders and cookies); a bigger one is not saved and the old state is kept. */
      profileMaxBytes: positiveInt('BROWSER_PROFILE_MAX_BYTES', 50 * MB),
      /** How long a saving session's browser may take to close cleanly (its storage flushed) before it is killed unsaved. */
      profileCloseTimeoutMs: positiveInt('BROWSER_PROFILE_CLOSE_TIMEOUT_MS', 10_000),
      /** Largest CDP message the proxy and relay pass (screenshots are large). */
      maxCdpMessageBytes: positiveInt('BROWSER_CDP_MAX_MESSAGE_BYTES', 128 * MB),
      /** Lifetime of the session POST /v2/scrape/{id}/interact opens on the scrape's page. */
      interactTtlSeconds: boundedInt('INTERACT_TTL_SECONDS', 600, 30, 3600, 'seconds from 30 to 3600'),
      /** Seconds without a call before that session ends. */
      interactActivityTtlSeconds: boundedInt('INTERACT_ACTIVITY_TTL_SECONDS', 300, 10, 3600, 'seconds from 10 to 3600'),
    },
    defaultTeam: {
      credits: int('DEFAULT_TEAM_CREDITS', 1_000_000),
      concurrency: int('DEFAULT_TEAM_CONCURRENCY', 4),
    },
    parse: {
      /** Largest file POST /v2/parse accepts; the upload is cut off (413) as soon as it passes this. */
      maxFileBytes: positiveInt('PARSE_MAX_FILE_BYTES', 50 * MB),
      /** Upload bytes one gateway holds at once (read, waiting for a slot, converting); beyond it a parse is a 503. */
      maxInflightBytes: positiveInt('PARSE_MAX_INFLIGHT_BYTES', 200 * MB),
      /** Largest total a DOCX's zip entries may inflate to (a zip bomb is refused before it is unpacked). */
      maxUnpackedBytes: positiveInt('PARSE_MAX_UNPACKED_BYTES', 200 * MB),
      /** Threads of the gateway that convert uploads beside its event loop (started on the first upload). */
      conversionThreads: positiveInt('PARSE_CONVERSION_THREADS', 1),
      /** Longest one upload's conversion may take; its thread is then replaced and the request fails (422). */
      conversionTimeoutMs: positiveInt('PARSE_CONVERSION_TIMEOUT_MS', 60_000),
    },
    /**
     * OCR (pdf parser mode ocr and auto, the image parser): Debian's tesseract, with pdftoppm
     * rendering PDF pages and avifdec decoding AVIF, each run as a child process with these limits.
     */
    ocr: {
      tesseractPath: str('OCR_TESSERACT_PATH') ?? 'tesseract',
      pdftoppmPath: str('OCR_PDFTOPPM_PATH') ?? 'pdftoppm',
      avifdecPath: str('OCR_AVIFDEC_PATH') ?? 'avifdec',
      /** Tesseract's -l: trained languages joined by +, each installed (Debian: tesseract-ocr-<lang>). */
      languages: str('OCR_LANGUAGES') ?? 'eng',
      /** Resolution PDF pages are rendered at for OCR; a page that would pass OCR_MAX_PIXELS is rendered at less. */
      dpi: boundedInt('OCR_DPI', 300, 72, 600, 'tesseract reads text best at 300 dpi'),
      /** Largest image (width × height) read by OCR: a larger image fails its page; a larger PDF page is rendered smaller. */
      maxPixels: positiveInt('OCR_MAX_PIXELS', 40_000_000),
      /** Pages of one document read by OCR; later pages that need it are left out with a warning. */
      maxPages: positiveInt('OCR_MAX_PAGES', 50),
      /** Longest the rendering and the recognition of one page may take each; the page is then left out with a warning. */
      pageTimeoutMs: positiveInt('OCR_PAGE_TIMEOUT_MS', 30_000),
      /** Longest all the OCR of one document may take (a scrape's own timeout may end it sooner); pages not reached are left out with a warning. */
      documentTimeoutMs: positiveInt('OCR_DOCUMENT_TIMEOUT_MS', 120_000),
      /** Address space of each OCR process (ulimit -v); one that needs more fails its page. */
      memoryMb: positiveInt('OCR_MEMORY_MB', 1024),
      /** OCR processes one service process runs at once (each uses one core); the others wait. */
      concurrency: positiveInt('OCR_CONCURRENCY', 1),
    },
    agent: {
      /** Steps (a model call and a tool run) an agent may take; one that has not answered by then ends failed. */
      maxSteps: positiveInt('AGENT_MAX_STEPS', 20),
      /** Credits an agent's tools may spend when the request gives no maxCredits; past them the agent ends failed. */
      defaultMaxCredits: positiveInt('AGENT_DEFAULT_MAX_CREDITS', 2500),
      /** Most characters of one tool's answer (a page's markdown, a list of links) the model reads; the rest is cut. */
      maxObservationChars: positiveInt('AGENT_MAX_OBSERVATION_CHARS', 12_000),
      /** How long a scrape or map run as a tool may take before it counts as failed for the model. */
      toolTimeoutMs: positiveInt('AGENT_TOOL_TIMEOUT_MS', 60_000),
      /** Hours an ended agent's answer stays readable (expiresAt). */
      resultTtlHours: positiveInt('AGENT_RESULT_TTL_HOURS', 24),
    },
  };
}

export type Config = ReturnType<typeof loadConfig>;
