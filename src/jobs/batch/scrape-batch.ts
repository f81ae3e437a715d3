// The scrapeBatch activity: one browser's worth of a job, on the browser queue.
// It holds a browser lease while it runs (fair share between crawls, see
// platform/browser/browser-share.ts; a single scrape's only once its page goes
// to Chromium), puts the batch's parts together
// (run-batch.ts), heartbeats its progress and renews its leases, and completes
// only when every URL it claimed is stored; otherwise it fails and its retry
// (same batch key, same URLs) handles the rest.
import { Context } from '@temporalio/activity';
import {
  endBrowserLease,
  meetBrowserDemand,
  renewBrowserLease,
  shouldYield,
  startBrowserLease,
  type BrowserWork,
} from '../../platform/browser/browser-share.ts';
import type { ChromiumLaunch } from '../../platform/browser/chromium-launch.ts';
import type { WarmBrowser } from '../../platform/browser/warm-browser.ts';
import { BoundedMap } from '../../platform/bounded-map.ts';
import { GroupCommit } from '../../platform/db/group-commit.ts';
import type { CrawlNetwork } from '../../platform/net/outbound-network.ts';
import type { ActivityDeps } from '../../platform/temporal/activity-deps.ts';
import type { JobSettings } from '../config.ts';
import type { Logger } from '../../platform/log.ts';
import { REFILL_POLL_MS } from '../../page/browser-scraper.ts';
import { describeError } from '../../page/describe-error.ts';
import type { HtmlConverter } from '../../page/conversion/html-conversion.ts';
import type { ImageProbe } from '../../page/rendering/image-probe.ts';
import { requestNeedsBrowser } from '../../page/rendering/needs-browser.ts';
import { threatRefusal } from '../../page/threat-policy.ts';
import type { OcrEngine } from '../../page/ocr/ocr-engine.ts';
import { parsesImages } from '../../page/scrape-options.ts';
import type { JobCounts } from '../definitions.ts';
import { jobCounts } from '../job-status.ts';
import { jobModel } from '../job-model.ts';
import { loadJob, type JobContext } from '../job-context.ts';
import { cacheKey, lookupCache } from '../pages/page-cache.ts';
import { storeFailedPage, storeScrapedPage, storeScrapedPages, type PageStoreDb, type PageWrite } from '../pages/page-store.ts';
import { BATCH_RETRY } from '../retry-policies.ts';
import { attemptEnd, type AttemptEnd } from './attempt-end.ts';
import { BatchLeases } from './batch-leases.ts';
import type { BatchReporter } from './batch-reports.ts';
import { createBatchLoaders } from './batch-loaders.ts';
import { BatchTally } from './batch-tally.ts';
import { StallWatch } from './stall-watch.ts';
import { FrontierSource, type RunningBatches } from './frontier-source.ts';
import { createPageHandler, type PageHandler } from './page-handler.ts';
import { lanesFirst, type RoutingRules } from './route-target.ts';
import { runBatch, type BatchLoaders, type BatchParts } from './run-batch.ts';
import { teamSlotStore } from './team-slot-store.ts';
import { heartbeatIntervalMs } from '../../platform/temporal/heartbeat-while.ts';
import type { HostGate } from '../politeness/host-gate.ts';
import { signalOwnWorkflow, throttleNotices } from '../politeness/throttle-notices.ts';
import { heartbeatingAttempt } from '../../platform/temporal/attempt-record.ts';

export interface ScrapeBatchInput {
  crawlId: string;
  /** Unique per batch of a workflow run; a retry reuses it and so gets the same URLs. */
  batchKey: string;
  /** Most URLs the batch claims in all; it claims them as they are found, while it runs. */
  size: number;
  /** Pages open at once in this batch's browser. */
  concurrency: number;
}

export interface ScrapeBatchResult {
  claimed: number;
  succeeded: number;
  failed: number;
  /** URLs waiting in the frontier after this batch. */
  queued: number;
  /** The team's balance cannot pay for another page: the crawl stops here. */
  outOfCredits: boolean;
  /** The batch ended because nothing was left to claim (not because it reached its size). */
  starved?: boolean;
  /** The batch stopped claiming to give its browser to another crawl (fair share); its crawl has more to do. */
  yielded?: boolean;
  /** Its workflow told the batch to stop (a pause, an adjustment): what it left is in the frontier. */
  recalled?: boolean;
  /** The job's counts when the batch ended, for its workflow's progress (absent in results recorded before they were read). */
  counts?: JobCounts;
}

