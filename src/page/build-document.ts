import { assertValidSelectors, cleanPage } from './clean-html.ts';
import { htmlToMarkdown } from './html-to-markdown.ts';
import { documentBaseUrl, extractLinks } from './links.ts';
import { extractMetadata } from './metadata.ts';
import { extractImages } from './images.ts';
import { attributeValues } from './attribute-values.ts';
import { parseHtmlDocument } from './parse-html.ts';
import { MODEL_FORMATS, PROFILE_FORMATS } from './model-formats/format-names.ts';
import { profileDrafts, type ProfileDrafts } from './profiles/profile-drafts.ts';

import type { DocumentFormat, PageDocument, PageMetadata } from './document-schema.ts';
import type { AttributeSelector } from './scrape-options.ts';

export interface BuildDocumentInput {
  rawHtml: string;
  sourceURL: string;
  url: string;
  statusCode: number;
  contentType?: string;
  formats: DocumentFormat[];
  /** The selectors of the `attributes` format, when it is requested. */
  attributes?: readonly AttributeSelector[];
  onlyMainContent: boolean;
  includeTags?: string[];
  excludeTags?: string[];
  removeBase64Images: boolean;
  screenshot?: string;
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
  /** The page's markdown, made whenever `summary`, a model format or a profile format was asked for, as the text they read. */
  markdown?: string;
  /** What the page's schema.org data states for the product and menu formats, when one was asked for. */
  profiles?: ProfileDrafts;
}

/**
 * The crawl result for one fetched page, holding only the requested formats (all but `summary`, the
 * model formats and the profile formats, which the caller writes from `markdown` and `profiles`, and
 * `branding`, which needs the rendered page), plus the page's links, which the crawler needs for
 * discovery whatever formats were requested.
 */
export function buildDocument(input: BuildDocumentInput): BuiltDocument {
  // Checked whatever the formats, so a bad selector fails the same way for every request.
  assertValidSelectors([...(input.includeTags ?? []), ...(input.excludeTags ?? [])]);
  const formats = new Set(input.formats);
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

  const content: Omit<PageDocument, 'metadata'> = {};
  // Read before cleaning, which removes elements (and rewrites image sources) in place.
  if (formats.has('images')) content.images = extractImages(parsed, input.url);
  if (formats.has('attributes')) content.attributes = attributeValues(parsed, input.attributes ?? []);
  const profiles = profileDrafts(parsed, formats, input.url);
  let markdown: string | undefined;
  const readsText = formats.has('summary') || [...MODEL_FORMATS, ...PROFILE_FORMATS].some((f) => formats.has(f));
  if (formats.has('markdown') || formats.has('html') || readsText) {
    // Last reader of the parsed page: everything above has read what it needs.
    const cleaned = cleanPage(parsed, {
      baseUrl: documentBaseUrl(parsed, input.url),
      onlyMainContent: input.onlyMainContent,
      includeTags: input.includeTags,
      excludeTags: input.excludeTags,
      removeBase64Images: input.removeBase64Images,
    });
    // The markdown reads the cleaned tree itself: serializing it only for the converter to parse it again was a third of the conversion.
    if (formats.has('markdown') || readsText) markdown = htmlToMarkdown(cleaned);
    if (formats.has('markdown')) content.markdown = markdown;
    if (formats.has('html')) content.html = cleaned.outerHTML;
  }
  if (formats.has('rawHtml')) content.rawHtml = input.rawHtml;
  // A copy, so the crawler's handling of discoveredLinks cannot alter the stored document.
  if (formats.has('links')) content.links = [...discoveredLinks];
  if (formats.has('screenshot') && input.screenshot !== undefined) content.screenshot = input.screenshot;
  return { document: { ...content, metadata }, discoveredLinks, ...(readsText && { markdown }), ...(profiles && { profiles }) };
}
