// Visual lines of a page (from a PDF's text layer or from OCR) grouped into
// headings, paragraphs and lists, by size, spacing, indentation and markers.
// Both sources give lines in the page's own units (points of a PDF page,
// pixels of an image), y growing down the page.

/** [left, top, right, bottom]. */
export type Box = [number, number, number, number];

export interface Line {
  text: string;
  x: number;
  /** The baseline. */
  y: number;
  /** The font size. */
  size: number;
  box: Box;
  /** OCR's mean word confidence, 0..1; undefined for the text layer. */
  confidence?: number;
}

export interface ListItem {
  text: string;
  lines: Line[];
}

export type Block =
  | { kind: 'heading'; level: number; text: string; lines: Line[] }
  | { kind: 'paragraph'; text: string; lines: Line[] }
  | { kind: 'list'; ordered: boolean; start: number; x: number; items: ListItem[] };

// Fractions of the font size: a line advance of up to ~1.5em is ordinary leading, more means the
// author left space between blocks.
const PARAGRAPH_GAP = 1.5;
const LIST_CONTINUATION_INDENT = 0.5;
// Size relative to body text; close to browsers' h1/h2/h3 defaults (2em, 1.5em, 1.17em).
const HEADING_RATIOS = [1.75, 1.35, 1.12];
const MAX_HEADING_CHARS = 200;

// \uF0B7 and \uF0A7 are the Symbol and Wingdings bullets as word processors export them. A bullet
// glyph needs no space after it (OCR often reads none); a dash or star does ("-5", "*note"). « and ¢
// before a capital are how OCR reads a round bullet.
const BULLET_ITEM = /^(?:[•●▪■◦○‣∙·\uF0B7\uF0A7]\s*|[*–-]\s+|[«¢]\s*(?=\p{Lu}))(\S.*)$/u;
const ORDERED_ITEM = /^(\d{1,3})[.)]\s+(.*)$/;

/** The font size of the median character. */
export function bodySize(lines: Line[]): number {
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

/** The lines of one page as blocks; `body` is the body text size of the whole document. */
export function pageBlocks(lines: Line[], body: number): Block[] {
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
      if (continues && last?.kind === 'heading' && last.level === level) {
        last.text += ` ${line.text}`;
        last.lines.push(line);
      } else blocks.push({ kind: 'heading', level, text: line.text, lines: [line] });
    } else if (item) {
      const entry = { text: item.text, lines: [line] };
      if (last?.kind === 'list' && last.ordered === item.ordered) last.items.push(entry);
      else blocks.push({ kind: 'list', ordered: item.ordered, start: item.number, x: line.x, items: [entry] });
    } else if (continues && last?.kind === 'list' && line.x > last.x + LIST_CONTINUATION_INDENT * line.size) {
      const open = last.items[last.items.length - 1];
      open.text += ` ${line.text}`;
      open.lines.push(line);
    } else if (continues && last?.kind === 'paragraph') {
      last.text += ` ${line.text}`;
      last.lines.push(line);
    } else {
      blocks.push({ kind: 'paragraph', text: line.text, lines: [line] });
    }
    prev = line;
  }
  return blocks;
}
