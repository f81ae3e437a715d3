// Image file headers written byte by byte, in the formats page/rendering/image-dimensions.ts
// reads; enough of each file for its size, not a picture (except where noted).
const bytes = (...parts: (number[] | string | Buffer)[]) =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.isBuffer(p) ? p : Buffer.from(p))));
const u16be = (n: number) => [n >> 8, n & 0xff];
const u16le = (n: number) => [n & 0xff, n >> 8];
const u32be = (n: number) => [(n >>> 24) & 0xff, (n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff];
const u32le = (n: number) => u32be(n).reverse();
const u24le = (n: number) => [n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff];

export function gif(width: number, height: number) {
  return bytes('GIF89a', u16le(width), u16le(height), [0, 0, 0]);
}

const segment = (marker: number, payload: Buffer) => bytes([0xff, marker], u16be(payload.length + 2), payload);
const startOfFrame = (marker: number, width: number, height: number) =>
  segment(marker, bytes([8], u16be(height), u16be(width), [3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]));

/** APP1 with one IFD0 entry: Orientation (0x0112, SHORT) = `orientation`. */
export function exif(orientation: number, littleEndian: boolean) {
  const u16 = littleEndian ? u16le : u16be;
  const u32 = littleEndian ? u32le : u32be;
  const tiff = bytes(littleEndian ? 'II' : 'MM', u16(42), u32(8), u16(1), u16(0x0112), u16(3), u32(1), u16(orientation), [0, 0], u32(0));
  return segment(0xe1, bytes('Exif\0\0', tiff));
}

export function jpeg(width: number, height: number, opts: { sof?: number; orientation?: number; littleEndian?: boolean; fill?: boolean } = {}) {
  return bytes(
    [0xff, 0xd8],
    segment(0xe0, bytes('JFIF\0', [1, 1, 0], u16be(1), u16be(1), [0, 0])),
    opts.orientation ? exif(opts.orientation, opts.littleEndian ?? false) : [],
    // A DHT (C4) lies in the start-of-frame range but has no size.
    segment(0xc4, Buffer.alloc(20)),
    opts.fill ? [0xff, 0xff] : [],
    startOfFrame(opts.sof ?? 0xc0, width, height),
    [0xff, 0xda],
  );
}

const riff = (chunk: Buffer) => bytes('RIFF', u32le(chunk.length + 4), 'WEBP', chunk);
export const webpLossy = (w: number, h: number) => riff(bytes('VP8 ', u32le(18), [0x10, 0x02, 0x00, 0x9d, 0x01, 0x2a], u16le(w), u16le(h), Buffer.alloc(8)));
export const webpLossless = (w: number, h: number) => riff(bytes('VP8L', u32le(10), [0x2f], u32le((w - 1) | ((h - 1) << 14)), Buffer.alloc(5)));
export const webpExtended = (w: number, h: number) => riff(bytes('VP8X', u32le(10), u32le(0), u24le(w - 1), u24le(h - 1)));

const box = (type: string, payload: Buffer) => bytes(u32be(payload.length + 8), type, payload);
export function avif(width: number, height: number, rotation?: number) {
  const ispe = box('ispe', bytes(u32be(0), u32be(width), u32be(height)));
  const irot = rotation === undefined ? Buffer.alloc(0) : box('irot', Buffer.from([rotation]));
  return bytes(box('ftyp', bytes('avif', u32be(0), 'mif1')), box('meta', bytes(u32be(0), box('iprp', box('ipco', bytes(ispe, irot))))));
}

export function bmp(width: number, height: number, core = false) {
  const header = core
    ? bytes(u32le(12), u16le(width), u16le(height), u16le(1), u16le(24))
    : bytes(u32le(40), u32le(width), u32le(height >>> 0), u16le(1), u16le(24), Buffer.alloc(24));
  return bytes('BM', u32le(0), u32le(0), u32le(0), header);
}
