// What loading one page gives, whichever way it was loaded (Chromium, an HTTP
// fetch, a file, the page cache): the raw material a document is built from.
import type { ImageSizes } from './image-sizes.ts';
import type { BrandingSample } from './branding/branding-sample.ts';
import type { PdfConversion } from './pdf-to-markdown.ts';

export interface PageLoad {
  finalUrl: string;
  statusCode: number;
  contentType?: string;
  rawHtml?: string;
  screenshot?: string;
  imageSizes?: ImageSizes;
  /** With the `branding` format, from Chromium: the styles it is derived from, or why there are none. */
  branding?: BrandingSample | { error: string };
  /** A paged file's conversion: a PDF, or an image read by OCR (the image parser) as one page. */
  pdf?: PdfConversion;
  /** An uploaded text or markdown file (POST /v2/parse): its text is the markdown, as is, and `<pre>` the html. */
  text?: { markdown: string; html: string };
}
