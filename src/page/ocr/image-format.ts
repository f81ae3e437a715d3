// The raster formats the image parser reads, told by their first bytes, and
// their pixel size read from the header before anything decodes them: an image
// larger than OCR_MAX_PIXELS is refused unread. Every offset is bounds-checked.
import { imageDimensions, type Dimensions } from '../rendering/image-dimensions.ts';

export const IMAGE_FORMATS = ['png', 'jpeg', 'jpeg2000', 'tiff', 'gif', 'bmp', 'webp', 'avif'] as const;
export type ImageFormat = (typeof IMAGE_FORMATS)[number];

/** Extensions and content types of each format, the first content type the one a document reports. */
export const IMAGE_TYPES: Record<ImageFormat, { extensions: string[]; mimeTypes: string[] }> = {
  png: { extensions: ['png'], mimeTypes: ['image/png'] },
  jpeg: { extensions: ['jpg', 'jpeg', 'jpe', 'jfif'], mimeTypes: ['image/jpeg', 'image/pjpeg'] },
  jpeg2000: { extensions: ['jp2', 'j2k', 'j2c', 'jpf', 'jpx', 'jpm'], mimeTypes: ['image/jp2', 'image/jpx', 'image/jpm', 'image/j2c'] },
  tiff: { extensions: ['tif', 'tiff'], mimeTypes: ['image/tiff', 'image/tiff-fx'] },
  gif: { extensions: ['gif'], mimeTypes: ['image/gif'] },
  bmp: { extensions: ['bmp', 'dib'], mimeTypes: ['image/bmp', 'image/x-ms-bmp', 'image/x-bmp'] },
  webp: { extensions: ['webp'], mimeTypes: ['image/webp'] },
  avif: { extensions: ['avif'], mimeTypes: ['image/avif'] },
};

/** How errors and docs name what is read. */
export const IMAGE_FORMAT_NAMES = 'PNG, JPEG, JPEG 2000, TIFF, GIF, BMP, WebP and AVIF';

const ascii = (b: Uint8Array, at: number, text: string) =>
  b.length >= at + text.length && Buffer.from(b.subarray(at, at + text.length)).toString('latin1') === text;
const JP2_SIGNATURE = [0, 0, 0, 0x0c, 0x6a, 0x50, 0x20, 0x20, 0x0d, 0x0a, 0x87, 0x0a];

export function imageFormat(b: Uint8Array): ImageFormat | undefined {
  if (ascii(b, 0, '\x89PNG\r\n\x1a\n')) return 'png';
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'jpeg';
  if (JP2_SIGNATURE.every((v, i) => b[i] === v) || (b[0] === 0xff && b[1] === 0x4f && b[2] === 0xff && b[3] === 0x51)) return 'jpeg2000';
  if (ascii(b, 0, 'II*\0') || ascii(b, 0, 'MM\0*')) return 'tiff';
  if (ascii(b, 0, 'GIF87a') || ascii(b, 0, 'GIF89a')) return 'gif';
  if (ascii(b, 0, 'BM')) return 'bmp';
  if (ascii(b, 0, 'RIFF') && ascii(b, 8, 'WEBP')) return 'webp';
  if (ascii(b, 4, 'ftypavif') || ascii(b, 4, 'ftypavis')) return 'avif';
  return undefined;
}

/** The format a content type names, when it names one of them. */
export function imageFormatOfType(contentType: string | undefined): ImageFormat | undefined {
  const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
  return IMAGE_FORMATS.find((f) => IMAGE_TYPES[f].mimeTypes.includes(type));
}

/** The format a URL's path names by its extension. */
export function imageFormatOfPath(pathname: string): ImageFormat | undefined {
  const ext = /\.([a-z0-9]+)$/i.exec(pathname)?.[1]?.toLowerCase();
  return ext ? IMAGE_FORMATS.find((f) => IMAGE_TYPES[f].extensions.includes(ext)) : undefined;
}

/** The first image of a TIFF: tags 256 (width) and 257 (height) of its first IFD. */
function tiffSize(b: Buffer): Dimensions | undefined {
  if (b.length < 8) return undefined;
  const little = b[0] === 0x49;
  const u16 = (at: number) => (little ? b.readUInt16LE(at) : b.readUInt16BE(at));
  const u32 = (at: number) => (little ? b.readUInt32LE(at) : b.readUInt32BE(at));
  const ifd = u32(4);
  if (ifd < 8 || ifd + 2 > b.length) return undefined;
  let width: number | undefined;
  let height: number | undefined;
  for (let i = 0; i < u16(ifd); i++) {
    const entry = ifd + 2 + i * 12;
    if (entry + 12 > b.length) break;
    const tag = u16(entry);
    if (tag !== 256 && tag !== 257) continue;
    // SHORT (3) or LONG (4), the value in the entry itself.
    const value = u16(entry + 2) === 3 ? u16(entry + 8) : u32(entry + 8);
    if (tag === 256) width = value;
    else height = value;
  }
  return width && height ? [width, height] : undefined;
}

/** JPEG 2000: the JP2 header's ihdr box (height, then width), or a bare codestream's SIZ segment. */
function jpeg2000Size(b: Buffer): Dimensions | undefined {
  if (b[0] === 0xff && b[1] === 0x4f) {
    if (b.length < 24) return undefined;
    return [b.readUInt32BE(8) - b.readUInt32BE(16), b.readUInt32BE(12) - b.readUInt32BE(20)];
  }
  const ihdr = b.indexOf('ihdr', 0, 'latin1');
  if (ihdr < 4 || ihdr + 12 > b.length) return undefined;
  return [b.readUInt32BE(ihdr + 8), b.readUInt32BE(ihdr + 4)];
}

/** [width, height] in pixels as the header declares it, or undefined when it cannot be read. */
export function imagePixels(bytes: Uint8Array, format: ImageFormat): Dimensions | undefined {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const size = format === 'tiff' ? tiffSize(b) : format === 'jpeg2000' ? jpeg2000Size(b) : imageDimensions(b);
  return size && size[0] > 0 && size[1] > 0 ? size : undefined;
}
