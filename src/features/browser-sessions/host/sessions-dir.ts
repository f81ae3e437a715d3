// Each browser host keeps its sessions' profiles and sandboxes in a directory of its own under
// the machine's temporary directory, removed when the host stops. A host that was killed never
// removes it (a few MB per session: hundreds of them after a day of crash tests), so a host
// starting removes the directories of hosts of this machine whose process is gone. Each
// directory names its owner (machine and process id); one whose owner is unknown, of another
// machine sharing the directory (a mounted /tmp), or not this user's own is left alone.
import { lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { pidAlive } from '../../../platform/process/detached.ts';
import type { Logger } from '../../../platform/log.ts';

const PREFIX = 'browser-host-';
const OWNER_FILE = 'owner.json';

interface Owner {
  machine: string;
  pid: number;
}

/** Creates this host's directory under `baseDir`, after removing those abandoned by killed hosts. */
export function claimSessionsDir(baseDir: string, hostId: string, log: Logger): string {
  removeAbandoned(baseDir, log);
  const dir = join(baseDir, `${PREFIX}${hostId}`);
  mkdirSync(dir, { recursive: true, mode: 0o711 });
  writeFileSync(join(dir, OWNER_FILE), JSON.stringify({ machine: hostname(), pid: process.pid } satisfies Owner), { mode: 0o644 });
  return dir;
}

function removeAbandoned(baseDir: string, log: Logger): void {
  for (const name of readdirSync(baseDir)) {
    if (!name.startsWith(PREFIX)) continue;
    const dir = join(baseDir, name);
    if (!abandoned(dir)) continue;
    try {
      rmSync(dir, { recursive: true, force: true });
      log.info('removed the directory of a browser host that is gone', { dir });
    } catch (err) {
      log.warn('could not remove the directory of a browser host that is gone', { dir, error: (err as Error).message });
    }
  }
}

function abandoned(dir: string): boolean {
  const stat = lstatSync(dir, { throwIfNoEntry: false });
  if (!stat?.isDirectory() || stat.uid !== process.getuid?.()) return false;
  const owner = ownerOf(dir);
  return owner !== undefined && owner.machine === hostname() && owner.pid !== process.pid && !pidAlive(owner.pid);
}

function ownerOf(dir: string): Owner | undefined {
  try {
    const owner = JSON.parse(readFileSync(join(dir, OWNER_FILE), 'utf8')) as Partial<Owner>;
    return typeof owner.machine === 'string' && Number.isInteger(owner.pid) && owner.pid! > 0 ? (owner as Owner) : undefined;
  } catch {
    return undefined;
  }
}
