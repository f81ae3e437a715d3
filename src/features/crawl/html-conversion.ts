// An HTML page load turned into its document, its links and its search index
// entry: the CPU-heavy part of a page (parsing, cleaning, markdown), pure and
// synchronous, so that it can run in a conversion thread (conversion-pool.ts)
// or inline. Its input and output are plain data, copied between threads.
import { buildDocument, type BuiltDocument, type DocumentFormat } from '../scrape/build-document.ts';
import type { ScrapeOptions } from '../scrape/scrape-options.ts';
import { pageEntryFromHtml, type PageEntry } from '../search/index/page-entry.ts';
import type { CachedLoad } from './page-cache.ts';

export interface HtmlConversionInput {
  /** An HTML load (not a PDF); its screenshot stays with the caller. */
  load: Omit<CachedLoad, 'screenshot' | 'pdf'>;
  so: ScrapeOptions;
  sourceURL: string;
  /** The page's URL key when it is to be indexed for search. */
  indexAs?: string;
}

export interface HtmlConversion {
  built: BuiltDocument;
  entry?: PageEntry;
  /** Why the page could not be indexed (it is stored all the same). */
  indexError?: string;
}

export function requestedFormats(so: ScrapeOptions): DocumentFormat[] {
  return [...new Set(so.formats.map((f) => f.type))] as DocumentFormat[];
}

/** Converts in a thread, or inline; `parsed` (the load's HTML, parsed already) spares the inline path a parse. */
export type HtmlConverter = (input: HtmlConversionInput, parsed?: Document) => Promise<HtmlConversion>;

export function convertHtml({ load, so, sourceURL, indexAs }: HtmlConversionInput, parsed?: Document): HtmlConversion {
  let entry: PageEntry | undefined;
  let indexError: string | undefined;
  const built = buildDocument({
    rawHtml: load.rawHtml ?? '',
    sourceURL,
    url: load.finalUrl,
    statusCode: load.statusCode,
    contentType: load.contentType,
    formats: requestedFormats(so),
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
              entry = pageEntryFromHtml(doc, { url: load.finalUrl, urlKey: indexAs, contentType: load.contentType, links, title: metadata.title, description: metadata.description, language: metadata.language, imageSizes: load.imageSizes });
            } catch (err) {
              indexError = err instanceof Error ? err.message : String(err);
            }
          },
  });
  return { built, ...(entry && { entry }), ...(indexError !== undefined && { indexError }) };
}

export const convertInline: HtmlConverter = async (input, parsed) => convertHtml(input, parsed);
