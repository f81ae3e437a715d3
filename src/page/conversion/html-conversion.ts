// An HTML page load turned into its document, its links and its search index
// entry: the CPU-heavy part of a page (parsing, cleaning, markdown), pure and
// synchronous, so that it can run in a conversion thread (conversion-pool.ts)
// or inline. Its input and output are plain data, copied between threads.
// A page fetched over HTTP is parsed here only, once: the same parse tells
// whether it needs the browser after all and which images to size.
import { buildDocument, type BuiltDocument } from '../build-document.ts';
import { parseHtmlDocument } from '../parse-html.ts';
import { imagesToProbe } from '../rendering/image-probe.ts';
import { pageNeedsBrowser } from '../rendering/needs-browser.ts';
import type { ScrapeOptions } from '../scrape-options.ts';
import { pageEntryFromHtml, type PageEntry } from '../index-entry/page-entry.ts';
import type { PageLoad } from '../page-load.ts';

/** What the conversion reads of an HTML load. */
export type HtmlLoad = Pick<PageLoad, 'finalUrl' | 'statusCode' | 'contentType' | 'rawHtml' | 'imageSizes'>;

export interface HtmlConversionInput {
  /** An HTML load (not a PDF); what formats captured from the page (a screenshot) stays with the caller. */
  load: HtmlLoad;
  so: ScrapeOptions;
  sourceURL: string;
  /** The page's URL key when it is to be indexed for search. */
  indexAs?: string;
  /** CRAWL_RENDERING=auto, a page fetched over HTTP: one that looks script-rendered is not converted. */
  checkScripted?: boolean;
  /** A page fetched over HTTP and indexed: lists up to this many images whose size its HTML does not give. */
  listImages?: number;
}

export interface HtmlConversion {
  built: BuiltDocument;
  entry?: PageEntry;
  /** Why the page could not be indexed (it is stored all the same). */
  indexError?: string;
  /** Images the index entry has no size for (see `listImages`), for the caller to probe. */
  unsized?: string[];
}

/** The page looked script-rendered (see page/rendering/needs-browser.ts): it goes to the browser, unconverted. */
export interface ScriptedPage {
  needsBrowser: string;
}

export type HtmlOutcome = HtmlConversion | ScriptedPage;

/** Converts in a thread, or inline. */
export type HtmlConverter = (input: HtmlConversionInput) => Promise<HtmlOutcome>;

export function convertHtml({ load, so, sourceURL, indexAs, checkScripted, listImages }: HtmlConversionInput): HtmlOutcome {
  const parsed = parseHtmlDocument(load.rawHtml ?? '');
  const needsBrowser = checkScripted ? pageNeedsBrowser(parsed) : undefined;
  if (needsBrowser) return { needsBrowser };
  // Read before the document is built: cleaning the page removes elements from the tree.
  const unsized = indexAs !== undefined && listImages ? imagesToProbe(parsed, load.finalUrl, listImages) : [];
  let entry: PageEntry | undefined;
  let indexError: string | undefined;
  const built = buildDocument({
    rawHtml: load.rawHtml ?? '',
    sourceURL,
    url: load.finalUrl,
    statusCode: load.statusCode,
    contentType: load.contentType,
    formats: so.formats,
    onlyMainContent: so.onlyMainContent,
    includeTags: so.includeTags,
    excludeTags: so.excludeTags,
    removeBase64Images: so.removeBase64Images,
    parsed,
    // The index reads the parsed page as the document is built; a page it cannot read is stored unindexed.
    inspect:
      indexAs === undefined
        ? undefined
        : (doc, links, metadata) => {
            try {
              entry = pageEntryFromHtml(doc, {
                url: load.finalUrl,
                urlKey: indexAs,
                contentType: load.contentType,
                links,
                title: metadata.title,
                description: metadata.description,
                language: metadata.language,
                imageSizes: load.imageSizes,
              });
            } catch (err) {
              indexError = err instanceof Error ? err.message : String(err);
            }
          },
  });
  return { built, ...(entry && { entry }), ...(indexError !== undefined && { indexError }), ...(entry && unsized.length > 0 && { unsized }) };
}

export const convertInline: HtmlConverter = async (input) => convertHtml(input);
