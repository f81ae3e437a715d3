// Tesseract's hOCR output read into lines of text with their boxes: tesseract
// writes one element per line on a line of its own (ocr_line, or ocr_header,
// ocr_caption, ocr_textfloat for lines it sets apart), its words inside, with
// the geometry in the title attribute. Only our own tesseract's output is read
// here, but the words in it come from a stranger's image: they are decoded as
// text, never interpreted.

/** [left, top, right, bottom], pixels of the image, y down. */
export type Box = [number, number, number, number];

export interface OcrLine {
  text: string;
  box: Box;
  /** y of the baseline. */
  baseline: number;
  /** Tesseract's estimate of the font size (x_size), pixels. */
  size: number;
  /** Mean confidence of its words, 0..1. */
  confidence: number;
}

export interface OcrPage {
  width: number;
  height: number;
  lines: OcrLine[];
}

// A title is quoted either way and may hold the other quote (image "-").
const TITLE = `title=(?:'([^']*)'|"([^"]*)")`;
const PAGE = new RegExp(`class=['"]ocr_page['"][^>]*${TITLE}`);
const LINE_START = new RegExp(`<span class=['"](?:ocr_line|ocr_header|ocr_caption|ocr_textfloat)['"][^>]*${TITLE}[^>]*>`, 'g');
const WORD = new RegExp(`<span class=['"]ocrx_word['"][^>]*${TITLE}[^>]*>([\\s\\S]*?)</span>`, 'g');
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function numbers(title: string, key: string): number[] | undefined {
  const m = new RegExp(`(?:^|;)\\s*${key}((?:\\s+-?[\\d.]+)+)`).exec(title);
  return m ? m[1].trim().split(/\s+/).map(Number) : undefined;
}

function decode(text: string): string {
  return text.replace(/<[^>]*>/g, '').replace(/&(#x[\da-f]+|#\d+|[a-z]+);/gi, (entity, name: string) => {
    if (name[0] !== '#') return ENTITIES[name.toLowerCase()] ?? entity;
    const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '';
  });
}

function box(title: string): Box | undefined {
  const b = numbers(title, 'bbox');
  return b && b.length === 4 && b.every(Number.isFinite) ? [b[0], b[1], b[2], b[3]] : undefined;
}

export function parseHocr(hocr: string): OcrPage {
  const page = PAGE.exec(hocr);
  const pageBox = box(page?.[1] ?? page?.[2] ?? '');
  const lines: OcrLine[] = [];
  const starts = [...hocr.matchAll(LINE_START)];
  starts.forEach((start, i) => {
    const title = start[1] ?? start[2];
    const lineBox = box(title);
    if (!lineBox) return;
    // A line's words run until the next line starts.
    const body = hocr.slice(start.index + start[0].length, starts[i + 1]?.index ?? hocr.length);
    const words: { text: string; confidence: number }[] = [];
    for (const w of body.matchAll(WORD)) {
      const text = decode(w[3]).trim();
      if (text) words.push({ text, confidence: (numbers(w[1] ?? w[2], 'x_wconf')?.[0] ?? 0) / 100 });
    }
    if (words.length === 0) return;
    // baseline: slope and offset from the box's bottom-left corner.
    const [, offset = 0] = numbers(title, 'baseline') ?? [];
    const size = numbers(title, 'x_size')?.[0] ?? lineBox[3] - lineBox[1];
    lines.push({
      text: words.map((w) => w.text).join(' '),
      box: lineBox,
      baseline: lineBox[3] + offset,
      size,
      confidence: words.reduce((sum, w) => sum + w.confidence, 0) / words.length,
    });
  });
  return { width: pageBox?.[2] ?? 0, height: pageBox?.[3] ?? 0, lines };
}
