// The folders and files the embedded servers keep. Nothing outside them is ever
// created or changed: a folder we did not create keeps its mode, whatever it is.
import { chmodSync, existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';

export function runsAsRoot(): boolean {
  return process.getuid?.() === 0;
}

/**
 * Creates `dir` (and missing parents) private to this user. As root, the folders
 * created here are 0711 instead: the embedded PostgreSQL then runs as the
 * `postgres` user, which must walk through them to its own data (it cannot list
 * them, and every file we keep in them is 0600).
 */
export function ensureDataDir(dir: string): void {
  const first = mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (first === undefined) return;
  const mode = runsAsRoot() ? 0o711 : 0o700;
  // mkdirSync applies the umask; set the mode of exactly the folders it created.
  let d = first;
  chmodSync(d, mode);
  for (const part of relative(first, dir).split(sep).filter(Boolean)) {
    d = join(d, part);
    chmodSync(d, mode);
  }
}

/** A fresh folder under the system temp dir for throwaway servers (tests, benchmarks), moded like ensureDataDir's. */
export function scratchDataDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  if (runsAsRoot()) chmodSync(dir, 0o711);
  return dir;
}

/** Our own files in a data dir (logs, databases) may hold crawl data: owner only, also when an older version left them readable. */
export function keepPrivate(...paths: string[]): void {
  for (const path of paths) if (existsSync(path)) chmodSync(path, 0o600);
}
