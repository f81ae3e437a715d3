// What happens to a loaded page, whichever runner loaded it: the job's rules on
// its redirect, its conversion into a document (off the event loop), its index
// entry, its fields for change tracking's json mode, the links it adds to the
// frontier, its charge, its webhook event, its cache copy and its change-tracking
// snapshot, all written by the injected writer in the page's own transaction.
// A page that fails for what it is (too large, unconvertible, refused by the
// database) fails alone; a writer that fails fails the batch.
import type { CrawlSettings } from '../config.ts';
import { isRejectedData } from '../../platform/db/rejected-data.ts';
import { addUsage, LlmError, type LlmSettings } from '../../platform/llm/chat-completion.ts';
import type { Logger } from '../../platform/log.ts';
import { pageCredits } from '../../platform/usage/credits.ts';
import { describeError, type ScrapeTarget } from '../../page/browser-scraper.ts';
import type { HtmlConverter } from '../../page/conversion/html-conversion.ts';
import { pageEntryFromText, withImageSizes, type PageEntry } from '../../page/index-entry/page-entry.ts';
import { documentFromLoad, type ModelUse } from '../../page/page-document.ts';
import { extractFields } from '../../page/change-tracking/extract-fields.ts';
import { newPage } from '../../page/change-tracking/track-change.ts';
import type { PageDocument } from '../../page/document-schema.ts';
import { pdfParser } from '../../page/scrape-options.ts';
import { changeTrackingOf, type ChangeTrackingFormat } from '../../page/formats/change-tracking/change-tracking-format.ts';
import { answeredCredits } from '../../page/formats/format-costs.ts';
import type { PageLoad } from '../../page/page-load.ts';
import { pageTooLargeMessage } from '../../page/page-size.ts';
import { RedactionError } from '../../page/redaction/redact-document.ts';
import { threatRefusal } from '../../page/threat-policy.ts';
import type { ImageProbe } from '../../page/rendering/image-probe.ts';
import { urlKey } from '../frontier/normalize-url.ts';
import { isTooLong, tooLongReason } from '../frontier/url-length.ts';
import { sortLinks, type JobContext } from '../job-context.ts';
import { chargeEndpoint, discoversLinks } from '../job-kind.ts';
import { cacheKey, cacheWritable } from '../pages/page-cache.ts';
import { DocumentTooLargeError, DuplicateRedirectError, prepareDocument, type PageWrite, type PreparedDocument } from '../pages/page-store.ts';
import { observePageLoad, type LoadPath } from '../pages/page-metrics.ts';
import { fetchedWithoutCredentials } from '../search-index/shareable.ts';
import { crawlWebhook, type JobWebhook } from '../webhooks/crawl-events.ts';
import { placeJsonResult } from '../json-fields.ts';
import type { BatchTally } from './batch-tally.ts';

export interface FailedPage {
  crawlId: string;
  urlKey: string;
  url: string;
  error: string;
  statusCode?: number;
}

/** Where pages go: the page store (page-store.ts), or a test's fake. */
export interface PageWriter {
  page(write: PageWrite): Promise<void>;
  failure(page: FailedPage, webhook?: JobWebhook): Promise<void>;
}

export interface LoadExtras {
  actions?: unknown;
  /** How long the page waited for a team slot. */
  queuedMs?: number;
  /**
   * How the page was loaded. A cached copy is not cached again; a page fetched by an HTTP lane
   * is also asked whether it needs the browser after all, and lists its unsized images.
   */
  path: LoadPath;
  /** How long loading the page took (none for a cached copy). */
  loadMs?: number;
}

