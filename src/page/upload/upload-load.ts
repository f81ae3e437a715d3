// An uploaded file (POST /v2/parse) as a page load: a PDF parsed as a fetched
// one is, HTML as a page's, a Word document through its HTML, and text or
// markdown as is. CPU work on untrusted bytes: it runs in a conversion thread.
import { escapeHtml, pdfToMarkdown } from '../pdf-to-markdown.ts';
import type { PageLoad } from '../page-load.ts';
import { docxToHtml } from './docx-to-html.ts';
import { UPLOAD_TYPES, type UploadKind } from './upload-kind.ts';

export interface UploadInput {
  bytes: Uint8Array;
  kind: UploadKind;
  /** Where the document says it came from (metadata.sourceURL and url). */
  url: string;
  /** parsers' pdf maxPages. */
  maxPages?: number;
  maxUnpackedBytes: number;
}

function decodeText(bytes: Uint8Array): string {
  return new TextDecoder('utf-8').decode(bytes);
}

export async function loadUpload({ bytes, kind, url, maxPages, maxUnpackedBytes }: UploadInput): Promise<PageLoad> {
  const base = { finalUrl: url, statusCode: 200, contentType: UPLOAD_TYPES[kind].mimeTypes[0] };
  switch (kind) {
    case 'pdf':
      return { ...base, pdf: await pdfToMarkdown(bytes, { maxPages }) };
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
