import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { ocrPdfPages, type OcrRun, type PageOcr } from './ocr/ocr-pages.ts';
import { assemblePages, type AssembleOptions, type PagedText, type PageLayout } from './paged-document.ts';
import { bodySize, pageBlocks, type Line } from './text-blocks.ts';

export type PdfMode = 'fast' | 'auto' | 'ocr';

export interface PdfToMarkdownOptions extends AssembleOptions {
  /** Stop after this many pages. */
  maxPages?: number;
  /** fast: the text layer only; auto (the default): OCR for pages without one; ocr: OCR for every page. */
  mode?: PdfMode;
  /** How OCR runs here; without it no page is read by OCR (auto keeps the text layer, ocr fails). */
  ocr?: OcrRun;
}

export interface PdfConversion extends PagedText {
  /** Pages in the document, including any beyond `maxPages`. */
  numPages: number;
  title?: string;
  /** Non-empty string fields of the info dictionary, keys camelCased (`author`, `creationDate`). */
  metadata: Record<string, string>;
  /** What could not be read as asked (pages OCR left out, and why). */
  warnings?: string[];
}

type Pdfjs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');

interface Run {
  text: string;
  x: number;
  y: number;
  width: number;
  size: number;
}

interface TextPage {
  pageNumber: number;
  width: number;
  height: number;
  lines: Line[];
}

// Fractions of the font size. Word gaps are about a quarter em, kerning far less.
const WORD_GAP = 0.15;
const SAME_LINE = 0.5;
// The em box around a baseline, as pdf.js's own text layer places it.
const ASCENT = 0.8;
const DESCENT = 0.2;
const IMPORT_TIME_CANVAS_WARNING = /@napi-rs\/canvas|Cannot polyfill/;

let pdfjsModule: Promise<Pdfjs> | undefined;

// Several megabytes of code: loaded when the first PDF arrives, not when the process starts.
// On import it warns when the optional @napi-rs/canvas is missing, which only rendering needs.
function loadPdfjs(): Promise<Pdfjs> {
  pdfjsModule ??= (async () => {
    const warn = console.warn;
    console.warn = (...args: unknown[]) => {
      if (!IMPORT_TIME_CANVAS_WARNING.test(String(args[0]))) warn.apply(console, args);
    };
    try {
      return await import('pdfjs-dist/legacy/build/pdf.mjs');
    } finally {
      console.warn = warn;
    }
  })();
  return pdfjsModule;
}

// The package's own font and CMap data, read from disk: fonts without an embedded program and
// CJK text need them, and nothing may be fetched over the network.
const PDFJS_DIR = dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));

/**
 * Text of a PDF as markdown and HTML, rebuilt from the positions and sizes of its text runs, and of
 * OCR lines for the pages OCR reads (mode).
 */
export async function pdfToMarkdown(data: Uint8Array, opts: PdfToMarkdownOptions = {}): Promise<PdfConversion> {
  const pdfjs = await loadPdfjs();
  const mode = opts.mode ?? 'auto';
  const task = pdfjs.getDocument({
    // A copy: pdf.js takes over the buffer it is given and detaches it from the caller.
    data: new Uint8Array(data),
    verbosity: pdfjs.VerbosityLevel.ERRORS,
    standardFontDataUrl: join(PDFJS_DIR, 'standard_fonts/'),
    cMapUrl: join(PDFJS_DIR, 'cmaps/'),
  });
  let textPages: TextPage[];
  let numPages: number;
  let metadata: Record<string, string>;
  try {
    const doc = await task.promise;
    numPages = doc.numPages;
    const pageCount = Math.min(doc.numPages, opts.maxPages ?? Infinity);
    textPages = [];
    for (let n = 1; n <= pageCount; n++) {
      const page = await doc.getPage(n);
      // Viewport coordinates put page rotation and crop offsets behind us and run top to bottom.
      const viewport = page.getViewport({ scale: 1 });
      textPages.push({ pageNumber: n, width: viewport.width, height: viewport.height, lines: await pageLines(pdfjs, page) });
      page.cleanup();
    }
    metadata = infoMetadata(pdfjs, (await doc.getMetadata()).info);
  } catch (err) {
    const reason = (err as Error)?.name === 'PasswordException' ? 'it is password-protected' : (err as Error)?.message;
    throw new Error(`The PDF could not be read: ${reason ?? String(err)}`, { cause: err });
  } finally {
    await task.destroy();
  }

  const warnings: string[] = [];
  const toRead = mode === 'fast' ? [] : textPages.filter((p) => mode === 'ocr' || p.lines.length === 0);
  let ocr = new Map<number, PageOcr>();
  if (toRead.length > 0) {
    if (opts.ocr) ocr = await ocrPdfPages(data, toRead, opts.ocr, mode === 'ocr', warnings);
    else if (mode === 'ocr') throw new Error('PDF parser mode "ocr" needs OCR, which this service cannot run here');
  }
  const layouts = textLayouts(textPages, ocr);
  const title = metadata.title ?? firstHeading(layouts);
  return {
    ...assemblePages(layouts, opts),
    numPages,
    ...(title !== undefined && { title }),
    metadata,
    ...(warnings.length > 0 && { warnings }),
  };
}

