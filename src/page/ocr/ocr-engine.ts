// OCR with Debian's tesseract, pdftoppm (poppler-utils) to render PDF pages and
// avifdec (libavif-bin) to decode AVIF, each a bounded child process
// (platform/process/bounded-run.ts): the event loop only waits. At most
// OCR_CONCURRENCY of them run at once in a process, each on one core.
// scripts/bootstrap.mjs installs the packages (apt-get, as root) and the
// Dockerfile carries them; a server without them answers OCR with a clear error.
import { accessSync, constants } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, isAbsolute, join } from 'node:path';
import type { OcrSettings } from './config.ts';
import { boundedRun, BoundedRunError, type BoundedRunOptions } from '../../platform/process/bounded-run.ts';
import { parseHocr, type OcrPage } from './hocr.ts';

export type { OcrSettings };

/** OCR cannot run on this server (a tool is missing): the message says what to install. */
export class OcrUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OcrUnavailableError';
  }
}

export interface OcrEngine {
  readonly settings: OcrSettings;
  /** The text of an image file tesseract reads (PNG, JPEG, JPEG 2000, TIFF, GIF, BMP, WebP). `dpi`: of a rendered page. */
  recognize(image: Uint8Array, opts: { timeoutMs: number; dpi?: number; signal?: AbortSignal }): Promise<OcrPage>;
  /** One page (1-based) of the PDF at `pdfPath` as a greyscale image (PGM) at `dpi`. */
  renderPdfPage(pdfPath: string, page: number, opts: { dpi: number; timeoutMs: number; signal?: AbortSignal }): Promise<Uint8Array>;
  /** An AVIF image as PNG (tesseract's image library reads no AVIF). */
  decodeAvif(avif: Uint8Array, opts: { timeoutMs: number; signal?: AbortSignal }): Promise<Uint8Array>;
}

const INSTALL_HINT: Record<'tesseract' | 'pdftoppm' | 'avifdec', string> = {
  tesseract: 'tesseract (Debian: apt-get install tesseract-ocr tesseract-ocr-eng; or set OCR_TESSERACT_PATH)',
  pdftoppm: 'pdftoppm (Debian: apt-get install poppler-utils; or set OCR_PDFTOPPM_PATH)',
  avifdec: 'avifdec (Debian: apt-get install libavif-bin; or set OCR_AVIFDEC_PATH)',
};

// hOCR runs to a few hundred bytes a word; a page of dense text stays far below this.
const MAX_HOCR_BYTES = 32 * 1024 * 1024;

/** Whether `command` (a path, or a name looked up on PATH) is an executable file here. */
export function commandExists(command: string): boolean {
  const candidates = isAbsolute(command) || command.includes('/') ? [command] : (process.env.PATH ?? '').split(delimiter).map((dir) => join(dir, command));
  return candidates.some((path) => {
    try {
      accessSync(path, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/** Whether images can be read here: the image parser and the upload kind depend on it. */
export function ocrAvailable(settings: OcrSettings): boolean {
  return commandExists(settings.tesseractPath);
}

class Gate {
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  constructor(private readonly limit: number) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running++;
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}

export function createOcrEngine(settings: OcrSettings): OcrEngine {
  const gate = new Gate(settings.concurrency);
  const run = (tool: keyof typeof INSTALL_HINT, command: string, args: string[], opts: Omit<BoundedRunOptions, 'memoryMb'>) =>
    gate.run(async () => {
      try {
        return await boundedRun(command, args, { ...opts, memoryMb: settings.memoryMb });
      } catch (err) {
        if (err instanceof BoundedRunError && err.failure === 'missing') {
          throw new OcrUnavailableError(`OCR is not available on this server: ${INSTALL_HINT[tool]} was not found`);
        }
        throw err;
      }
    });

  return {
    settings,
    async recognize(image, { timeoutMs, dpi, signal }) {
      const args = ['stdin', 'stdout', '-l', settings.languages, '--psm', '3', ...(dpi ? ['--dpi', String(dpi)] : []), 'hocr'];
      // One thread: concurrency is OCR_CONCURRENCY's to decide, and OpenMP threads make tesseract slower on shared cores.
      const env: Record<string, string> = { OMP_THREAD_LIMIT: '1', ...(process.env.TESSDATA_PREFIX && { TESSDATA_PREFIX: process.env.TESSDATA_PREFIX }) };
      const out = await run('tesseract', settings.tesseractPath, args, {
        input: image,
        timeoutMs,
        maxOutputBytes: MAX_HOCR_BYTES,
        env,
        timeoutSetting: 'OCR_PAGE_TIMEOUT_MS',
        signal,
      });
      return parseHocr(out.toString('utf8'));
    },
    renderPdfPage(pdfPath, page, { dpi, timeoutMs, signal }) {
      // PGM: a byte a pixel, so the output is bounded by OCR_MAX_PIXELS (poppler's greyscale PNG is RGB).
      const args = ['-f', String(page), '-l', String(page), '-r', String(dpi), '-gray', '-singlefile', pdfPath];
      return run('pdftoppm', settings.pdftoppmPath, args, {
        timeoutMs,
        maxOutputBytes: settings.maxPixels + 1024,
        timeoutSetting: 'OCR_PAGE_TIMEOUT_MS',
        signal,
      });
    },
    async decodeAvif(avif, { timeoutMs, signal }) {
      // avifdec reads and writes files only.
      const dir = await mkdtemp(join(tmpdir(), 'ocr-avif-'));
      try {
        await writeFile(join(dir, 'in.avif'), avif, { mode: 0o600 });
        await run('avifdec', settings.avifdecPath, ['-d', '8', join(dir, 'in.avif'), join(dir, 'out.png')], {
          timeoutMs,
          maxOutputBytes: 64 * 1024,
          timeoutSetting: 'OCR_PAGE_TIMEOUT_MS',
          signal,
        });
        return await readFile(join(dir, 'out.png'));
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  };
}

const shared = new Map<string, OcrEngine>();

/** One engine per settings in this thread, so that OCR_CONCURRENCY holds across the files it reads. */
export function sharedOcrEngine(settings: OcrSettings): OcrEngine {
  const key = JSON.stringify(settings);
  let engine = shared.get(key);
  if (!engine) shared.set(key, (engine = createOcrEngine(settings)));
  return engine;
}
