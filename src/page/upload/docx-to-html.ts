// A Word document (.docx) as HTML, by mammoth, which keeps its structure
// (headings, lists, tables, links, images as data URIs) and drops its looks.
// Uploads are untrusted: the zip is proven to unpack within a budget first.
import { checkUnpackedSize, ZipError } from './zip-entries.ts';

export async function docxToHtml(bytes: Uint8Array, maxUnpackedBytes: number): Promise<string> {
  try {
    checkUnpackedSize(bytes, maxUnpackedBytes, 'PARSE_MAX_UNPACKED_BYTES');
    // Loaded with the first DOCX: the conversion threads the crawl uses never need it.
    const { default: mammoth } = await import('mammoth');
    const { value } = await mammoth.convertToHtml({ buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) });
    return value;
  } catch (err) {
    const reason = err instanceof ZipError ? err.message : (err as Error)?.message || String(err);
    throw new Error(`The DOCX could not be read: ${reason}`, { cause: err });
  }
}
