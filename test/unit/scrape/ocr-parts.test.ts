// The pure parts of OCR: tesseract's hOCR read into lines, image formats and
// sizes told from their headers, the render resolution and the page ranges of
// warnings. Tesseract itself runs in test/integration/pdf-parsers.test.ts.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseHocr } from '../../../src/page/ocr/hocr.ts';
import { imageFormat, imageFormatOfPath, imageFormatOfType, imagePixels } from '../../../src/page/ocr/image-format.ts';
import { pageRanges, renderDpi } from '../../../src/page/ocr/ocr-pages.ts';
import { gif, jpeg, webpLossless } from '../../support/image-files.ts';

// As tesseract 5.3 writes it (trimmed): a header line is a line too, words may carry markup and entities.
const HOCR = `<?xml version="1.0" encoding="UTF-8"?>
<html><body>
  <div class='ocr_page' id='page_1' title='image "-"; bbox 0 0 2550 3300; ppageno 0; scan_res 300 300'>
   <div class='ocr_carea' id='block_1_1' title="bbox 304 224 1100 322">
    <p class='ocr_par' id='par_1_1' lang='eng' title="bbox 304 224 1100 322">
     <span class='ocr_header' id='line_1_1' title="bbox 304 224 1100 322; baseline -0.001 -21; x_size 98; x_descenders 21; x_ascenders 20">
      <span class='ocrx_word' id='word_1_1' title='bbox 304 224 743 322; x_wconf 96'><strong>Quarterly</strong></span>
      <span class='ocrx_word' id='word_1_2' title='bbox 780 227 1100 321; x_wconf 90'>Report</span>
     </span>
     <span class='ocr_line' id='line_1_2' title="bbox 300 415 1320 460; baseline 0.001 -10; x_size 44; x_descenders 9; x_ascenders 9">
      <span class='ocrx_word' id='word_1_3' title='bbox 300 415 381 451; x_wconf 80'>R&amp;D</span>
      <span class='ocrx_word' id='word_1_4' title='bbox 403 418 520 460; x_wconf 70'>&lt;grew&gt;&#33;</span>
     </span>
     <span class='ocr_line' id='line_1_3' title="bbox 300 500 400 540; baseline 0 -8; x_size 40">
      <span class='ocrx_word' id='word_1_5' title='bbox 300 500 400 540; x_wconf 10'> </span>
     </span>
    </p>
   </div>
  </div>
</body></html>`;

describe('parseHocr', () => {
  it('reads lines with their box, baseline, size and mean word confidence; words decoded, empty lines dropped', () => {
    expect(parseHocr(HOCR)).toEqual({
      width: 2550,
      height: 3300,
      lines: [
        { text: 'Quarterly Report', box: [304, 224, 1100, 322], baseline: 301, size: 98, confidence: expect.closeTo(0.93, 5) },
        { text: 'R&D <grew>!', box: [300, 415, 1320, 460], baseline: 450, size: 44, confidence: expect.closeTo(0.75, 5) },
      ],
    });
  });

  it('reads nothing from output without lines', () => {
    expect(parseHocr('')).toEqual({ width: 0, height: 0, lines: [] });
    expect(parseHocr("<div class='ocr_page' title='bbox 0 0 10 20'></div>")).toEqual({ width: 10, height: 20, lines: [] });
  });
});

describe('image formats', () => {
  const tiff = (little: boolean, width: number, height: number) => {
    const b = Buffer.alloc(8 + 2 + 2 * 12 + 4);
    const u16 = (v: number, at: number) => (little ? b.writeUInt16LE(v, at) : b.writeUInt16BE(v, at));
    const u32 = (v: number, at: number) => (little ? b.writeUInt32LE(v, at) : b.writeUInt32BE(v, at));
    b.write(little ? 'II' : 'MM', 0, 'latin1');
    u16(42, 2);
    u32(8, 4);
    u16(2, 8);
    // ImageWidth as a SHORT, ImageLength as a LONG.
    u16(256, 10);
    u16(3, 12);
    u32(1, 14);
    u16(width, 18);
    u16(257, 22);
    u16(4, 24);
    u32(1, 26);
    u32(height, 30);
    return b;
  };
  const jp2 = Buffer.concat([
    Buffer.from([0, 0, 0, 0x0c, 0x6a, 0x50, 0x20, 0x20, 0x0d, 0x0a, 0x87, 0x0a]),
    Buffer.from('\0\0\0\x2djp2h\0\0\0\x16ihdr\0\0\x03\x20\0\0\x04\x00', 'latin1'),
  ]);
  const codestream = Buffer.alloc(40);
  [0xff, 0x4f, 0xff, 0x51].forEach((v, i) => (codestream[i] = v));
  codestream.writeUInt32BE(1200, 8);
  codestream.writeUInt32BE(900, 12);
  codestream.writeUInt32BE(200, 16);

  it.each([
    ['png', readFileSync('test/fixtures/pdf/scan.png'), [1275, 1650]],
    ['jpeg', jpeg(640, 480), [640, 480]],
    ['gif', gif(30, 20), [30, 20]],
    ['webp', webpLossless(100, 50), [100, 50]],
    ['tiff', tiff(true, 300, 200), [300, 200]],
    ['tiff', tiff(false, 301, 201), [301, 201]],
    ['jpeg2000', jp2, [1024, 800]],
    ['jpeg2000', codestream, [1000, 900]],
  ] as const)('tells %s by its first bytes and reads its size', (format, bytes, size) => {
    expect(imageFormat(bytes)).toBe(format);
    expect(imagePixels(bytes, format)).toEqual(size);
  });

  it('tells no format for other files, and no size from a header that has none', () => {
    expect(imageFormat(Buffer.from('%PDF-1.4'))).toBeUndefined();
    expect(imageFormat(Buffer.from('<svg/>'))).toBeUndefined();
    expect(imagePixels(Buffer.from('II*\0\xff\xff\xff\xff', 'latin1'), 'tiff')).toBeUndefined();
    expect(imagePixels(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), 'png')).toBeUndefined();
  });

  it('names formats by content type and by extension', () => {
    expect(imageFormatOfType('Image/JPEG; charset=binary')).toBe('jpeg');
    expect(imageFormatOfType('image/svg+xml')).toBeUndefined();
    expect(imageFormatOfPath('/scans/page.TIF')).toBe('tiff');
    expect(imageFormatOfPath('/a.jp2')).toBe('jpeg2000');
    expect(imageFormatOfPath('/a.pdf')).toBeUndefined();
  });
});

describe('renderDpi and pageRanges', () => {
  it('renders at OCR_DPI unless the page would pass OCR_MAX_PIXELS', () => {
    const letter = { pageNumber: 1, width: 612, height: 792 };
    expect(renderDpi(letter, 300, 40_000_000)).toBe(300);
    // A 2 m x 1 m poster: as many pixels as allowed, no more.
    const poster = { pageNumber: 1, width: 5669, height: 2835 };
    const dpi = renderDpi(poster, 300, 40_000_000);
    expect(dpi).toBe(113);
    expect((poster.width / 72) * dpi * (poster.height / 72) * dpi).toBeLessThanOrEqual(40_000_000);
  });

  it('writes page numbers as ranges', () => {
    expect(pageRanges([1])).toBe('1');
    expect(pageRanges([1, 2, 3, 5, 7, 8])).toBe('1-3, 5, 7-8');
  });
});
