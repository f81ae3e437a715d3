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
import type { ScrapeTarget } from '../../page/browser-scraper.ts';
import { describeError } from '../../page/describe-error.ts';
import type { HtmlConverter } from '../../page/conversion/html-conversion.ts';
import { pageEntryFromText, withImageSizes, type PageEntry } from '../../page/index-entry/page-entry.ts';
import { documentFromLoad, type ModelUse } from '../../page/page-document.ts';
import { extractFields } from '../../page/change-tracking/extract-fields.ts';
import { newPage } from '../../page/change-tracking/track-change.ts';
import type { PageDocument } from '../../page/document-schema.ts';
import { pdfParser, type ScrapeOptions } from '../../page/scrape-options.ts';
import { changeTrackingOf, type ChangeTrackingFormat } from '../../page/formats/change-tracking/change-tracking-format.ts';
import type { PageLoad } from '../../page/page-load.ts';
import { pageTooLargeMessage } from '../../page/page-size.ts';
import { RedactionError } from '../../page/redaction/redact-document.ts';
import { threatRefusal } from '../../page/threat-policy.ts';
import type { ImageProbe } from '../../page/rendering/image-probe.ts';
import { urlKey } from '../frontier/normalize-url.ts';
import { isTooLong, tooLongReason } from '../frontier/url-length.ts';
import { sortLinks, type JobContext } from '../job-context.ts';
import { chargeEndpoint, discoversLinks } from '../job-kind.ts';
import { cacheKey } from '../pages/page-cache.ts';
import {
  DocumentTooLargeError,
  DuplicateRedirectError,
  prepareDocument,
  type PageConsequences,
  type PageWrite,
  type PreparedDocument,
} from '../pages/page-store.ts';
import { observePageLoad, type LoadPath } from '../pages/page-metrics.ts';
import { fetchedWithoutCredentials } from '../search-index/shareable.ts';
import { crawlWebhook, type JobWebhook } from '../webhooks/crawl-events.ts';
import { placeJsonResult } from '../json-fields.ts';
import type { BatchTally } from './batch-tally.ts';
import { followsLinksAt, keepsCacheCopy, storedPageCredits, type PageCostTerms } from './page-rules.ts';

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
  return new JobPageHandler(d);
}

type Converted = {
  document: PreparedDocument;
  links: string[];
  entry?: PageEntry;
  unsized?: string[];
  modelUse: ModelUse;
  fields?: Record<string, unknown>;
};

/** The job's terms, read once per batch; each page is one pass through `store`. */
class JobPageHandler implements PageHandler {
  private readonly job: JobContext;
  private readonly limits: PageHandlerDeps['limits'];
  private readonly log: Logger;
  private readonly tally: BatchTally;
  private readonly crawlId: string;
  private readonly so: ScrapeOptions;
  private readonly zdr: boolean;
  private readonly costs: PageCostTerms;
  private readonly charge: Omit<PageConsequences['charge'], 'credits' | 'modelTokens'>;
  private readonly webhook: JobWebhook | undefined;
  private readonly shareable: boolean;
  private readonly tracking: ChangeTrackingFormat | undefined;
  private readonly indexing: boolean;

  constructor(private readonly d: PageHandlerDeps) {
    const { job } = d;
    const { options, team } = job;
    this.job = job;
    this.limits = d.limits;
    this.log = d.log;
    this.tally = d.tally;
    this.crawlId = job.crawl.id;
    this.so = options.scrapeOptions;
    this.zdr = options.zeroDataRetention;
    this.charge = { teamId: team.id, apiKeyId: job.crawl.apiKeyId, endpoint: chargeEndpoint(job.kind) };
    this.webhook = crawlWebhook(options, job.kind);
    this.shareable = fetchedWithoutCredentials(this.so);
    this.tracking = changeTrackingOf(this.so);
    const redacted = this.so.redactPII !== undefined && this.so.redactPII !== false;
    this.costs = { zeroDataRetention: this.zdr, redacted, pdfMaxPages: pdfParser(this.so)?.maxPages, tracking: this.tracking };
    // The index is the team's search over page text: a redacted page's text is not kept there, unredacted or not.
    this.indexing = d.indexing && !redacted;
  }

  async fail(target: ScrapeTarget, error: string, statusCode?: number): Promise<void> {
    await this.d.writer.failure({ crawlId: this.crawlId, urlKey: target.key, url: target.url, error, statusCode }, this.webhook);
    this.tally.pageFailed();
    this.log.warn('page failed', { crawlId: this.crawlId, url: target.url, error });
  }

