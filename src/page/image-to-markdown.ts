// An image read by OCR (the image parser) as a one-page document: its lines
// grouped into blocks as a PDF page's are, in pixels. Its size is checked from
// its header before anything decodes it.
import { IMAGE_FORMAT_NAMES, imageFormat, imagePixels } from './ocr/image-format.ts';
import { OcrUnavailableError } from './ocr/ocr-engine.ts';
import { ocrLine, type OcrRun } from './ocr/ocr-pages.ts';
import { assemblePages, type AssembleOptions } from './paged-document.ts';
import { firstHeading, type PdfConversion } from './pdf-to-markdown.ts';
import { bodySize, pageBlocks } from './text-blocks.ts';

export async function imageToMarkdown(bytes: Uint8Array, ocr: OcrRun, opts: AssembleOptions = {}): Promise<PdfConversion> {
  const { engine } = ocr;
  const format = imageFormat(bytes);
  if (!format) throw new Error(`The image could not be read: it is none of the formats OCR reads (${IMAGE_FORMAT_NAMES})`);
  const size = imagePixels(bytes, format);
  if (!size) throw new Error(`The image could not be read: its ${format.toUpperCase()} header gives no size`);
  const [width, height] = size;
  if (width * height > engine.settings.maxPixels) {
    throw new Error(`The image is ${width}×${height} pixels, more than OCR reads (OCR_MAX_PIXELS=${engine.settings.maxPixels})`);
  }
  const deadline = Date.now() + ocr.budgetMs;
  const timeoutMs = () => Math.max(1, Math.min(engine.settings.pageTimeoutMs, deadline - Date.now()));
  let page;
  try {
    const readable = format === 'avif' ? await engine.decodeAvif(bytes, { timeoutMs: timeoutMs(), signal: ocr.signal }) : bytes;
    page = await engine.recognize(readable, { timeoutMs: timeoutMs(), signal: ocr.signal });
  } catch (err) {
    if (err instanceof OcrUnavailableError) throw err;
    throw new Error(`The image could not be read by OCR: ${(err as Error).message}`, { cause: err });
  }
  const lines = page.lines.map((line) => ocrLine(line, 1));
  const layouts = [{ pageNumber: 1, width, height, source: 'ocr' as const, blocks: pageBlocks(lines, bodySize(lines)) }];
  const title = firstHeading(layouts);
  return { ...assemblePages(layouts, opts), numPages: 1, ...(title !== undefined && { title }), metadata: {} };
}
