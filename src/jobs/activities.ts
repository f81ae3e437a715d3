// Activities of jobWorkflow, the workflow of every job kind: its settings,
// plan the frontier, scrape a batch (batch/scrape-batch.ts), finish. Each is
// idempotent: rows are keyed by (crawl, url key) and written with upserts,
// charges by (crawl, url key) in the ledger, and a batch's claim is keyed by
// the workflow, so retries and replays never duplicate a page or a charge.
// This factory only wires: each activity's body is a named function of its own module.
import type { Client } from '@temporalio/client';
import { createScrapeBatch } from './batch/scrape-batch.ts';
import { workflowBatchReporter } from './batch/batch-reports.ts';
import { createCrawlNetwork, type CrawlNetwork } from '../platform/net/outbound-network.ts';
import { chromiumLaunch } from '../platform/browser/chromium-launch.ts';
import { createWarmBrowser } from '../platform/browser/warm-browser.ts';
import type { ActivityDeps } from '../platform/temporal/activity-deps.ts';
import type { JobSettings } from './config.ts';
import { heartbeatingAttempt } from '../platform/temporal/attempt-record.ts';
import { createConversionPool } from '../page/conversion/conversion-pool.ts';
import { convertInline, type HtmlConverter } from '../page/conversion/html-conversion.ts';
import { createImageProbe } from '../page/rendering/image-probe.ts';
import { createOcrEngine } from '../page/ocr/ocr-engine.ts';
import { SqlTransactions } from '../platform/db/sql-transactions.ts';
import { crawlSettings } from './run-settings.ts';
import { openSingleScrape, type SingleScrapeStart } from './open-single-scrape.ts';
import { queueForBrowser, type BrowserWait } from './queue-for-browser.ts';
import { planCrawl } from './plan-crawl.ts';
import { finishCrawl, type FinishCrawlInput } from './finish-crawl.ts';
import { adjustJob, recordPause } from './job-controls.ts';
import { HostGate } from './politeness/host-gate.ts';
import { sharedTierStore } from '../platform/net/proxy-pools/shared-tiers.ts';
// Declares the frontier's gauges in the processes that run these activities.
import './frontier/frontier-metrics.ts';

export type { FinishCrawlInput, FinishCrawlResult } from './finish-crawl.ts';
export { CREDITS_WARNING, ROBOTS_WARNING } from './finish-crawl.ts';
export type { ScrapeBatchInput, ScrapeBatchResult } from './batch/scrape-batch.ts';

type CrawlActivityDeps = ActivityDeps<JobSettings> & { network: CrawlNetwork; temporal?: Client };

export function createJobActivities(given: ActivityDeps<JobSettings> & { network?: CrawlNetwork; temporal?: Client }) {
  const deps: CrawlActivityDeps = { ...given, network: given.network ?? createCrawlNetwork(given.config, given.log) };
  // What proxy auto learns of a host on this worker, every worker starts that host with.
  if (deps.network.proxies.configured)
    deps.network.proxies.shareTiers(sharedTierStore(deps.db, { shareMs: deps.config.crawl.proxyTierShareMs, log: deps.log }));
  /** Heartbeats on a clock, its attempt's record included: the workflow gives the activity the crawl's heartbeat timeout. */
  const recorded = <T>(work: () => Promise<T>) => heartbeatingAttempt(deps, { heartbeatTimeoutMs: deps.config.crawl.heartbeatTimeoutMs }, work);
  return {
    /** Local activity: how this deployment runs the crawl (run-settings.ts). Read once per workflow run. */
    crawlSettings: (crawlId: string) => crawlSettings(deps, crawlId),
    /** Local activity: a single scrape's settings, plan and first browser demand at once (open-single-scrape.ts). */
    openSingleScrape: async (start: SingleScrapeStart) => {
      const started = performance.now();
      const opened = await openSingleScrape(deps, start);
      // What bench/scrape.ts tells apart from the rest of the first workflow task.
      deps.log.debug('open timings', { crawlId: start.crawlId, openMs: performance.now() - started });
      return opened;
    },
    /** Local activity: a batch of the crawl is about to wait for a browser slot. */
    queueForBrowser: (work: BrowserWait) => queueForBrowser(deps, work),
    /** A single scrape runs it as a local activity (only its frontier's claims and counts: no fetch). */
    planCrawl: (crawlId: string) => recorded(() => planCrawl(deps, crawlId)),
    scrapeBatch: batchScraper(deps),
    finishCrawl: (input: FinishCrawlInput) => recorded(() => finishCrawl(deps, input)),
    /** Local activity: a pause or resume on the job's row (job-controls.ts). */
    recordPause: (input: Parameters<typeof recordPause>[1]) => recordPause(deps, input),
    /** Local activity: an `adjust` update's new options, checked against the database (job-controls.ts). */
    adjustJob: (input: Parameters<typeof adjustJob>[1]) => adjustJob(deps, input),
  };
}

/** The scrapeBatch activity with the worker's page machinery: conversion threads, image probes, browsers, OCR. */
function batchScraper({ db, config, log, network, temporal }: CrawlActivityDeps) {
  // Pages are converted off the event loop (see conversion-pool.ts) unless CRAWL_CONVERSION_THREADS=0.
  const convertPage: HtmlConverter =
    config.crawl.conversionThreads > 0
      ? createConversionPool({ threads: config.crawl.conversionThreads, timeoutMs: config.crawl.conversionTimeoutMs }).convert
      : convertInline;
  const warmBrowser = config.crawl.warmBrowserIdleMs > 0 ? createWarmBrowser({ idleMs: config.crawl.warmBrowserIdleMs }) : undefined;
  // Each batch (crawls' and single scrapes') writes one group of pages at a time; a spare connection for the page written alone after a group failed.
  const pageStore = config.database.url
    ? new SqlTransactions({ databaseUrl: config.database.url, max: config.worker.browserSlots + config.worker.scrapeSlots + 1, limits: config.database })
    : db;
  // Host turns are one short statement each, on connections of their own so page writes never hold them up.
  const hostGate = new HostGate({
    db: config.database.url ? new SqlTransactions({ databaseUrl: config.database.url, max: config.worker.browserSlots + 1, limits: config.database }) : db,
    settings: config.crawl,
    warn: (message, fields) => log.warn(message, fields),
  });
  return createScrapeBatch({
    db,
    config,
    log,
    network,
    hostGate,
    browser: chromiumLaunch(config.chromium),
    warmBrowser,
    convert: convertPage,
    probeImages: createImageProbe(network.fetchImageHead, { timeoutMs: config.crawl.imageProbeTimeoutMs }),
    pageStore,
    ocr: createOcrEngine(config.ocr),
    reporter: temporal && workflowBatchReporter(temporal),
  });
}

export type JobActivities = ReturnType<typeof createJobActivities>;