  async store(target: ScrapeTarget, load: PageLoad, extras: LoadExtras): Promise<{ needsBrowser: string } | void> {
    const final = { url: load.finalUrl, urlKey: urlKey(load.finalUrl, this.job.norm) };
    const refused = await this.redirectRefusal(target, final);
    if (refused) return this.fail(target, refused, load.statusCode);
    // Checked before any conversion: parsing and markdown cost grows with the page.
    const htmlBytes = load.rawHtml === undefined ? 0 : Buffer.byteLength(load.rawHtml);
    if (htmlBytes > this.limits.maxPageBytes) return this.fail(target, pageTooLargeMessage(htmlBytes, this.limits.maxPageBytes), load.statusCode);
    const converting = performance.now();
    const converted = await this.convert(target, load, final.urlKey, extras);
    if ('needsBrowser' in converted) return { needsBrowser: converted.needsBrowser };
    if ('failure' in converted) return this.fail(target, converted.failure, load.statusCode);
    const convertMs = performance.now() - converting;
    if (converted.entry && converted.unsized) converted.entry = await this.withMeasuredImages(converted.entry, converted.unsized, load);
    const links = await this.linksToFollow(target, load, converted.links);
    const storing = performance.now();
    try {
      await this.d.writer.page(this.pageWrite(target, load, final.urlKey, extras, converted, links));
    } catch (err) {
      if (err instanceof DuplicateRedirectError) return this.fail(target, err.message, load.statusCode);
      // A value PostgreSQL refuses is refused on every retry: the page fails, not the batch.
      if (isRejectedData(err)) return this.fail(target, `The page could not be stored: ${describeError(err)}`, load.statusCode);
      throw err;
    }
    // With 'batch timings', what bench/scrape.ts splits a scrape's latency into.
    // storedAt (epoch ms) lines the page's commit up with its workflow's history and the gateway's answer.
    this.log.debug('page timings', { crawlId: this.crawlId, loadMs: extras.loadMs, convertMs, storeMs: performance.now() - storing, storedAt: Date.now() });
    if (extras.loadMs !== undefined) observePageLoad(extras.path, extras.loadMs);
    this.tally.stored();
  }

  /** Why the job does not take the page where it redirected, if it does not. */
  private async redirectRefusal(target: ScrapeTarget, final: { url: string; urlKey: string }): Promise<string | undefined> {
    if (final.urlKey === target.key) return undefined;
    const { job, limits } = this;
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
  }

