// OCR's section of the settings (src/config.ts composes them all).
import { boundedInt, positiveInt, str } from '../../platform/config/env.ts';

/**
 * OCR (pdf parser mode ocr and auto, the image parser): Debian's tesseract, with pdftoppm
 * rendering PDF pages and avifdec decoding AVIF, each run as a child process with these limits.
 */
export function ocrConfig() {
  return {
    tesseractPath: str('OCR_TESSERACT_PATH') ?? 'tesseract',
    pdftoppmPath: str('OCR_PDFTOPPM_PATH') ?? 'pdftoppm',
    avifdecPath: str('OCR_AVIFDEC_PATH') ?? 'avifdec',
    /** Tesseract's -l: trained languages joined by +, each installed (Debian: tesseract-ocr-<lang>). */
    languages: str('OCR_LANGUAGES') ?? 'eng',
    /** Resolution PDF pages are rendered at for OCR; a page that would pass OCR_MAX_PIXELS is rendered at less. */
    dpi: boundedInt('OCR_DPI', 300, 72, 600, 'tesseract reads text best at 300 dpi'),
    /** Largest image (width × height) read by OCR: a larger image fails its page; a larger PDF page is rendered smaller. */
    maxPixels: positiveInt('OCR_MAX_PIXELS', 40_000_000),
    /** Pages of one document read by OCR; later pages that need it are left out with a warning. */
    maxPages: positiveInt('OCR_MAX_PAGES', 50),
    /** Longest the rendering and the recognition of one page may take each; the page is then left out with a warning. */
    pageTimeoutMs: positiveInt('OCR_PAGE_TIMEOUT_MS', 30_000),
    /** Longest all the OCR of one document may take (a scrape's own timeout may end it sooner); pages not reached are left out with a warning. */
    documentTimeoutMs: positiveInt('OCR_DOCUMENT_TIMEOUT_MS', 120_000),
    /** Address space of each OCR process (ulimit -v); one that needs more fails its page. */
    memoryMb: positiveInt('OCR_MEMORY_MB', 1024),
    /** OCR processes one service process runs at once (each uses one core); the others wait. */
    concurrency: positiveInt('OCR_CONCURRENCY', 1),
  };
}

export type OcrSettings = ReturnType<typeof ocrConfig>;