/** Pages whose throttled answers in Chromium a worker counts (HOST_THROTTLE_MAX_RETRIES). */
const THROTTLED_PAGES = 10_000;

/** Crawls whose script-rendered hosts a worker remembers (CRAWL_RENDERING=auto), and hosts per crawl. */
const SCRIPTED_HOST_CRAWLS = 1_000;
const SCRIPTED_HOSTS_PER_CRAWL = 10_000;

/**
 * How long a batch with nothing to do waits for other batches of its crawl to find
 * links. Waiting costs nobody: an idle batch holds no browser yet, and gives its worker
 * slot up at once to any other crawl's waiting batch (fair share). It must be long
 * enough for a slow site's first pages to yield links, or the crawl would run with
 * fewer browsers until a batch ends (a starved batch is not replaced before that).
 */
const BATCH_IDLE_MS = 120_000;

/**
 * A batch claims no new URLs after running this long, so that even pages that use their
 * whole timeout (at most 5 minutes) end it well within its 30-minute start-to-close limit.
 */
const BATCH_CLAIM_WINDOW_MS = 10 * 60_000;

/**
 * How often a running batch asks whether another crawl should have its browser, or some of its
 * team slots. Half a second: a newcomer's wait for a browser is this plus the yielding batch's
 * pages in flight, and the two small queries per batch per tick cost the database little.
 */
const FAIR_SHARE_CHECK_MS = 500;

/** Most pages stored in one transaction (they are the pages that finished while the previous one ran). */
const PAGE_WRITE_GROUP = 32;

/** How much longer than a page's own time limit a batch may settle nothing with work in hand before it says it is stalled. */
const STALL_SLACK_MS = 15_000;

/** Least time between two reports of a batch to its workflow, whatever CRAWL_PROGRESS_INTERVAL_MS says (0 in tests). */
const MIN_REPORT_MS = 250;

export interface ScrapeBatchDeps extends ActivityDeps<JobSettings> {
  network: CrawlNetwork;
  browser: ChromiumLaunch;
  /** Single scrapes open their page in this running browser (CRAWL_WARM_BROWSER_IDLE_MS > 0). */
  warmBrowser?: WarmBrowser;
  convert: HtmlConverter;
  probeImages: ImageProbe;
  /** Where the batch's pages are written (page-store.ts): a worker's own pg pool, or the Prisma client. */
  pageStore: PageStoreDb;
  ocr: OcrEngine;
  /** Reports progress to the batch's workflow and asks it whether to stop; without it, a batch reports only its result. */
  reporter?: BatchReporter;
  /** The worker's turns at hosts, from the budget every job shares (jobs/politeness/). */
  hostGate: HostGate;
}

/** How the running attempt ends its browser demand and lease (attempt-end.ts), from what Temporal says of it. */
function thisAttemptEnd(threw: boolean, leased: boolean): AttemptEnd {
  const ctx = Context.current();
  const maximumAttempts = BATCH_RETRY.maximumAttempts ?? Infinity;
  return attemptEnd({ threw, leased, attempt: ctx.info.attempt, maximumAttempts, cancellation: ctx.cancellationDetails });
}

