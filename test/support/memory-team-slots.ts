// A team's slots in memory, under the same rules as the PostgreSQL rows of
// platform/teams/team-slots.ts: at most `limit` holders, and each group (crawl)
// that runs at most ceil(limit / groups running). For tests of the batch parts
// that must not need a database; it throws the moment a rule is broken.
import type { TeamSlotStore } from '../../src/jobs/batch/batch-leases.ts';

export class MemoryTeamSlots {
  readonly limit: number;
  /** holder -> group */
  readonly holders = new Map<string, string>();
  /** Groups with a running batch (browser_lease rows in PostgreSQL). */
  readonly running = new Set<string>();

  constructor(limit: number) {
    this.limit = limit;
  }

  share(): number {
    return Math.ceil(this.limit / Math.max(1, this.running.size));
  }

  heldBy(group: string): number {
    let n = 0;
    for (const g of this.holders.values()) if (g === group) n++;
    return n;
  }

  store(group: string): TeamSlotStore {
    return {
      tryAcquire: async (holder) => {
        if (this.holders.has(holder)) throw new Error(`${holder} asked for a second slot`);
        if (this.holders.size >= this.limit || this.heldBy(group) >= this.share()) return false;
        this.holders.set(holder, group);
        return true;
      },
      release: async (holder) => void this.holders.delete(holder),
      renew: async () => undefined,
      standing: async () => ({ share: this.share(), held: this.heldBy(group) }),
    };
  }
}
