// What loading one page gives, whichever way it was loaded (Chromium, an HTTP
// fetch, a file, the page cache): the raw material a document is built from.
import type { ImageSizes } from './image-sizes.ts';

export interface PageLoad {
  finalUrl: string;
  statusCode: number;
  contentType?: string;
  rawHtml?: string;
  screenshot?: string;
  imageSizes?: ImageSizes;
  pdf?: { markdown: string; html: string; numPages: number; title?: string; metadata: Record<string, string> };
}
