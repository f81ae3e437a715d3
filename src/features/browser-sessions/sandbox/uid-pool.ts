// The uids of the sessions a host runs executes for: one each, from the
// configured range, so that a session's processes (and its fork bomb) are
// counted apart from every other session's and from the service's. A uid is
// claimed machine-wide with a lock file naming the claiming process, so two
// browser hosts on one machine never share one; a claim whose process is gone
// is taken over.
import { closeSync, lstatSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { DomainError } from '../../../platform/domain-error.ts';
import { pidAlive } from '../../../platform/process/detached.ts';

export class UidPool {
  private readonly taken = new Map<string, number>();

  constructor(
    private readonly base: number,
    private readonly size: number,
    private readonly lockDir: string,
  ) {
    mkdirSync(lockDir, { recursive: true, mode: 0o700 });
    // In a shared /tmp another user could have made it first, and then decide which uids look free.
    const stat = lstatSync(lockDir);
    if (!stat.isDirectory() || stat.uid !== process.getuid?.() || (stat.mode & 0o022) !== 0) {
      throw new Error(`${lockDir} must be a directory of this service's user that no one else may write: remove it and start again`);
    }
  }

  private lockFile(uid: number): string {
    return join(this.lockDir, String(uid));
  }

  private claim(uid: number): boolean {
    const file = this.lockFile(uid);
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        const fd = openSync(file, 'wx', 0o600);
        writeSync(fd, String(process.pid));
        closeSync(fd);
        return true;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
      const owner = Number(readFileSync(file, { encoding: 'utf8', flag: 'r' }).trim());
      // An empty file is a claim being written by another host.
      if (!(owner > 0) || pidAlive(owner)) return false;
      rmSync(file, { force: true });
    }
    return false;
  }

  acquire(sessionId: string): number {
    const held = this.taken.get(sessionId);
    if (held !== undefined) return held;
    for (let i = 0; i < this.size; i++) {
      const uid = this.base + i;
      if (this.claim(uid)) {
        this.taken.set(sessionId, uid);
        return uid;
      }
    }
    throw new DomainError('limit-reached', `This browser host already runs code for ${this.size} sessions (SANDBOX_MAX_SESSIONS); try again when one ends.`);
  }

  release(sessionId: string): void {
    const uid = this.taken.get(sessionId);
    if (uid === undefined) return;
    this.taken.delete(sessionId);
    rmSync(this.lockFile(uid), { force: true });
  }
}
