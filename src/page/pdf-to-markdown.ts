import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';

export interface PdfToMarkdownOptions {
  /** Stop after this many pages. */
  maxPages?: number;
}

export interface PdfConversion {
  markdown: string;
  /** The same blocks as `markdown`, as an HTML fragment (h1-h3, p, ul/ol/li). */
  html: string;
  /** Pages in the document, including any beyond `maxPages`. */
  numPages: number;
  title?: string;
  /** Non-empty string fields of the info dictionary, keys camelCased (`author`, `creationDate`). */
  metadata: Record<string, string>;
}

type Pdfjs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');

interface Run {
  text: string;
  x: number;
  y: number;
  width: number;
  size: number;
}

/** One visual line; `y` grows down the page, as in a viewport. */
interface Line {
  text: string;
  x: number;
  y: number;
  size: number;
}

type Block =
  | { kind: 'heading'; level: number; text: string }
  | { kind: 'paragraph'; text: string }
  | { kind: 'list'; ordered: boolean; start: number; x: number; items: string[] };

// Fractions of the font size. Word gaps are about a quarter em, kerning far less; a line advance
// of up to ~1.5em is ordinary leading, more means the author left space between blocks.
const WORD_GAP = 0.15;
const SAME_LINE = 0.5;
const PARAGRAPH_GAP = 1.5;
const LIST_CONTINUATION_INDENT = 0.5;
// Size relative to body text; close to browsers' h1/h2/h3 defaults (2em, 1.5em, 1.17em).
const HEADING_RATIOS = [1.75, 1.35, 1.12];
const MAX_HEADING_CHARS = 200;