export interface PageHandlerDeps {
  job: JobContext;
  limits: Pick<CrawlSettings, 'maxUrlLength' | 'maxPageBytes' | 'maxDocumentBytes' | 'queuedUrlsPerCredit' | 'imageProbes' | 'rendering'>;
  /** Pages go to the search index. */
  indexing: boolean;
  llm?: LlmSettings;
  /** redactPII: most chunks of a page's text the model reads (REDACT_PII_MAX_MODEL_CHUNKS). */
  redactMaxChunks: number;
  convert: HtmlConverter;
  probeImages: ImageProbe;
  writer: PageWriter;
  tally: BatchTally;
  /** The depth a claimed URL was found at. */
  depthOf(key: string): number;
  log: Logger;
  signal: AbortSignal;
}

/** Why a zero-data-retention page is always "new": nothing of it may be kept to compare the next scrape with. */
export const ZDR_CHANGE_TRACKING_WARNING = 'Change tracking keeps no snapshot under zero data retention: changeStatus is always "new".';

function addWarning(document: PageDocument, warning: string): void {
  document.warning = document.warning ? `${document.warning} ${warning}` : warning;
}

export interface PageHandler {
  /** Stores the page; `{ needsBrowser }` when an HTTP page turned out to be script-rendered (it is not stored). */
  store(target: ScrapeTarget, load: PageLoad, extras: LoadExtras): Promise<{ needsBrowser: string } | void>;
  fail(target: ScrapeTarget, error: string, statusCode?: number): Promise<void>;
}

