// The blocks of a paged file (a PDF, an image read as one page) turned into the
// document's markdown and HTML, and, when asked for, its pages (markdown per
// physical page) and its layout blocks, each located in the markdown.
import type { PdfBlockItem, PdfPage, PdfPageBlocks, PdfPageStatus } from './document-schema.ts';
import type { Block, Box, Line } from './text-blocks.ts';

export interface PageLayout {
  /** 1-based. */
  pageNumber: number;
  width: number;
  height: number;
  source: 'text-layer' | 'ocr';
  /** Set when the page needed OCR and did not get it. */
  ocr?: 'skipped' | 'failed';
  blocks: Block[];
}

export interface AssembleOptions {
  /** `\n\n---\n\n<!-- page N -->\n\n` between pages in the markdown. */
  pageMarkers?: boolean;
  pages?: boolean;
  blocks?: boolean;
}

export interface PagedText {
  markdown: string;
  html: string;
  pages?: PdfPage[];
  blocks?: PdfPageBlocks[];
}

// Markdown would read these at the start of a paragraph as a heading, quote or list.
const BLOCK_MARKUP_START = /^(#{1,6}|[>+])(?=\s)/;

export function pageMarker(pageNumber: number): string {
  return `\n\n---\n\n<!-- page ${pageNumber} -->\n\n`;
}

interface Piece {
  markdown: string;
  item: Omit<PdfBlockItem, 'id' | 'markdownSpan' | 'readingOrder' | 'source'>;
}

/** A block's markdown, as pieces that each become a layout item (a list gives one per item). */
function pieces(block: Block): Piece[] {
  switch (block.kind) {
    case 'heading':
      return [{ markdown: `${'#'.repeat(block.level)} ${block.text}`, item: item('heading', `h${block.level}`, block.text, block.lines) }];
    case 'paragraph':
      return [{ markdown: block.text.replace(BLOCK_MARKUP_START, '\\$1'), item: item('paragraph', null, block.text, block.lines) }];
    case 'list':
      return block.items.map((entry, i) => ({
        markdown: `${block.ordered ? `${block.start + i}.` : '-'} ${entry.text}`,
        item: item('list_item', block.ordered ? 'ordered' : 'bullet', entry.text, entry.lines),
      }));
  }
}

const round = (n: number) => Math.round(n * 100) / 100;

function item(type: PdfBlockItem['type'], label: string | null, content: string, lines: Line[]): Piece['item'] {
  const box: Box = [Infinity, Infinity, -Infinity, -Infinity];
  for (const l of lines) {
    box[0] = Math.min(box[0], l.box[0]);
    box[1] = Math.min(box[1], l.box[1]);
    box[2] = Math.max(box[2], l.box[2]);
    box[3] = Math.max(box[3], l.box[3]);
  }
  const confidences = lines.flatMap((l) => (l.confidence === undefined ? [] : [l.confidence]));
  const ocr = confidences.length > 0 ? round(confidences.reduce((a, b) => a + b, 0) / confidences.length) : null;
  return { type, label, content, bbox: lines.length > 0 ? (box.map(round) as Box) : null, confidence: { layout: null, ocr } };
}

function blockHtml(block: Block): string {
  switch (block.kind) {
    case 'heading':
      return `<h${block.level}>${escapeHtml(block.text)}</h${block.level}>`;
    case 'paragraph':
      return `<p>${escapeHtml(block.text)}</p>`;
    case 'list': {
      const items = block.items.map((entry) => `<li>${escapeHtml(entry.text)}</li>`).join('');
      if (!block.ordered) return `<ul>${items}</ul>`;
      return block.start === 1 ? `<ol>${items}</ol>` : `<ol start="${block.start}">${items}</ol>`;
    }
  }
}

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function status(page: PageLayout): PdfPageStatus {
  if (page.ocr) return page.ocr === 'skipped' ? 'ocr-skipped' : 'ocr-failed';
  return page.blocks.length > 0 ? 'ok' : 'empty';
}

/**
 * Blocks are joined by a blank line, list items by a newline; pages by a blank line, or by a page
 * marker naming the page that follows. A page with no text adds nothing, marker included.
 */
export function assemblePages(layouts: PageLayout[], opts: AssembleOptions = {}): PagedText {
  let markdown = '';
  const html: string[] = [];
  const pages: PdfPage[] = [];
  const blocks: PdfPageBlocks[] = [];
  for (const page of layouts) {
    const start = markdown.length === 0 ? 0 : markdown.length + (opts.pageMarkers ? pageMarker(page.pageNumber).length : 2);
    let pageMarkdown = '';
    const items: PdfBlockItem[] = [];
    page.blocks.forEach((block, b) => {
      const parts = pieces(block);
      if (b > 0) pageMarkdown += '\n\n';
      parts.forEach((part, i) => {
        if (i > 0) pageMarkdown += '\n';
        const at = start + pageMarkdown.length;
        pageMarkdown += part.markdown;
        const readingOrder = items.length;
        items.push({
          id: `p${page.pageNumber}-b${readingOrder}`,
          ...part.item,
          markdownSpan: [at, at + part.markdown.length],
          readingOrder,
          source: page.source,
        });
      });
      html.push(blockHtml(block));
    });
    if (pageMarkdown) {
      if (markdown) markdown += opts.pageMarkers ? pageMarker(page.pageNumber) : '\n\n';
      markdown += pageMarkdown;
    }
    pages.push({ pageNumber: page.pageNumber, markdown: pageMarkdown });
    blocks.push({ pageNumber: page.pageNumber, width: round(page.width), height: round(page.height), status: status(page), items });
  }
  return { markdown, html: html.join('\n'), ...(opts.pages && { pages }), ...(opts.blocks && { blocks }) };
}