// \uF0B7 and \uF0A7 are the Symbol and Wingdings bullets as word processors export them.
const BULLET_ITEM = /^[•●▪■◦○‣∙·\uF0B7\uF0A7*–-]\s+(.*)$/u;
const ORDERED_ITEM = /^(\d{1,3})[.)]\s+(.*)$/;
// Markdown would read these at the start of a paragraph as a heading, quote or list.
const BLOCK_MARKUP_START = /^(#{1,6}|[>+])(?=\s)/;
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

/** Text of a PDF as markdown and HTML, rebuilt from the positions and sizes of its text runs. */
export async function pdfToMarkdown(data: Uint8Array, opts: PdfToMarkdownOptions = {}): Promise<PdfConversion> {
  const pdfjs = await loadPdfjs();
  const task = pdfjs.getDocument({
    // A copy: pdf.js takes over the buffer it is given and detaches it from the caller.
    data: new Uint8Array(data),
    verbosity: pdfjs.VerbosityLevel.ERRORS,
    standardFontDataUrl: join(PDFJS_DIR, 'standard_fonts/'),
    cMapUrl: join(PDFJS_DIR, 'cmaps/'),
  });
  try {
    const doc = await task.promise;
    const pageCount = Math.min(doc.numPages, opts.maxPages ?? Infinity);
    const pages: Line[][] = [];
    for (let n = 1; n <= pageCount; n++) {
      const page = await doc.getPage(n);
      pages.push(await pageLines(pdfjs, page));
      page.cleanup();
    }
    const body = bodySize(pages.flat());
    const blocks = pages.flatMap((lines) => pageBlocks(lines, body));
    const metadata = infoMetadata(pdfjs, (await doc.getMetadata()).info);
    const firstHeading = blocks.find((b) => b.kind === 'heading')?.text;
    return {
      markdown: blocks.map(blockMarkdown).join('\n\n'),
      html: blocks.map(blockHtml).join('\n'),
      numPages: doc.numPages,
      title: metadata.title ?? firstHeading,
      metadata,
    };
  } catch (err) {
    const reason = (err as Error)?.name === 'PasswordException' ? 'it is password-protected' : (err as Error)?.message;
    throw new Error(`The PDF could not be read: ${reason ?? String(err)}`, { cause: err });
  } finally {
    await task.destroy();
  }
}

async function pageLines(pdfjs: Pdfjs, page: PDFPageProxy): Promise<Line[]> {
  // Viewport coordinates put page rotation and crop offsets behind us and run top to bottom.
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
  for (const run of runs) {
    if (text && run.x - end > WORD_GAP * run.size && !/\s$/.test(text) && !/^\s/.test(run.text)) text += ' ';
    text += run.text;
    end = Math.max(end, run.x + run.width);
  }
  // The longest run speaks for the line, so a superscript or a bold lead-in does not.
  const main = runs.reduce((a, b) => (b.text.length > a.text.length ? b : a));
  return { text: text.replace(/\s+/g, ' ').trim(), x: runs[0].x, y: main.y, size: main.size };
}

/** The font size of the median character. */
function bodySize(lines: Line[]): number {
  const sorted = [...lines].sort((a, b) => a.size - b.size);
  const total = sorted.reduce((sum, line) => sum + line.text.length, 0);
  let seen = 0;
  for (const line of sorted) {
    seen += line.text.length;
    if (seen * 2 >= total) return line.size;
  }
  return 0;
}

function headingLevel(line: Line, body: number): number {
  if (line.text.length > MAX_HEADING_CHARS || !/\p{L}/u.test(line.text)) return 0;
  return HEADING_RATIOS.findIndex((ratio) => line.size >= ratio * body) + 1;
}

function listItem(text: string): { ordered: boolean; number: number; text: string } | undefined {
  const ordered = ORDERED_ITEM.exec(text);
  if (ordered) return { ordered: true, number: Number(ordered[1]), text: ordered[2] };
  const bullet = BULLET_ITEM.exec(text);
  return bullet ? { ordered: false, number: 1, text: bullet[1] } : undefined;
}

// Blocks never continue across pages: a page break is as likely to end a block as to split one.
function pageBlocks(lines: Line[], body: number): Block[] {
  const blocks: Block[] = [];
  let prev: Line | undefined;
  for (const line of lines) {
    // A line above the previous one is the top of a new column.
    const advance = prev ? line.y - prev.y : -1;
    const continues = prev !== undefined && advance > 0 && advance <= PARAGRAPH_GAP * Math.min(prev.size, line.size);
    const last = blocks.at(-1);
    const level = headingLevel(line, body);
    const item = level ? undefined : listItem(line.text);
    if (level) {
      if (continues && last?.kind === 'heading' && last.level === level) last.text += ` ${line.text}`;
      else blocks.push({ kind: 'heading', level, text: line.text });
    } else if (item) {
      if (last?.kind === 'list' && last.ordered === item.ordered) last.items.push(item.text);
      else blocks.push({ kind: 'list', ordered: item.ordered, start: item.number, x: line.x, items: [item.text] });
    } else if (continues && last?.kind === 'list' && line.x > last.x + LIST_CONTINUATION_INDENT * line.size) {
      last.items[last.items.length - 1] += ` ${line.text}`;
    } else if (continues && last?.kind === 'paragraph') {
      last.text += ` ${line.text}`;
    } else {
      blocks.push({ kind: 'paragraph', text: line.text });
    }
    prev = line;
  }
  return blocks;
}

function blockMarkdown(block: Block): string {
  switch (block.kind) {
    case 'heading':
      return `${'#'.repeat(block.level)} ${block.text}`;
    case 'paragraph':
      return block.text.replace(BLOCK_MARKUP_START, '\\$1');
    case 'list':
      return block.items.map((item, i) => `${block.ordered ? `${block.start + i}.` : '-'} ${item}`).join('\n');
  }
}

function blockHtml(block: Block): string {
  switch (block.kind) {
    case 'heading':
      return `<h${block.level}>${escapeHtml(block.text)}</h${block.level}>`;
    case 'paragraph':
      return `<p>${escapeHtml(block.text)}</p>`;
    case 'list': {
      const items = block.items.map((item) => `<li>${escapeHtml(item)}</li>`).join('');
      if (!block.ordered) return `<ul>${items}</ul>`;
      return block.start === 1 ? `<ol>${items}</ol>` : `<ol start="${block.start}">${items}</ol>`;
    }
  }
}

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
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
