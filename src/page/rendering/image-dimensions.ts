// The pixel size of an image from the first bytes of its file, for pages taken
// over HTTP: the browser path asks Chromium, which has decoded the image; here
// only the header is read, as Chromium would report it (naturalWidth/Height,
// EXIF and AVIF rotation applied). The bytes come from strangers: every offset
// is bounds-checked, loops only move forward, and anything unreadable is "no
// size", never an error.

import { isImageDimension } from '../image-sizes.ts';

/** [width, height] in pixels, each within (0, 100,000), as the index accepts them. */
export type Dimensions = [number, number];

function sized(width: number, height: number, swap = false): Dimensions | undefined {
  if (!isImageDimension(width) || !isImageDimension(height)) return undefined;
  return swap ? [height, width] : [width, height];
}

const ascii = (b: Buffer, at: number, text: string) => b.length >= at + text.length && b.toString('latin1', at, at + text.length) === text;

function png(b: Buffer): Dimensions | undefined {
  if (b.length < 24 || !ascii(b, 12, 'IHDR')) return undefined;
  return sized(b.readUInt32BE(16), b.readUInt32BE(20));
}

function gif(b: Buffer): Dimensions | undefined {
  return b.length < 10 ? undefined : sized(b.readUInt16LE(6), b.readUInt16LE(8));
}

function bmp(b: Buffer): Dimensions | undefined {
  if (b.length < 18) return undefined;
  const header = b.readUInt32LE(14);
  if (header === 12) return b.length < 22 ? undefined : sized(b.readUInt16LE(18), b.readUInt16LE(20));
  // Height is negative for top-down bitmaps.
  return b.length < 26 ? undefined : sized(b.readInt32LE(18), Math.abs(b.readInt32LE(22)));
}

function webp(b: Buffer): Dimensions | undefined {
  if (ascii(b, 12, 'VP8 ') && b.length >= 30 && b[23] === 0x9d && b[24] === 0x01 && b[25] === 0x2a) {
    return sized(b.readUInt16LE(26) & 0x3fff, b.readUInt16LE(28) & 0x3fff);
  }
  if (ascii(b, 12, 'VP8L') && b.length >= 25 && b[20] === 0x2f) {
    const bits = b.readUInt32LE(21);
    return sized((bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1);
  }
  if (ascii(b, 12, 'VP8X') && b.length >= 30) return sized(b.readUIntLE(24, 3) + 1, b.readUIntLE(27, 3) + 1);
  return undefined;
}

/** EXIF orientations 5-8 turn the picture by a quarter, so the browser swaps its sides. */
function exifTurnsQuarter(b: Buffer, start: number, end: number): boolean {
  if (!ascii(b, start, 'Exif\0\0')) return false;
  const tiff = start + 6;
  if (tiff + 8 > end) return false;
  const little = ascii(b, tiff, 'II');
  if (!little && !ascii(b, tiff, 'MM')) return false;
  const u16 = (at: number) => (little ? b.readUInt16LE(at) : b.readUInt16BE(at));
  const u32 = (at: number) => (little ? b.readUInt32LE(at) : b.readUInt32BE(at));
  const ifd = tiff + u32(tiff + 4);
  if (ifd < tiff + 8 || ifd + 2 > end) return false;
  const count = u16(ifd);
  for (let i = 0; i < count; i++) {
    const entry = ifd + 2 + i * 12;
    if (entry + 12 > end) return false;
    if (u16(entry) === 0x0112) return u16(entry + 8) >= 5 && u16(entry + 8) <= 8;
  }
  return false;
}

// Start-of-frame markers carry the size; C4 (DHT), C8 (JPG) and CC (DAC) share the range but do not.
const isStartOfFrame = (m: number) => m >= 0xc0 && m <= 0xcf && m !== 0xc4 && m !== 0xc8 && m !== 0xcc;

function jpeg(b: Buffer): Dimensions | undefined {
  let quarter = false;
  let at = 2;
  while (at + 4 <= b.length) {
    if (b[at] !== 0xff) return undefined;
    const marker = b[at + 1];
    // Fill bytes, then markers without a length.
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd9)) {
      at += 2;
      continue;
    }
    const length = b.readUInt16BE(at + 2);
    if (length < 2) return undefined;
    if (marker === 0xe1 && !quarter) quarter = exifTurnsQuarter(b, at + 4, Math.min(b.length, at + 2 + length));
    if (isStartOfFrame(marker)) return at + 9 <= b.length ? sized(b.readUInt16BE(at + 7), b.readUInt16BE(at + 5), quarter) : undefined;
    at += 2 + length;
  }
  return undefined;
}

/** AVIF/HEIF: the first `ispe` (image spatial extents) property, turned by an `irot` of 90 or 270 degrees. */
function isoBmff(b: Buffer): Dimensions | undefined {
  const ispe = b.indexOf('ispe', 0, 'latin1');
  if (ispe < 4 || ispe + 16 > b.length) return undefined;
  const irot = b.indexOf('irot', 0, 'latin1');
  const quarter = irot >= 4 && irot + 4 < b.length && (b[irot + 4] & 0x01) === 1;
  return sized(b.readUInt32BE(ispe + 8), b.readUInt32BE(ispe + 12), quarter);
}

/** The size the header declares, or undefined for a format not read here (SVG, ICO, ...) or bytes that say none. */
export function imageDimensions(b: Buffer): Dimensions | undefined {
  if (b.length >= 8 && b.readUInt32BE(0) === 0x89504e47 && b.readUInt32BE(4) === 0x0d0a1a0a) return png(b);
  if (ascii(b, 0, 'GIF87a') || ascii(b, 0, 'GIF89a')) return gif(b);
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return jpeg(b);
  if (ascii(b, 0, 'RIFF') && ascii(b, 8, 'WEBP')) return webp(b);
  if (ascii(b, 4, 'ftyp')) return isoBmff(b);
  if (ascii(b, 0, 'BM')) return bmp(b);
  return undefined;
}