function textLayouts(textPages: TextPage[], ocr: Map<number, PageOcr>): PageLayout[] {
  const pages = textPages.map((page) => {
    const read = ocr.get(page.pageNumber);
    const lines = read && 'lines' in read ? read.lines : page.lines;
    const missed = read && !('lines' in read) ? ('skipped' in read ? ('skipped' as const) : ('failed' as const)) : undefined;
    return { page, lines, source: read && 'lines' in read ? ('ocr' as const) : ('text-layer' as const), missed };
  });
  const body = bodySize(pages.flatMap((p) => p.lines));
  // Blocks never continue across pages: a page break is as likely to end a block as to split one.
  return pages.map(({ page, lines, source, missed }) => ({
    pageNumber: page.pageNumber,
    width: page.width,
    height: page.height,
    source,
    ...(missed && { ocr: missed }),
    blocks: pageBlocks(lines, body),
  }));
}

export function firstHeading(layouts: PageLayout[]): string | undefined {
  for (const page of layouts) {
    const heading = page.blocks.find((b) => b.kind === 'heading');
    if (heading) return heading.text;
  }
  return undefined;
}

async function pageLines(pdfjs: Pdfjs, page: PDFPageProxy): Promise<Line[]> {
  const viewport = page.getViewport({ scale: 1 });
  const runs: Run[] = [];
  for (const item of (await page.getTextContent()).items) {
    // Whitespace runs are dropped: spacing is recomputed from the gaps between runs.
    if (!('str' in item) || !item.str.trim()) continue;
    const [, , c, d, x, y] = pdfjs.Util.transform(viewport.transform, item.transform) as number[];
    runs.push({ text: item.str, x, y, width: item.width, size: Math.round(Math.hypot(c, d) * 10) / 10 });
  }
  // Consecutive runs only: content streams are mostly in reading order, so columns stay apart.
  const groups: Run[][] = [];
  for (const run of runs) {
    const current = groups.at(-1);
    const anchor = current?.[0];
    if (current && anchor && Math.abs(run.y - anchor.y) <= SAME_LINE * Math.max(run.size, anchor.size)) current.push(run);
    else groups.push([run]);
  }
  return groups.map(joinRuns);
}

function joinRuns(runs: Run[]): Line {
  runs.sort((a, b) => a.x - b.x);
  let text = '';
  let end = -Infinity;
  let top = Infinity;
  let bottom = -Infinity;
  for (const run of runs) {
    if (text && run.x - end > WORD_GAP * run.size && !/\s$/.test(text) && !/^\s/.test(run.text)) text += ' ';
    text += run.text;
    end = Math.max(end, run.x + run.width);
    top = Math.min(top, run.y - ASCENT * run.size);
    bottom = Math.max(bottom, run.y + DESCENT * run.size);
  }
  // The longest run speaks for the line, so a superscript or a bold lead-in does not.
  const main = runs.reduce((a, b) => (b.text.length > a.text.length ? b : a));
  return { text: text.replace(/\s+/g, ' ').trim(), x: runs[0].x, y: main.y, size: main.size, box: [runs[0].x, top, end, bottom] };
}

const DATE_FIELDS = new Set(['creationDate', 'modDate']);

function infoMetadata(pdfjs: Pdfjs, info: object): Record<string, string> {
  const { Custom: custom, ...fields } = info as Record<string, unknown>;
  const metadata: Record<string, string> = {};
  for (const [name, value] of Object.entries({ ...fields, ...(custom as object | undefined) })) {
    if (typeof value !== 'string' || !value.trim()) continue;
    // PDFFormatVersion -> pdfFormatVersion, CreationDate -> creationDate.
    const key = name.replace(/^[A-Z]+(?=[A-Z][a-z]|$)|^[A-Z]/, (head) => head.toLowerCase());
    const date = DATE_FIELDS.has(key) ? pdfjs.PDFDateString.toDateObject(value) : null;
    metadata[key] = date ? date.toISOString() : value.trim();
  }
  return metadata;
}