export function createScrapeBatch(deps: ScrapeBatchDeps) {
  const { db, config } = deps;
  /**
   * CRAWL_RENDERING=auto: hosts whose pages looked script-rendered, per crawl, so that the crawl's
   * later batches on this worker send them straight to Chromium. Only an optimisation: a worker that
   * restarts, or another worker, learns it again from one page.
   */
  const scriptedHosts = new BoundedMap<string, Set<string>>(SCRIPTED_HOST_CRAWLS);
  const throttledPages = new BoundedMap<string, number>(THROTTLED_PAGES);

  /**
   * One browser's worth of a job, on the browser queue: holds a browser lease while it runs
   * (fair share, see platform/browser/browser-share.ts) and waits for a slot again if it fails.
   * Its demand is met, its job read and its attempt recorded at once: three round trips in one.
   */
  return async function scrapeBatch(input: ScrapeBatchInput): Promise<ScrapeBatchResult> {
    const activity = Context.current();
    // Fair share is between the work of one queue: the browser queue's, or single scrapes' own.
    const pool = activity.info.taskQueue;
    const started = Promise.all([loadJob(deps, input.crawlId), meetBrowserDemand(db, { holder: input.batchKey, pool })]);
    // Awaited inside the attempt record below; a failure before that is reported there.
    started.catch(() => undefined);
    const leaseMs = config.crawl.heartbeatTimeoutMs * 2;
    const tally = new BatchTally((handled) => activity.heartbeat({ handled }));
    // Heartbeats from the first statement on, not from the batch's first page (heartbeatingAttempt).
    // If this process dies, a live worker fails this attempt at once and frees its slots (abandoned-attempts.ts).
    const holderPrefix = slotHolderPrefix(input.batchKey, activity.info.attempt);
    const attempt = {
      holderPrefix,
      heartbeatTimeoutMs: config.crawl.heartbeatTimeoutMs,
      details: () => ({ handled: tally.handled }),
    };
    return heartbeatingAttempt(deps, attempt, async () => {
      const [job] = await started;
      const work = { holder: input.batchKey, pool, teamId: job.team.id, groupId: input.crawlId };
      return runWithBrowserLease({ deps, input, job, work, leaseMs, holderPrefix, tally, scriptedHosts, throttledPages });
    });
  };
}

/** What an attempt of a batch runs with. */
interface BatchAttempt {
  deps: ScrapeBatchDeps;
  input: ScrapeBatchInput;
  job: JobContext;
  work: BrowserWork;
  leaseMs: number;
  /** What the attempt leases (team slots, host turns) is held as `<holderPrefix>:…` (slotHolderPrefix). */
  holderPrefix: string;
  /** What the attempt has done, which its heartbeats report from its start. */
  tally: BatchTally;
  /** The worker's script-rendered hosts, per crawl (createScrapeBatch). */
  scriptedHosts: BoundedMap<string, Set<string>>;
  /** Throttled answers Chromium got per page of the worker's jobs (`<crawl id>:<url key>`). */
  throttledPages: BoundedMap<string, number>;
}

/**
 * The batch holding its browser lease, which it gives up (asking again if it will be retried) when
 * it ends. A single scrape takes it only once its page goes to a browser: one fetched over HTTP
 * never holds a browser, and its lease would be two writes on its caller's wait.
 */
async function runWithBrowserLease(a: BatchAttempt): Promise<ScrapeBatchResult> {
  const { db, log } = a.deps;
  let leasing: Promise<void> | undefined;
  const leaseBrowser = () => (leasing ??= startBrowserLease(db, a.work, a.leaseMs));
  if (a.job.kind !== 'scrape') await leaseBrowser();
  let threw = false;
  try {
    return await runLeased(a, leaseBrowser);
  } catch (err) {
    threw = true;
    throw err;
  } finally {
    const end = thisAttemptEnd(threw, leasing !== undefined);
    if (end === 'end' || end === 'end-and-wait-again') {
      await endBrowserLease(db, a.work, { willRetry: end === 'end-and-wait-again' }).catch((err) =>
        log.warn('browser lease release failed', { crawlId: a.input.crawlId, error: describeError(err) }),
      );
    }
  }
}

/** The batch's body, run while it holds its browser lease, or (a single scrape) takes it before it opens a browser (`leaseBrowser`). */
async function runLeased(a: BatchAttempt, leaseBrowser: () => Promise<void>): Promise<ScrapeBatchResult> {
  const { db } = a.deps;
  const { crawlId } = a.input;
  if (a.job.team.creditBalance <= 0) {
    const counts = await jobCounts(db, crawlId);
    return { claimed: 0, succeeded: 0, failed: 0, queued: counts.queued, outOfCredits: true, counts };
  }
  const batch = new LeasedBatch(a);
  const stopTickers = batch.startTickers();
  try {
    await runBatch(batch.parts(leaseBrowser));
  } finally {
    stopTickers();
    await batch.leases
      .close()
      .catch((err) => batch.log.warn('slot release failed; tried again in the background until its lease lapses', { error: describeError(err) }));
  }
  return batch.result();
}

