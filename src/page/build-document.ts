import { assertValidSelectors, cleanPage } from './clean-html.ts';
import { htmlToMarkdown } from './html-to-markdown.ts';
import { documentBaseUrl, extractLinks } from './links.ts';
import { extractMetadata } from './metadata.ts';
import { parseHtmlDocument } from './parse-html.ts';
import { profileDrafts, type ProfileDrafts } from './profiles/profile-drafts.ts';
import { requestedFormats, type ScrapeFormat } from './formats/registry.ts';
import type { ConvertedPage, DocumentPart } from './formats/format-module.ts';
import type { PageDocument, PageMetadata } from './document-schema.ts';

export interface BuildDocumentInput {
  rawHtml: string;
  sourceURL: string;
  url: string;
  statusCode: number;
  contentType?: string;
  formats: readonly ScrapeFormat[];
  onlyMainContent: boolean;
  includeTags?: string[];
  excludeTags?: string[];
  removeBase64Images: boolean;
  /** `rawHtml` already parsed (the HTTP path parses it to decide whether it needs a browser); it is cleaned in place. */
  parsed?: Document;
  /** Sees the parsed page, its links and metadata once they are known (the search index reads them there), before it is cleaned. */
  inspect?(parsed: Document, links: string[], metadata: PageMetadata): void;
}

// Fields the service itself reports; a page's own <meta name="error"> or <meta name="url"> must
// not masquerade as them.
const SERVICE_METADATA_KEYS = new Set(['sourceURL', 'url', 'statusCode', 'error', 'contentType']);

export interface BuiltDocument {
  document: PageDocument;
  discoveredLinks: string[];
  /** The page's markdown, made whenever a format that reads the page's text (`needs: 'text'`) was asked for. */
  markdown?: string;
  /** What the page's schema.org data states for the product and menu formats, when one was asked for. */
  profiles?: ProfileDrafts;
}

/**
 * The crawl result for one fetched page, holding the requested formats' parts that come from its HTML
 * (their `fromParsed` and `fromPage`; the caller adds the rest from the load, `markdown` and
 * `profiles`), plus the page's links, which the crawler needs for discovery whatever formats were requested.
 */
export function buildDocument(input: BuildDocumentInput): BuiltDocument {
  // Checked whatever the formats, so a bad selector fails the same way for every request.
  assertValidSelectors([...(input.includeTags ?? []), ...(input.excludeTags ?? [])]);
  const requested = requestedFormats(input.formats);
  const parsed = input.parsed ?? parseHtmlDocument(input.rawHtml);
  const discoveredLinks = extractLinks(parsed, input.url);

  const pageMetaTags = Object.entries(extractMetadata(parsed)).filter(([key]) => !SERVICE_METADATA_KEYS.has(key));
  const metadata: PageMetadata = {
    ...Object.fromEntries(pageMetaTags),
    sourceURL: input.sourceURL,
    url: input.url,
    statusCode: input.statusCode,
    ...(input.contentType !== undefined && { contentType: input.contentType }),
  };

  input.inspect?.(parsed, discoveredLinks, metadata);

  const content: DocumentPart = {};
  // Read before cleaning, which removes elements (and rewrites image sources) in place.
  for (const { module, format } of requested) if (module.fromParsed) Object.assign(content, module.fromParsed(parsed, format, input.url));
  const profiles = profileDrafts(parsed, requested, input.url);
  const needs = new Set(requested.map(({ module }) => module.needs));
  const readsText = needs.has('text');
  const page: ConvertedPage = { rawHtml: input.rawHtml, links: discoveredLinks };
  if (needs.has('cleaned') || needs.has('markdown') || readsText) {
    // Last reader of the parsed page: everything above has read what it needs.
    page.cleaned = cleanPage(parsed, {
      baseUrl: documentBaseUrl(parsed, input.url),
      onlyMainContent: input.onlyMainContent,
      includeTags: input.includeTags,
      excludeTags: input.excludeTags,
      removeBase64Images: input.removeBase64Images,
    });
    // The markdown reads the cleaned tree itself: serializing it only for the converter to parse it again was a third of the conversion.
    if (needs.has('markdown') || readsText) page.markdown = htmlToMarkdown(page.cleaned);
  }
  for (const { module, format } of requested) if (module.fromPage) Object.assign(content, module.fromPage(page, format));
  return { document: { ...content, metadata }, discoveredLinks, ...(readsText && { markdown: page.markdown }), ...(profiles && { profiles }) };
}