export function createPageHandler(d: PageHandlerDeps): PageHandler {
  const { job, limits, log, tally } = d;
  const { options, team } = job;
  const crawlId = job.crawl.id;
  const so = options.scrapeOptions;
  const zdr = options.zeroDataRetention;
  const pdfMaxPages = pdfParser(so)?.maxPages;
  const charge = { teamId: team.id, apiKeyId: job.crawl.apiKeyId, endpoint: chargeEndpoint(job.kind) };
  const webhook = crawlWebhook(options, job.kind);
  const shareable = fetchedWithoutCredentials(so);
  const tracking = changeTrackingOf(so);
  const redacted = so.redactPII !== undefined && so.redactPII !== false;
  // The index is the team's search over page text: a redacted page's text is not kept there, unredacted or not.
  const indexing = d.indexing && !redacted;

  const fail = async (target: ScrapeTarget, error: string, statusCode?: number) => {
    await d.writer.failure({ crawlId, urlKey: target.key, url: target.url, error, statusCode }, webhook);
    tally.pageFailed();
    log.warn('page failed', { crawlId, url: target.url, error });
  };

  /** Why the job does not take the page where it redirected, if it does not. */
  const redirectRefusal = async (target: ScrapeTarget, final: { url: string; urlKey: string }): Promise<string | undefined> => {
    if (final.urlKey === target.key) return undefined;
    // The target was checked before its fetch; where it led is checked before anything of it is kept.
    const threat = threatRefusal(final.url, job.threat);
    if (threat) return `Redirected to ${final.url}: ${threat}`;
    // A redirect target gets a frontier row of its own, so it is held to the same length limit.
    if (isTooLong(final, limits.maxUrlLength)) return `The page redirected to a URL too long to crawl: ${tooLongReason(final, limits.maxUrlLength)}`;
    // Crawl rules: a URL a caller named (a batch's, a scrape's) may redirect anywhere, as upstream.
    if (!discoversLinks(job.kind)) return undefined;
    // The start URL may redirect anywhere too; other redirects must stay within the crawl's rules.
    const rule = target.key === job.startKey ? { allowed: true as const } : job.filter.check(final.url);
    if (!rule.allowed) return `Redirected to ${final.url}, which this crawl does not follow: ${rule.reason}`;
    if (!(await job.robots.isAllowed(final.url))) return `Redirected to ${final.url}, which robots.txt disallows`;
    return undefined;
  };

  type Converted = {
    document: PreparedDocument;
    links: string[];
    entry?: PageEntry;
    unsized?: string[];
    modelUse: ModelUse;
    fields?: Record<string, unknown>;
  };

  /**
   * The json mode's fields of the page, asked for before its transaction (a model call is slow);
   * a model that fails leaves the page without them and says so in its warning.
   */
  const trackedFields = async (format: ChangeTrackingFormat, document: PageDocument, modelUse: ModelUse): Promise<Record<string, unknown> | undefined> => {
    if (!format.modes.includes('json')) return undefined;
    if (!d.llm) {
      addWarning(document, 'changeTracking json mode: no LLM endpoint is configured (LLM_BASE_URL), so no fields were compared.');
      return undefined;
    }
    try {
      const { fields, usage } = await extractFields(document.markdown ?? '', format, d.llm);
      modelUse.usage = addUsage(modelUse.usage, usage);
      return fields;
    } catch (err) {
      if (!(err instanceof LlmError)) throw err;
      modelUse.usage = addUsage(modelUse.usage, err.usage);
      addWarning(document, `changeTracking json mode: the fields could not be extracted: ${err.message}.`);
      return undefined;
    }
  };

  /** The page as a document: `{ failure }` when the page itself cannot be one, `{ needsBrowser }` when it must be rendered. */
  const convert = async (
    target: ScrapeTarget,
    load: PageLoad,
    finalKey: string,
    extras: LoadExtras,
  ): Promise<Converted | { failure: string } | { needsBrowser: string }> => {
    try {
      const converted = await documentFromLoad(load, so, {
        sourceURL: target.url,
        actions: extras.actions,
        queuedMs: extras.queuedMs,
        llm: d.llm,
        redactMaxChunks: d.redactMaxChunks,
        convert: d.convert,
        ...(indexing && { indexAs: finalKey }),
        ...(extras.path === 'http' && { checkScripted: limits.rendering === 'auto', listImages: limits.imageProbes }),
      });
      if ('needsBrowser' in converted) return { needsBrowser: converted.needsBrowser };
      const { built, indexError } = converted;
      if (indexError !== undefined) log.warn('page not indexed', { crawlId, url: load.finalUrl, error: indexError });
      let fields: Record<string, unknown> | undefined;
      if (tracking && zdr) {
        built.document.changeTracking = newPage();
        addWarning(built.document, ZDR_CHANGE_TRACKING_WARNING);
      } else if (tracking) fields = await trackedFields(tracking, built.document, converted.modelUse);
      const entry =
        indexing && load.pdf
          ? pageEntryFromText({
              url: load.finalUrl,
              urlKey: finalKey,
              contentType: load.contentType ?? 'application/pdf',
              links: [],
              title: load.pdf.title,
              text: load.pdf.markdown,
            })
          : converted.entry;
      return {
        document: prepareDocument(placeJsonResult(built.document, options.jsonFields), limits.maxDocumentBytes),
        links: built.discoveredLinks,
        entry,
        unsized: converted.unsized,
        modelUse: converted.modelUse,
        fields,
      };
    } catch (err) {
      if (err instanceof DocumentTooLargeError) return { failure: err.message };
      if (err instanceof RedactionError) return { failure: `redactPII: ${err.message}; the page is not handed out unredacted` };
      // The same page would fail the same way on every retry (e.g. nesting too deep for the converter).
      return { failure: `The page could not be turned into a document: ${describeError(err)}` };
    }
  };

  /** The links the page adds to the frontier, under the job's rules. */
  const linksToFollow = async (target: ScrapeTarget, load: PageLoad, links: string[]) => {
    const depth = d.depthOf(target.key);
    const follows =
      discoversLinks(job.kind) &&
      options.sitemap !== 'only' &&
      (options.maxDiscoveryDepth === undefined || depth < options.maxDiscoveryDepth) &&
      job.filter.followsLinksOn(load.finalUrl);
    if (!follows) return { follow: [], robotsBlocked: [], threatBlocked: [] };
    const sorted = await sortLinks(job, limits.maxUrlLength, links, depth + 1);
    if (sorted.tooLong > 0)
      log.info('links longer than CRAWL_MAX_URL_LENGTH dropped', { crawlId, url: target.url, dropped: sorted.tooLong, maxUrlLength: limits.maxUrlLength });
    return sorted;
  };

  const store: PageHandler['store'] = async (target, load, extras) => {
    const final = { url: load.finalUrl, urlKey: urlKey(load.finalUrl, job.norm) };
    const refused = await redirectRefusal(target, final);
    if (refused) return fail(target, refused, load.statusCode);
    // Checked before any conversion: parsing and markdown cost grows with the page.
    const htmlBytes = load.rawHtml === undefined ? 0 : Buffer.byteLength(load.rawHtml);
    if (htmlBytes > limits.maxPageBytes) return fail(target, pageTooLargeMessage(htmlBytes, limits.maxPageBytes), load.statusCode);
    const converting = performance.now();
    const converted = await convert(target, load, final.urlKey, extras);
    if ('needsBrowser' in converted) return { needsBrowser: converted.needsBrowser };
    if ('failure' in converted) return fail(target, converted.failure, load.statusCode);
    const convertMs = performance.now() - converting;
    const { modelUse } = converted;
    let entry = converted.entry;
    if (entry && converted.unsized) {
      // What Chromium would have measured for the index (see page/rendering/image-probe.ts); cached copies keep it.
      load.imageSizes = await d.probeImages(converted.unsized, load.finalUrl, crawlId, {
        headers: so.headers,
        insecureTls: so.skipTlsVerification ?? true,
        signal: d.signal,
      });
      entry = { ...entry, images: withImageSizes(entry.images, load.imageSizes) };
    }
    const { follow, robotsBlocked, threatBlocked } = await linksToFollow(target, load, converted.links);
    const storing = performance.now();
    try {
      await d.writer.page({
        page: {
          crawlId,
          urlKey: target.key,
          url: target.url,
          statusCode: load.statusCode,
          document: converted.document,
          finalUrlKey: final.urlKey,
          finalUrl: load.finalUrl,
          path: extras.path,
        },
        next: {
          follow,
          robotsBlocked,
          threatBlocked,
          limit: options.limit,
          queuedPerCredit: limits.queuedUrlsPerCredit,
          webhook,
          ...(entry && { index: { teamId: team.id, crawlId, shareable, entry } }),
          charge: {
            ...charge,
            credits: pageCredits({
              zeroDataRetention: zdr,
              pdfPages: load.pdf && Math.min(load.pdf.numPages, pdfMaxPages ?? Infinity),
              // Change tracking's fields, when a model extracted them, are the format's answer.
              formatCredits: answeredCredits([...modelUse.answered, ...(tracking && converted.fields !== undefined ? [tracking.type] : [])]),
              redacted,
            }),
            modelTokens: modelUse.usage.promptTokens + modelUse.usage.completionTokens,
          },
          ...(extras.path !== 'cache' &&
            load.statusCode < 400 &&
            cacheWritable(so, zdr) && { cache: { teamId: team.id, key: cacheKey(target.url, so), load } }),
          ...(tracking &&
            !zdr && {
              changeTracking: {
                teamId: team.id,
                // Query kept whatever the job's ignoreQueryParameters: snapshots outlive the job.
                url: urlKey(target.url, { ignoreQueryParameters: false }),
                tag: tracking.tag ?? '',
                format: tracking,
                markdown: converted.document.document.markdown ?? '',
                fields: converted.fields,
              },
            }),
        },
      });
    } catch (err) {
      if (err instanceof DuplicateRedirectError) return fail(target, err.message, load.statusCode);
      // A value PostgreSQL refuses is refused on every retry: the page fails, not the batch.
      if (isRejectedData(err)) return fail(target, `The page could not be stored: ${describeError(err)}`, load.statusCode);
      throw err;
    }
    // With 'batch timings', what bench/scrape.ts splits a scrape's latency into.
    log.debug('page timings', { crawlId, convertMs, storeMs: performance.now() - storing });
    if (extras.loadMs !== undefined) observePageLoad(extras.path, extras.loadMs);
    tally.stored();
  };

  return { store, fail };
}
