// Which kind of file an upload (POST /v2/parse) is: its first bytes decide where
// they are unambiguous (a PDF, a zip), else its declared content type, else its
// file name's extension, else a look at its start for HTML.
import { zipEntryNames } from './zip-entries.ts';

export const UPLOAD_KINDS = ['pdf', 'html', 'docx', 'text', 'markdown'] as const;
export type UploadKind = (typeof UPLOAD_KINDS)[number];

/** The content type the document reports for each kind. */
export const UPLOAD_CONTENT_TYPES: Record<UploadKind, string> = {
  pdf: 'application/pdf',
  html: 'text/html',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  text: 'text/plain',
  markdown: 'text/markdown',
};

/** How the 415 names what is accepted. */
export const SUPPORTED_UPLOADS = 'PDF (.pdf), HTML (.html, .htm, .xhtml), Word (.docx), plain text (.txt) and markdown (.md, .markdown)';

const DECLARED: Record<string, UploadKind> = {
  'application/pdf': 'pdf',
  'application/x-pdf': 'pdf',
  'text/html': 'html',
  'application/xhtml+xml': 'html',
  [UPLOAD_CONTENT_TYPES.docx]: 'docx',
  'text/plain': 'text',
  'text/markdown': 'markdown',
  'text/x-markdown': 'markdown',
};

const EXTENSIONS: Record<string, UploadKind> = {
  pdf: 'pdf',
  html: 'html',
  htm: 'html',
  xhtml: 'html',
  docx: 'docx',
  txt: 'text',
  text: 'text',
  md: 'markdown',
  markdown: 'markdown',
};

const ZIP_MAGIC = 'PK\x03\x04';
const HTML_START = /^\s*(<!--[\s\S]*?-->\s*)*<(!doctype\s+html|html[\s>]|head[\s>]|body[\s>])/i;

function extensionOf(filename: string): string {
  const dot = filename.lastIndexOf('.');
  return dot < 0 ? '' : filename.slice(dot + 1).toLowerCase();
}

/** The upload's kind, or undefined when it is none this service converts (a 415). */
export function uploadKind(bytes: Uint8Array, declaredType: string | undefined, filename: string): UploadKind | undefined {
  const head = Buffer.from(bytes.subarray(0, 1024)).toString('latin1');
  if (head.startsWith('%PDF-')) return 'pdf';
  const declared = DECLARED[(declaredType ?? '').split(';')[0].trim().toLowerCase()];
  const named = EXTENSIONS[extensionOf(filename)];
  if (head.startsWith(ZIP_MAGIC)) {
    // Any other zip (an .xlsx, a .pptx, an archive) is not a Word document, whatever it is called.
    return (declared === 'docx' || named === 'docx') && zipEntryNames(bytes)?.includes('word/document.xml') ? 'docx' : undefined;
  }
  // A PDF or DOCX that does not start like one is still read as one: its parser says what is wrong with it.
  const claimed = declared ?? named;
  if (claimed) return claimed;
  return HTML_START.test(head.replace(/^\uFEFF/, '')) ? 'html' : undefined;
}
