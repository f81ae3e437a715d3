// Temporal's and the worker's sections of the settings (src/config.ts composes them all).
import { bool, boundedInt, int, positiveInt, str } from '../config/env.ts';

/**
 * How processes reach Temporal over TLS; undefined: plaintext. Any file, the server name or an API
 * key turns TLS on (an API key is a bearer secret, never sent in the clear). The files are read
 * once at start (connection-options.ts).
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

/** A deployment's task queues, named after its control queue unless each is set on its own. */
export function taskQueuesOf(taskQueue: string) {
  return {
    taskQueue,
    browserTaskQueue: `${taskQueue}-browser`,
    scrapeTaskQueue: `${taskQueue}-scrape`,
    webhookTaskQueue: `${taskQueue}-webhooks`,
  };
}

export function temporalConfig() {
  const queues = taskQueuesOf(str('TEMPORAL_TASK_QUEUE') ?? 'crawl');
  return {
    /** Unset: `npm start` runs the Temporal dev server itself. */
    address: str('TEMPORAL_ADDRESS'),
    tls: temporalTls(),
    /** A Temporal Cloud API key, sent as a bearer token on every call (over TLS only). */
    apiKey: str('TEMPORAL_API_KEY'),
    namespace: str('TEMPORAL_NAMESPACE') ?? 'default',
    /** Control work: every workflow but single scrapes', and the activities that never wait for a browser (plan, finish, purge). */
    taskQueue: queues.taskQueue,
    /** Browser work: scrape batches, each with a Chromium of its own; a worker runs WORKER_BROWSER_SLOTS at once. */
    browserTaskQueue: str('TEMPORAL_BROWSER_TASK_QUEUE') ?? queues.browserTaskQueue,
    /**
     * Single scrapes (one page each, a caller waiting): their workflows and batches on a queue of
     * their own, so that a batch never waits behind crawls' batches for one of the few browser
     * slots (a page fetched over HTTP needs no browser; one rendered takes a context of the
     * worker's warm Chromium) and is handed to the worker that scheduled it (eager dispatch).
     */
    scrapeTaskQueue: str('TEMPORAL_SCRAPE_TASK_QUEUE') ?? queues.scrapeTaskQueue,
    /** Network I/O: webhook deliveries, many at once per worker, never in a browser's place. */
    webhookTaskQueue: str('TEMPORAL_WEBHOOK_TASK_QUEUE') ?? queues.webhookTaskQueue,
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
  };
}

export type TemporalSettings = ReturnType<typeof temporalConfig>;

export function workerConfig() {
  return {
    shutdownGraceMs: int('WORKER_SHUTDOWN_GRACE_MS', 30_000),
    /** Browsers (scrape batches, each its own Chromium) one worker runs at once. */
    browserSlots: positiveInt('WORKER_BROWSER_SLOTS', 2, 'WORKER_MAX_BROWSER_BATCHES'),
    /** Single scrapes' batches one worker runs at once (each one page; rendered ones share the warm Chromium). */
    scrapeSlots: positiveInt('WORKER_SCRAPE_SLOTS', 8),
    /** Control activities (plan, finish, purge) one worker runs at once; they wait on the database only. */
    controlSlots: positiveInt('WORKER_CONTROL_SLOTS', 50),
    /** How far the worker's heap may grow past what is live before a full collection (platform/process/heap-growth.ts); 0: V8 decides. */
    heapGrowthPercent: boundedInt('WORKER_HEAP_GROWTH_PERCENT', 50, 0, 300, "V8's own factor is at most 4x, i.e. 300 %"),
    /**
     * A worker process whose database heartbeat (every 2 s) is this old is dead: live workers fail its
     * running attempts at once so that they are retried (abandoned-attempts.ts).
     */
    deadAfterMs: boundedInt('WORKER_DEAD_AFTER_MS', 10_000, 6_000, 3_600_000, 'a worker heartbeats every 2 s; three beats must fit in it'),
  };
}

export type WorkerSettings = ReturnType<typeof workerConfig>;