/** A batch's parts (see run-batch.ts) over this worker's database, browser and settings, and what it reports to Temporal. */
class LeasedBatch {
  readonly log: Logger;
  readonly leases: BatchLeases;
  private readonly activity: Context;
  private readonly signal: AbortSignal;
  private readonly started: number;
  private readonly tally: BatchTally;
  private readonly source: FrontierSource;
  private readonly indexing: boolean;
  private readonly handler: PageHandler;
  private readonly scripted: Set<string>;
  private readonly rules: RoutingRules;
  /** Pages handled when the batch last reported the job's counts. */
  private reported = 0;
  /** The running batches from the workflow's last answer to the batch (FrontierSource releases what others no longer settle). */
  private running: RunningBatches | undefined;

  constructor(private readonly a: BatchAttempt) {
    const { deps, input, job } = a;
    const { db, config } = deps;
    const { crawlId } = input;
    const { options, team } = job;
    const so = options.scrapeOptions;
    const zdr = options.zeroDataRetention;
    this.log = deps.log.child({ crawlId, batchKey: input.batchKey });
    const activity = (this.activity = Context.current());
    this.signal = activity.cancellationSignal;
    this.started = Date.now();
    const tally = (this.tally = a.tally);
    const leases = (this.leases = new BatchLeases({
      holderPrefix: a.holderPrefix,
      slots: teamSlotStore(db, { teamId: team.id, group: crawlId, limit: team.concurrencyLimit, leaseMs: a.leaseMs }),
      browser: { renew: () => renewBrowserLease(db, input.batchKey, a.leaseMs), shouldYield: (q) => shouldYield(db, { ...a.work, ...q }) },
    }));
    const source = (this.source = new FrontierSource({
      db,
      crawlId,
      batchKey: input.batchKey,
      teamId: team.id,
      size: input.size,
      tally,
      stopping: () => leases.yielding,
      claimWindowMs: BATCH_CLAIM_WINDOW_MS,
      idleMs: BATCH_IDLE_MS,
      runningBatches: () => this.running,
      onStrays: (released) => this.log.info('claims no running batch will settle put back in the queue', { released }),
    }));
    this.indexing = config.search.indexPages && !zdr;
    this.handler = this.pageHandler(source);
    const scripted = (this.scripted = a.scriptedHosts.getOrSet(crawlId, () => new Set()));
    this.rules = {
      cacheOnly: so.minAge !== undefined,
      rendering: config.crawl.rendering,
      browserRequired: requestNeedsBrowser(so),
      scriptedHost: (host: string) => scripted.has(host),
      threatRefusal: (url: string) => threatRefusal(url, job.threat),
      imageFiles: parsesImages(so),
    };
  }

  /** Pages handled at once (browser tabs, HTTP lanes) are stored together: see platform/db/group-commit.ts. */
  private pageHandler(source: FrontierSource): PageHandler {
    const { deps, job } = this.a;
    const { db, config } = deps;
    const zdr = job.options.zeroDataRetention;
    const cacheFailed = (err: unknown) => this.log.warn('page cache write failed', { error: describeError(err) });
    const pageWrites = new GroupCommit<PageWrite>({
      writeGroup: async (writes) => void (await storeScrapedPages(deps.pageStore, writes, cacheFailed)),
      writeOne: async ({ page, next }) => void (await storeScrapedPage(deps.pageStore, page, next, cacheFailed)),
      maxGroup: PAGE_WRITE_GROUP,
    });
    return createPageHandler({
      job,
      limits: config.crawl,
      indexing: this.indexing,
      // Under zero data retention the page goes to no one else, a model not marked local included.
      llm: jobModel(config.llm, zdr),
      redactMaxChunks: config.llm.redactMaxChunks,
      convert: deps.convert,
      probeImages: deps.probeImages,
      writer: { page: (write) => pageWrites.write(write), failure: (page, webhook) => storeFailedPage(db, page, webhook) },
      tally: this.tally,
      depthOf: (key) => source.depthOf(key),
      log: this.log,
      signal: this.signal,
    });
  }

