// Which kind of file an upload (POST /v2/parse) is: its first bytes decide where
// they are unambiguous (a PDF, a zip, an image), else its declared content
// type, else its file name's extension, else a look at its start for HTML.
import { IMAGE_FORMATS, IMAGE_TYPES, imageFormat } from '../ocr/image-format.ts';
import { zipEntryNames } from './zip-entries.ts';

export const UPLOAD_KINDS = ['pdf', 'html', 'docx', 'text', 'markdown', 'image'] as const;
export type UploadKind = (typeof UPLOAD_KINDS)[number];

/** What each kind is called by: its extensions and content types, the first of which the document reports. */
export const UPLOAD_TYPES: Record<UploadKind, { extensions: string[]; mimeTypes: string[] }> = {
  pdf: { extensions: ['pdf'], mimeTypes: ['application/pdf', 'application/x-pdf'] },
  html: { extensions: ['html', 'htm', 'xhtml'], mimeTypes: ['text/html', 'application/xhtml+xml'] },
  docx: { extensions: ['docx'], mimeTypes: ['application/vnd.openxmlformats-officedocument.wordprocessingml.document'] },
  text: { extensions: ['txt', 'text'], mimeTypes: ['text/plain'] },
  markdown: { extensions: ['md', 'markdown'], mimeTypes: ['text/markdown', 'text/x-markdown'] },
  image: {
    extensions: IMAGE_FORMATS.flatMap((f) => IMAGE_TYPES[f].extensions),
    mimeTypes: IMAGE_FORMATS.flatMap((f) => IMAGE_TYPES[f].mimeTypes),
  },
};

/** How the 415 names what is accepted. */
export const SUPPORTED_UPLOADS =
  'PDF (.pdf), HTML (.html, .htm, .xhtml), Word (.docx), plain text (.txt), markdown (.md, .markdown) and, with the image parser, images (PNG, JPEG, JPEG 2000, TIFF, GIF, BMP, WebP, AVIF)';

const byName = (names: (t: (typeof UPLOAD_TYPES)[UploadKind]) => string[]) =>
  Object.fromEntries(UPLOAD_KINDS.flatMap((kind) => names(UPLOAD_TYPES[kind]).map((name) => [name, kind]))) as Record<string, UploadKind>;
const DECLARED = byName((t) => t.mimeTypes);
const EXTENSIONS = byName((t) => t.extensions);
// Own keys only: a name such as "constructor" must not find Object.prototype's.
const lookup = (table: Record<string, UploadKind>, name: string): UploadKind | undefined => (Object.hasOwn(table, name) ? table[name] : undefined);

const ZIP_MAGIC = 'PK\x03\x04';
const HTML_START = /^\s*(<!--[\s\S]*?-->\s*)*<(!doctype\s+html|html[\s>]|head[\s>]|body[\s>])/i;

function extensionOf(filename: string): string {
  const dot = filename.lastIndexOf('.');
  return dot < 0 ? '' : filename.slice(dot + 1).toLowerCase();
}

/** The upload's kind, or undefined when it is none this service converts (a 415). */
export function uploadKind(bytes: Uint8Array, declaredType: string | undefined, filename: string): UploadKind | undefined {
  const head = Buffer.from(bytes.subarray(0, 1024)).toString('utf8');
  if (head.startsWith('%PDF-')) return 'pdf';
  if (imageFormat(bytes)) return 'image';
  const declared = lookup(DECLARED, (declaredType ?? '').split(';')[0].trim().toLowerCase());
  const named = lookup(EXTENSIONS, extensionOf(filename));
  if (head.startsWith(ZIP_MAGIC)) {
    // A zip holding a Word document's body is one, whatever it is called; any other zip (an .xlsx,
    // an archive) is not, unless it says it is: then the DOCX reader says what is wrong with it.
    return declared === 'docx' || named === 'docx' || zipEntryNames(bytes)?.includes('word/document.xml') ? 'docx' : undefined;
  }
  // A PDF or DOCX that does not start like one is still read as one: its parser says what is wrong with it.
  const claimed = declared ?? named;
  if (claimed) return claimed;
  return HTML_START.test(head.replace(/^\uFEFF/, '')) ? 'html' : undefined;
}