  /** The page as a document: `{ failure }` when the page itself cannot be one, `{ needsBrowser }` when it must be rendered. */
  private async convert(
    target: ScrapeTarget,
    load: PageLoad,
    finalKey: string,
    extras: LoadExtras,
  ): Promise<Converted | { failure: string } | { needsBrowser: string }> {
    const { d, limits, so } = this;
    try {
      const converted = await documentFromLoad(load, so, {
        sourceURL: target.url,
        actions: extras.actions,
        queuedMs: extras.queuedMs,
        llm: d.llm,
        redactMaxChunks: d.redactMaxChunks,
        convert: d.convert,
        ...(this.indexing && { indexAs: finalKey }),
        ...(extras.path === 'http' && { checkScripted: limits.rendering === 'auto', listImages: limits.imageProbes }),
      });
      if ('needsBrowser' in converted) return { needsBrowser: converted.needsBrowser };
      const { built, indexError } = converted;
      if (indexError !== undefined) this.log.warn('page not indexed', { crawlId: this.crawlId, url: load.finalUrl, error: indexError });
      let fields: Record<string, unknown> | undefined;
      if (this.tracking && this.zdr) {
        built.document.changeTracking = newPage();
        addWarning(built.document, ZDR_CHANGE_TRACKING_WARNING);
      } else if (this.tracking) fields = await this.trackedFields(this.tracking, built.document, converted.modelUse);
      return {
        document: prepareDocument(placeJsonResult(built.document, this.job.options.jsonFields), limits.maxDocumentBytes),
        links: built.discoveredLinks,
        entry: this.indexing && load.pdf ? pdfEntry(load, finalKey, load.pdf) : converted.entry,
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
  }

  /**
   * The json mode's fields of the page, asked for before its transaction (a model call is slow);
   * a model that fails leaves the page without them and says so in its warning.
   */
  private async trackedFields(format: ChangeTrackingFormat, document: PageDocument, modelUse: ModelUse): Promise<Record<string, unknown> | undefined> {
    if (!format.modes.includes('json')) return undefined;
    if (!this.d.llm) {
      addWarning(document, 'changeTracking json mode: no LLM endpoint is configured (LLM_BASE_URL), so no fields were compared.');
      return undefined;
    }
    try {
      const { fields, usage } = await extractFields(document.markdown ?? '', format, this.d.llm);
      modelUse.usage = addUsage(modelUse.usage, usage);
      return fields;
    } catch (err) {
      if (!(err instanceof LlmError)) throw err;
      modelUse.usage = addUsage(modelUse.usage, err.usage);
      addWarning(document, `changeTracking json mode: the fields could not be extracted: ${err.message}.`);
      return undefined;
    }
  }

  /** What Chromium would have measured for the index (see page/rendering/image-probe.ts); cached copies keep it. */
  private async withMeasuredImages(entry: PageEntry, unsized: string[], load: PageLoad): Promise<PageEntry> {
    load.imageSizes = await this.d.probeImages(unsized, load.finalUrl, this.crawlId, {
      headers: this.so.headers,
      insecureTls: this.so.skipTlsVerification ?? true,
      signal: this.d.signal,
    });
    return { ...entry, images: withImageSizes(entry.images, load.imageSizes) };
  }

  /** The links the page adds to the frontier, under the job's rules. */
  private async linksToFollow(target: ScrapeTarget, load: PageLoad, links: string[]): Promise<FollowedLinks> {
    const { job, limits } = this;
    const depth = this.d.depthOf(target.key);
    if (!(followsLinksAt(job.kind, job.options, depth) && job.filter.followsLinksOn(load.finalUrl)))
      return { follow: [], robotsBlocked: [], threatBlocked: [] };
    const sorted = await sortLinks(job, limits.maxUrlLength, links, depth + 1);
    if (sorted.tooLong > 0)
      this.log.info('links longer than CRAWL_MAX_URL_LENGTH dropped', {
        crawlId: this.crawlId,
        url: target.url,
        dropped: sorted.tooLong,
        maxUrlLength: limits.maxUrlLength,
      });
    return sorted;
  }

  /** The page and everything that goes with it in its transaction. */
  private pageWrite(target: ScrapeTarget, load: PageLoad, finalUrlKey: string, extras: LoadExtras, converted: Converted, links: FollowedLinks): PageWrite {
    const { crawlId, so, zdr, tracking, webhook } = this;
    const teamId = this.job.team.id;
    const { modelUse, entry } = converted;
    const { follow, robotsBlocked, threatBlocked } = links;
    return {
      page: {
        crawlId,
        urlKey: target.key,
        url: target.url,
        statusCode: load.statusCode,
        document: converted.document,
        finalUrlKey,
        finalUrl: load.finalUrl,
        path: extras.path,
      },
      next: {
        follow,
        robotsBlocked,
        threatBlocked,
        limit: this.job.options.limit,
        queuedPerCredit: this.limits.queuedUrlsPerCredit,
        webhook,
        ...(entry && { index: { teamId, crawlId, shareable: this.shareable, entry } }),
        charge: {
          ...this.charge,
          credits: storedPageCredits(this.costs, load.pdf, modelUse, converted.fields !== undefined),
          modelTokens: modelUse.usage.promptTokens + modelUse.usage.completionTokens,
        },
        ...(keepsCacheCopy(extras.path, load.statusCode, so, zdr) && { cache: { teamId, key: cacheKey(target.url, so), load } }),
        ...(tracking &&
          !zdr && {
            changeTracking: {
              teamId,
              // Query kept whatever the job's ignoreQueryParameters: snapshots outlive the job.
              url: urlKey(target.url, { ignoreQueryParameters: false }),
              tag: tracking.tag ?? '',
              format: tracking,
              markdown: converted.document.document.markdown ?? '',
              fields: converted.fields,
            },
          }),
      },
    };
  }
}

type FollowedLinks = Pick<PageConsequences, 'follow' | 'robotsBlocked' | 'threatBlocked'>;

/** A PDF's index entry: its parsed text, no links. */
function pdfEntry(load: PageLoad, finalKey: string, pdf: NonNullable<PageLoad['pdf']>): PageEntry {
  return pageEntryFromText({
    url: load.finalUrl,
    urlKey: finalKey,
    contentType: load.contentType ?? 'application/pdf',
    links: [],
    title: pdf.title,
    text: pdf.markdown,
  });
}