  /** Lease renewals, stall checks and fair-share checks while the batch runs (its heartbeats run from the attempt's start); returns what stops them. */
  startTickers(): () => void {
    const { leases, source, log, started } = this;
    const { crawl } = this.a.deps.config;
    const stall = new StallWatch(this.a.job.options.scrapeOptions.timeout + STALL_SLACK_MS);
    const ticker = setInterval(() => {
      this.tellStall(stall);
      leases.renew().catch((err) => log.warn('lease renewal failed', { error: describeError(err) }));
    }, heartbeatIntervalMs(crawl.heartbeatTimeoutMs));
    let asking = false;
    const fairShareTicker = setInterval(() => {
      if (asking) return;
      asking = true;
      // A retry first settles the rows its earlier attempt held; only then may it step aside.
      const mayYield = !leases.yielding && source.earlierTaken;
      const yieldCheck = mayYield
        ? leases.checkYield({ sliceUsed: Date.now() - started >= crawl.browserTimeSliceMs, idle: source.idle }).then((to) => {
            if (to) log.info('batch gives its browser up', { to, afterMs: Date.now() - started });
          })
        : undefined;
      Promise.all([leases.checkShare(), yieldCheck])
        .catch((err) => log.warn('fair-share check failed', { error: describeError(err) }))
        .finally(() => (asking = false));
    }, FAIR_SHARE_CHECK_MS);
    const reportTicker = this.startReports();
    return () => {
      clearInterval(ticker);
      clearInterval(fairShareTicker);
      clearInterval(reportTicker);
    };
  }

  /** A stall (stall-watch.ts), told with what the batch holds and waits for. */
  private tellStall(stall: StallWatch): void {
    const { tally, leases, source, activity } = this;
    const stalledMs = stall.check(Date.now(), tally.handled, tally.inFlight > 0 || !source.idle);
    if (stalledMs === undefined) return;
    this.log.warn('batch stalled: work in hand and nothing settled (a slow site or a paused host, or a wait in this worker)', {
      stalledMs,
      attempt: activity.info.attempt,
      claimed: tally.claimed,
      todo: tally.todo,
      handled: tally.handled,
      leases: leases.state(),
      idle: source.idle,
      earlierTaken: source.earlierTaken,
    });
  }

  /**
   * Every CRAWL_PROGRESS_INTERVAL_MS: the job's counts to the workflow when this batch's pages changed
   * them, and whether to stop. A single scrape's caller waits for its one page: it reports nothing.
   */
  private startReports(): NodeJS.Timeout | undefined {
    const { reporter, config } = this.a.deps;
    if (!reporter || this.a.job.kind === 'scrape') return undefined;
    let asking = false;
    return setInterval(
      () => {
        if (asking) return;
        asking = true;
        this.reportAndAsk(reporter)
          .catch((err) => this.log.warn('progress report to the workflow failed', { error: describeError(err) }))
          .finally(() => (asking = false));
      },
      Math.max(MIN_REPORT_MS, config.crawl.progressIntervalMs),
    );
  }

  private async reportAndAsk(reporter: BatchReporter): Promise<void> {
    const { tally, leases, log } = this;
    const { input, deps } = this.a;
    const workflowId = this.activity.info.workflowExecution?.workflowId;
    if (workflowId === undefined) return;
    const handled = tally.handled;
    if (handled !== this.reported) {
      const counts = await jobCounts(deps.db, input.crawlId);
      await reporter.progress(workflowId, { batchKey: input.batchKey, counts });
      this.reported = handled;
    }
    if (leases.yielding) return;
    const askedAt = Date.now();
    const control = await reporter.control(workflowId, input.batchKey);
    if (control.running) this.running = { keys: control.running, askedAt };
    if (!control.stop) return;
    log.info('batch stops: its workflow asks', { why: control.why, handled });
    leases.recall();
  }

