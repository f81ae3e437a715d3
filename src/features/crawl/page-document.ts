// Turns what a page load produced (from the browser, the PDF parser or the
// cache) into the stored document and the links it offers for discovery.
import type { ScrapeOptions } from '../scrape/scrape-options.ts';
import { buildDocument, type BuildDocumentInput, type BuiltDocument, type DocumentFormat, type PageDocument } from '../scrape/build-document.ts';
import { summarizePage } from '../scrape/summary/page-summary.ts';
import type { LlmSettings } from '../../platform/llm/chat-completion.ts';
import type { CachedLoad } from './page-cache.ts';

export interface LoadExtras {
  sourceURL: string;
  /** Results of scrapeOptions.actions, when there were any. */
  actions?: unknown;
  /** Set when the page waited for a slot of the team's concurrency limit. */
  queuedMs?: number;
  /** See BuildDocumentInput.parsed. */
  parsed?: Document;
  /** See BuildDocumentInput.inspect (HTML pages only). */
  inspect?: BuildDocumentInput['inspect'];
  /** Writes the `summary` format when configured (LLM_BASE_URL); else it is extractive. */
  llm?: LlmSettings;
}

export function requestedFormats(so: ScrapeOptions): DocumentFormat[] {
  return [...new Set(so.formats.map((f) => f.type))] as DocumentFormat[];
}

function pdfDocument(load: CachedLoad & { pdf: NonNullable<CachedLoad['pdf']> }, formats: Set<DocumentFormat>, sourceURL: string): PageDocument {
  const { pdf } = load;
  return {
    ...(formats.has('markdown') && { markdown: pdf.markdown }),
    ...(formats.has('html') && { html: pdf.html }),
    ...(formats.has('rawHtml') && { rawHtml: pdf.html }),
    ...(formats.has('links') && { links: [] }),
    metadata: {
      ...pdf.metadata,
      ...(pdf.title !== undefined && { title: pdf.title }),
      numPages: pdf.numPages,
      sourceURL,
      url: load.finalUrl,
      statusCode: load.statusCode,
      ...(load.contentType !== undefined && { contentType: load.contentType }),
    },
  };
}

export async function documentFromLoad(load: CachedLoad, so: ScrapeOptions, extras: LoadExtras): Promise<BuiltDocument> {
  const formats = requestedFormats(so);
  const built: BuiltDocument = load.pdf
    ? { document: pdfDocument(load as CachedLoad & { pdf: NonNullable<CachedLoad['pdf']> }, new Set(formats), extras.sourceURL), discoveredLinks: [], markdown: load.pdf.markdown }
    : buildDocument({
        rawHtml: load.rawHtml ?? '',
        sourceURL: extras.sourceURL,
        url: load.finalUrl,
        statusCode: load.statusCode,
        contentType: load.contentType,
        formats,
        onlyMainContent: so.onlyMainContent,
        includeTags: so.includeTags,
        excludeTags: so.excludeTags,
        removeBase64Images: so.removeBase64Images,
        screenshot: load.screenshot,
        parsed: extras.parsed,
        inspect: extras.inspect,
      });
  const { document } = built;
  if (formats.includes('summary')) {
    const { summary, warning } = await summarizePage({ markdown: built.markdown ?? '', language: document.metadata.language }, extras.llm);
    document.summary = summary;
    if (warning) document.warning = warning;
  }
  if (extras.actions !== undefined) (document as PageDocument & { actions?: unknown }).actions = extras.actions;
  document.metadata.concurrencyLimited = extras.queuedMs !== undefined;
  if (extras.queuedMs !== undefined) document.metadata.concurrencyQueueDurationMs = extras.queuedMs;
  return built;
}
