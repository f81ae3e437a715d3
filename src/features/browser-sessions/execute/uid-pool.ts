// The uids of the sessions a host runs executes for: one each, from the
// configured range, so that a session's processes (and its fork bomb) are
// counted apart from every other session's and from the service's.
import { DomainError } from '../../../platform/domain-error.ts';

export class UidPool {
  private readonly taken = new Map<string, number>();
  private readonly free = new Set<number>();
  private next = 0;

  constructor(
    private readonly base: number,
    private readonly size: number,
  ) {}

  acquire(sessionId: string): number {
    const held = this.taken.get(sessionId);
    if (held !== undefined) return this.base + held;
    let index = this.free.values().next().value;
    if (index !== undefined) this.free.delete(index);
    else if (this.next < this.size) index = this.next++;
    else throw new DomainError('limit-reached', `This browser host already runs code for ${this.size} sessions (SANDBOX_MAX_SESSIONS); try again when one ends.`);
    this.taken.set(sessionId, index);
    return this.base + index;
  }

  release(sessionId: string): void {
    const index = this.taken.get(sessionId);
    if (index === undefined) return;
    this.taken.delete(sessionId);
    this.free.add(index);
  }
}
