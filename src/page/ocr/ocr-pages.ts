// OCR of a PDF's pages, within the limits: at most OCR_MAX_PAGES pages, each
// rendered and read within OCR_PAGE_TIMEOUT_MS, all of them within the
// document's budget. A page left out or failed keeps its text layer; the
// warnings say which pages and why.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Line } from '../text-blocks.ts';
import type { OcrLine } from './hocr.ts';
import { OcrUnavailableError, type OcrEngine } from './ocr-engine.ts';

export interface OcrRun {
  engine: OcrEngine;
  /** Time all the OCR of the document may take: OCR_DOCUMENT_TIMEOUT_MS, or less when the request has less. */
  budgetMs: number;
  signal?: AbortSignal;
}

export interface PageToRead {
  pageNumber: number;
  /** Points. */
  width: number;
  height: number;
}

export type PageOcr = { lines: Line[] } | { skipped: true } | { failed: true };

/** Below this a page's text is too small to read: the page is left out rather than read badly. */
const MIN_DPI = 72;

/** Page numbers as ranges: 1-3, 5. */
export function pageRanges(pages: number[]): string {
  const ranges: string[] = [];
  for (let i = 0; i < pages.length; i++) {
    let j = i;
    while (j + 1 < pages.length && pages[j + 1] === pages[j] + 1) j++;
    ranges.push(j === i ? String(pages[i]) : `${pages[i]}-${pages[j]}`);
    i = j;
  }
  return ranges.join(', ');
}

const listed = (pages: number[]) => `${pages.length === 1 ? 'page' : 'pages'} ${pageRanges(pages)}`;

/** An OCR line in `scale` units per pixel (points of the PDF page: 72/dpi). */
export function ocrLine(line: OcrLine, scale: number): Line {
  return {
    text: line.text,
    x: line.box[0] * scale,
    y: line.baseline * scale,
    size: line.size * scale,
    box: [line.box[0] * scale, line.box[1] * scale, line.box[2] * scale, line.box[3] * scale],
    confidence: line.confidence,
  };
}

/** The resolution a page is rendered at: OCR_DPI, or less to stay within OCR_MAX_PIXELS. */
export function renderDpi(page: PageToRead, dpi: number, maxPixels: number): number {
  const squareInches = (page.width / 72) * (page.height / 72);
  return Math.min(dpi, Math.floor(Math.sqrt(maxPixels / Math.max(squareInches, 1e-6))));
}

/**
 * Reads `pages` of the PDF by OCR. `required` (mode ocr): a server without an OCR engine fails the
 * document; otherwise (auto) its pages are left out with a warning.
 */
export async function ocrPdfPages(pdf: Uint8Array, pages: PageToRead[], run: OcrRun, required: boolean, warnings: string[]): Promise<Map<number, PageOcr>> {
  const { engine } = run;
  const { settings } = engine;
  const results = new Map<number, PageOcr>();
  if (pages.length === 0) return results;
  const deadline = Date.now() + run.budgetMs;
  const overLimit: number[] = [];
  const outOfTime: number[] = [];
  const tooLarge: number[] = [];
  const failures = new Map<string, number[]>();
  let unavailable: { message: string; pages: number[] } | undefined;
  let read = 0;
  const dir = await mkdtemp(join(tmpdir(), 'ocr-pdf-'));
  try {
    const path = join(dir, 'in.pdf');
    await writeFile(path, pdf, { mode: 0o600 });
    for (const page of pages) {
      const n = page.pageNumber;
      const remaining = deadline - Date.now();
      const dpi = renderDpi(page, settings.dpi, settings.maxPixels);
      if (unavailable) unavailable.pages.push(n);
      else if (read >= settings.maxPages) overLimit.push(n);
      else if (remaining <= 0 || run.signal?.aborted) outOfTime.push(n);
      else if (dpi < MIN_DPI) tooLarge.push(n);
      else {
        read++;
        try {
          const timeoutMs = Math.min(settings.pageTimeoutMs, remaining);
          const image = await engine.renderPdfPage(path, n, { dpi, timeoutMs, signal: run.signal });
          const ocr = await engine.recognize(image, {
            dpi,
            timeoutMs: Math.min(settings.pageTimeoutMs, Math.max(1, deadline - Date.now())),
            signal: run.signal,
          });
          results.set(n, { lines: ocr.lines.map((line) => ocrLine(line, 72 / dpi)) });
          continue;
        } catch (err) {
          if (err instanceof OcrUnavailableError) {
            if (required) throw err;
            unavailable = { message: err.message, pages: [n] };
          } else {
            const why = (err as Error).message;
            failures.set(why, [...(failures.get(why) ?? []), n]);
            results.set(n, { failed: true });
            continue;
          }
        }
      }
      results.set(n, { skipped: true });
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  if (overLimit.length) warnings.push(`OCR reads at most ${settings.maxPages} pages of a document (OCR_MAX_PAGES); not read by OCR: ${listed(overLimit)}.`);
  if (outOfTime.length) warnings.push(`OCR ran out of time (${run.budgetMs} ms for the document); not read by OCR: ${listed(outOfTime)}.`);
  if (tooLarge.length)
    warnings.push(`Too large to render within OCR_MAX_PIXELS (${settings.maxPixels}) at ${MIN_DPI} dpi or more, not read by OCR: ${listed(tooLarge)}.`);
  for (const [why, failed] of failures) warnings.push(`OCR failed (${why}): ${listed(failed)}.`);
  if (unavailable) warnings.push(`No text layer, and not read (${unavailable.message}): ${listed(unavailable.pages)}.`);
  return results;
}
