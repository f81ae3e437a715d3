// Reads a zip's central directory and, before any library unpacks it, proves
// how far its entries inflate: a zip bomb (a few kilobytes that inflate to
// gigabytes, or sizes in the directory that lie) is refused within the budget,
// never unpacked in full.
import { inflateRawSync } from 'node:zlib';

const EOCD_SIGNATURE = 0x06054b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;
const EOCD_SIZE = 22;
const MAX_COMMENT = 0xffff;
const STORED = 0;
const DEFLATED = 8;

export class ZipError extends Error {}

interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  localOffset: number;
}

function centralDirectory(zip: Buffer): ZipEntry[] {
  const from = Math.max(0, zip.length - EOCD_SIZE - MAX_COMMENT);
  let eocd = -1;
  for (let at = zip.length - EOCD_SIZE; at >= from; at--) {
    if (zip.readUInt32LE(at) === EOCD_SIGNATURE) {
      eocd = at;
      break;
    }
  }
  if (eocd < 0) throw new ZipError('it is not a complete zip archive (no end of central directory)');
  const count = zip.readUInt16LE(eocd + 10);
  let at = zip.readUInt32LE(eocd + 16);
  const entries: ZipEntry[] = [];
  for (let i = 0; i < count; i++) {
    if (at + 46 > zip.length || zip.readUInt32LE(at) !== CENTRAL_SIGNATURE) throw new ZipError('its zip central directory is damaged');
    const nameLength = zip.readUInt16LE(at + 28);
    entries.push({
      method: zip.readUInt16LE(at + 10),
      compressedSize: zip.readUInt32LE(at + 20),
      localOffset: zip.readUInt32LE(at + 42),
      name: zip.toString('utf8', at + 46, at + 46 + nameLength),
    });
    at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  return entries;
}

/** The names of the zip's entries, or undefined when it cannot be read as a zip. */
export function zipEntryNames(bytes: Uint8Array): string[] | undefined {
  try {
    return centralDirectory(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)).map((e) => e.name);
  } catch {
    return undefined;
  }
}

/**
 * Inflates every entry, each only as far as what is left of `maxBytes`; throws a ZipError naming
 * the budget when the entries together would inflate beyond it, or when the archive is damaged.
 */
export function checkUnpackedSize(bytes: Uint8Array, maxBytes: number, setting: string): void {
  const zip = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let total = 0;
  for (const entry of centralDirectory(zip)) {
    const at = entry.localOffset;
    if (at + 30 > zip.length || zip.readUInt32LE(at) !== LOCAL_SIGNATURE) throw new ZipError(`its zip entry ${entry.name} is damaged`);
    const start = at + 30 + zip.readUInt16LE(at + 26) + zip.readUInt16LE(at + 28);
    const data = zip.subarray(start, start + entry.compressedSize);
    const left = maxBytes - total;
    if (entry.method === STORED) total += data.length;
    else if (entry.method === DEFLATED) {
      try {
        total += inflateRawSync(data, { maxOutputLength: Math.max(1, left + 1) }).length;
      } catch (err) {
        if (err instanceof RangeError || (err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') total = Infinity;
        else throw new ZipError(`its zip entry ${entry.name} cannot be inflated (${(err as Error).message})`);
      }
    } else throw new ZipError(`its zip entry ${entry.name} uses an unsupported compression method (${entry.method})`);
    if (total > maxBytes) throw new ZipError(`it unpacks to more than ${maxBytes} bytes (${setting})`);
  }
}
