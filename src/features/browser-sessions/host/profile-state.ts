// What a profile keeps of a browser, and how it is taken and given back: the
// browser's own storage folders (localStorage and IndexedDB, in Chromium's
// on-disk formats, complete by construction) and every cookie, session cookies
// included (those live only in the browser's memory, so they are read over CDP).
// Taken after a clean close (Browser.close: the storage is flushed), given back
// by writing the folders into the fresh profile before the browser starts and
// the cookies over CDP once it runs. The state is page-written data: its shape
// and paths are checked when it is read back, and its size is capped.
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { z } from 'zod';
import { CdpConnection } from '../../../platform/browser/cdp-connection.ts';

/** The folders of Chromium's profile (under <user-data-dir>/Default) a profile keeps. */
export const KEPT_FOLDERS = ['Local Storage', 'IndexedDB'];

const cookieSchema = z.object({
  name: z.string().max(4096),
  value: z.string().max(16_384),
  domain: z.string().max(512),
  path: z.string().max(2048),
  expires: z.number().optional(),
  httpOnly: z.boolean().optional(),
  secure: z.boolean().optional(),
  session: z.boolean().optional(),
  sameSite: z.enum(['Strict', 'Lax', 'None']).optional(),
  priority: z.enum(['Low', 'Medium', 'High']).optional(),
  sourceScheme: z.enum(['Unset', 'NonSecure', 'Secure']).optional(),
  sourcePort: z.int().optional(),
});

const stateSchema = z.object({
  version: z.literal(1),
  cookies: z.array(cookieSchema).max(10_000),
  files: z.array(z.object({ path: z.string().min(1).max(1024), data: z.string() })).max(100_000),
});

export type ProfileState = z.infer<typeof stateSchema>;
export type SavedCookie = z.infer<typeof cookieSchema>;

export class ProfileTooLarge extends Error {}

function filesUnder(root: string, maxBytes: number): { path: string; data: string }[] {
  const files: { path: string; data: string }[] = [];
  let total = 0;
  const walk = (dir: string) => {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    for (const name of names) {
      const full = join(dir, name);
      const stat = statSync(full, { throwIfNoEntry: false });
      if (!stat) continue;
      if (stat.isDirectory()) walk(full);
      else if (stat.isFile() && name !== 'LOCK') {
        total += stat.size;
        if (total > maxBytes) throw new ProfileTooLarge(`the profile's storage is over ${maxBytes} bytes`);
        files.push({ path: relative(root, full).split(sep).join('/'), data: readFileSync(full).toString('base64') });
      }
    }
  };
  for (const folder of KEPT_FOLDERS) walk(join(root, folder));
  return files;
}

/** Reads every cookie of the running browser (session cookies too). */
export async function readCookies(cdpUrl: string): Promise<SavedCookie[]> {
  const cdp = await CdpConnection.open(cdpUrl);
  try {
    const { cookies } = await cdp.send<{ cookies: SavedCookie[] }>('Storage.getCookies');
    return cookies.map((c) => cookieSchema.parse(c));
  } finally {
    cdp.close();
  }
}

/** Asks the browser to close cleanly (so its storage is on disk); resolves when it has, or after `timeoutMs`. */
export async function closeCleanly(cdpUrl: string, exited: Promise<string>, timeoutMs: number): Promise<boolean> {
  const cdp = await CdpConnection.open(cdpUrl).catch(() => undefined);
  if (!cdp) return false;
  await cdp.send('Browser.close').catch(() => undefined);
  const closed = await Promise.race([exited.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), timeoutMs).unref())]);
  cdp.close();
  return closed;
}

/** The state of a closed browser's profile: its cookies (read before it closed) and its kept folders, gzipped. */
export function packState(profileDir: string, cookies: SavedCookie[], maxBytes: number): Buffer {
  const state: ProfileState = { version: 1, cookies, files: filesUnder(join(profileDir, 'Default'), maxBytes) };
  const packed = gzipSync(JSON.stringify(state));
  if (packed.length > maxBytes) throw new ProfileTooLarge(`the profile is ${packed.length} bytes packed, over ${maxBytes}`);
  return packed;
}

/** Checks a stored state; a state that does not read back is a DomainError-free error the caller logs. */
export function unpackState(packed: Buffer, maxBytes: number): ProfileState {
  const json = gunzipSync(packed, { maxOutputLength: maxBytes * 8 }).toString('utf8');
  return stateSchema.parse(JSON.parse(json));
}

/** Writes the kept folders into a fresh profile directory, before its browser starts. */
export function writeStateFiles(state: ProfileState, profileDir: string): void {
  const root = join(profileDir, 'Default');
  for (const file of state.files) {
    const path = normalize(join(root, file.path));
    const inside = relative(root, path);
    // Only into the kept folders: no '..', no absolute path, nothing else of the profile.
    if (inside.startsWith('..') || !KEPT_FOLDERS.some((f) => inside === f || inside.startsWith(`${f}${sep}`))) {
      throw new Error(`a profile file names a path outside its folders: ${file.path}`);
    }
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, Buffer.from(file.data, 'base64'));
  }
}

/** Gives the saved cookies to the running browser. */
export async function writeCookies(cdpUrl: string, cookies: SavedCookie[]): Promise<void> {
  if (cookies.length === 0) return;
  const cdp = await CdpConnection.open(cdpUrl);
  try {
    await cdp.send('Storage.setCookies', {
      cookies: cookies.map(({ session, expires, ...c }) => ({ ...c, ...(!session && expires !== undefined && expires > 0 && { expires }) })),
    });
  } finally {
    cdp.close();
  }
}