  parts(leaseBrowser: () => Promise<void>): BatchParts {
    const { deps, input, job } = this.a;
    const { db, config } = deps;
    const { scripted, rules, signal, log } = this;
    const so = job.options.scrapeOptions;
    return {
      source: this.source,
      cached: async (targets) => {
        const keys = new Map(targets.map((t) => [cacheKey(t.url, so), t.key]));
        const hits = await lookupCache(db, job.team.id, [...keys.keys()], so, job.options.zeroDataRetention);
        return new Map([...hits].map(([k, load]) => [keys.get(k)!, load]));
      },
      rules,
      handler: this.handler,
      leases: this.leases,
      loaders: leasedBrowser(leaseBrowser, {
        network: deps.network,
        browser: deps.browser,
        // A caller waits for a single scrape: no browser launch for its one page.
        warm: job.kind === 'scrape' ? deps.warmBrowser?.launcher : undefined,
        limits: config.crawl,
        scrapeOptions: so,
        concurrency: input.concurrency,
        measureImages: this.indexing,
        ocr: deps.ocr,
        polite: {
          gate: deps.hostGate,
          teamId: job.team.id,
          holderPrefix: this.a.holderPrefix,
          maxRetries: config.crawl.hostThrottleMaxRetries,
          // Only a crawl reads robots.txt (a scrape's URLs are the caller's, as upstream): its Crawl-delay, unless it ignores robots.txt.
          crawlDelayMs: async (url) => (job.kind === 'crawl' ? job.robots.crawlDelayMs(url) : undefined),
          onThrottled: throttleNotices(signalOwnWorkflow(this.activity, (message, fields) => log.warn(message, fields))),
        },
        browserThrottles: this.a.throttledPages,
        // A single scrape's page cannot wait in a queue: its batch has exactly its one URL.
        ...(job.kind !== 'scrape' && { requeueKey: (target: { key: string }) => `${input.crawlId}:${target.key}` }),
        signal,
        log,
      }),
      concurrency: input.concurrency,
      lanesFirst: lanesFirst(rules),
      // A single scrape's one URL is all it will ever have: no asking for more while it loads.
      fixedUrls: job.kind === 'scrape',
      onScripted: (url) => {
        if (scripted.size < SCRIPTED_HOSTS_PER_CRAWL) scripted.add(new URL(url).host);
      },
      pollMs: REFILL_POLL_MS,
      signal,
      log,
    };
  }

  /** The batch's result once it ran: it completes only when every URL it claimed was handled. */
  async result(): Promise<ScrapeBatchResult> {
    const { signal, tally, source, leases } = this;
    const { input, job, deps } = this.a;
    if (signal.aborted) throw signal.reason;
    if (tally.handled < tally.todo) throw new Error(`batch ${input.batchKey} stopped after ${tally.handled} of ${tally.todo} pages`);
    const { claimed, succeeded, failed } = tally;
    // A single scrape's frontier is its one URL, settled here (or handed back by a yielding batch, which
    // its workflow counts as work left): nothing to count for it, and finishCrawl checks the frontier anyway.
    if (job.kind === 'scrape') return { claimed, succeeded, failed, queued: 0, outOfCredits: source.outOfCredits, starved: source.starved, ...stopped(leases) };
    const counts = await jobCounts(deps.db, input.crawlId);
    return { claimed, succeeded, failed, queued: counts.queued, outOfCredits: source.outOfCredits, starved: source.starved, ...stopped(leases), counts };
  }
}

/** Why the batch stopped early, if it did: it yielded to another crawl, or its workflow recalled it. */
function stopped(leases: BatchLeases): Pick<ScrapeBatchResult, 'yielded' | 'recalled'> {
  return leases.recalled ? { yielded: false, recalled: true } : { yielded: leases.yielding };
}

/** The browser loader, once the batch holds its browser lease. */
function leasedBrowser(leaseBrowser: () => Promise<void>, loaderDeps: Parameters<typeof createBatchLoaders>[0]): BatchLoaders {
  const loaders = createBatchLoaders(loaderDeps);
  return {
    ...loaders,
    browser: async (targets, hooks) => {
      await leaseBrowser();
      await loaders.browser(targets, hooks);
    },
  };
}

/** The attempt is part of the holder: a stopped attempt's late releases must not free its retry's slots. */
function slotHolderPrefix(batchKey: string, attempt: number): string {
  return `${batchKey}:${attempt}`;
}
