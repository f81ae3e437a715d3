// An uploaded file (POST /v2/parse) as a page load: a PDF parsed as a fetched
// one is, an image read by OCR, HTML as a page's, a Word document through its
// HTML, and text or markdown as is. CPU work on untrusted bytes: it runs in a
// conversion thread; OCR runs in child processes the thread waits for.
import { imageToMarkdown } from '../image-to-markdown.ts';
import { IMAGE_TYPES, imageFormat } from '../ocr/image-format.ts';
import { sharedOcrEngine, type OcrSettings } from '../ocr/ocr-engine.ts';
import type { PageLoad } from '../page-load.ts';
import { escapeHtml } from '../paged-document.ts';
import { pdfToMarkdown, type PdfToMarkdownOptions } from '../pdf-to-markdown.ts';
import { docxToHtml } from './docx-to-html.ts';
import { UPLOAD_TYPES, type UploadKind } from './upload-kind.ts';

export interface UploadInput {
  bytes: Uint8Array;
  kind: UploadKind;
  /** Where the document says it came from (metadata.sourceURL and url). */
  url: string;
  /** The pdf parser's options (maxPages, mode, pages, blocks, pageMarkers); pages and blocks apply to images too. */
  pdf?: Omit<PdfToMarkdownOptions, 'ocr'>;
  /** How OCR runs (mode auto and ocr, images), and the time it has for this file. */
  ocr: { settings: OcrSettings; budgetMs: number };
  maxUnpackedBytes: number;
}

function decodeText(bytes: Uint8Array): string {
  return new TextDecoder('utf-8').decode(bytes);
}

export async function loadUpload({ bytes, kind, url, pdf, ocr, maxUnpackedBytes }: UploadInput): Promise<PageLoad> {
  const base = { finalUrl: url, statusCode: 200, contentType: UPLOAD_TYPES[kind].mimeTypes[0] };
  const ocrRun = { engine: sharedOcrEngine(ocr.settings), budgetMs: ocr.budgetMs };
  switch (kind) {
    case 'pdf':
      return { ...base, pdf: await pdfToMarkdown(bytes, { ...pdf, ocr: ocrRun }) };
    case 'image': {
      const format = imageFormat(bytes);
      return {
        ...base,
        ...(format && { contentType: IMAGE_TYPES[format].mimeTypes[0] }),
        pdf: await imageToMarkdown(bytes, ocrRun, { pages: pdf?.pages, blocks: pdf?.blocks }),
      };
    }
    case 'html':
      return { ...base, rawHtml: decodeText(bytes) };
    case 'docx':
      return { ...base, rawHtml: `<!DOCTYPE html><html><body>${await docxToHtml(bytes, maxUnpackedBytes)}</body></html>` };
    case 'text':
    case 'markdown': {
      const text = decodeText(bytes).replace(/^\uFEFF/, '');
      return { ...base, text: { markdown: text, html: `<pre>${escapeHtml(text)}</pre>` } };
    }
  }
}
