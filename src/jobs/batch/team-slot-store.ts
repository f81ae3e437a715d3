// The batch's view of its team's slots in PostgreSQL (platform/teams/team-slots.ts).
import type { Db } from '../../platform/db/prisma.ts';
import { groupStanding, releaseTeamSlot, renewTeamSlots, tryTeamSlot } from '../../platform/teams/team-slots.ts';
import { retryInBackground } from '../../platform/retry-in-background.ts';
import type { TeamSlotStore } from './batch-leases.ts';

const RELEASE_RETRY_MS = 1000;

export function teamSlotStore(db: Db, team: { teamId: string; group: string; limit: number; leaseMs: number }): TeamSlotStore {
  const { teamId, group, limit, leaseMs } = team;
  // A release lost with its connection is made again once the database is back: until then the
  // slot only frees when its lease lapses (twice the heartbeat).
  const release = (holder: string) => retryInBackground(() => releaseTeamSlot(db, teamId, holder), { everyMs: RELEASE_RETRY_MS, forMs: leaseMs });
  return {
    tryAcquire: async (holder) => {
      try {
        return (await tryTeamSlot(db, { teamId, group, limit, holder, leaseMs })) !== undefined;
      } catch (err) {
        // The connection may have dropped after the slot was taken: the batch never learns it holds it, so it is let go here.
        release(holder).catch(() => undefined);
        throw err;
      }
    },
    release,
    renew: (holders) => renewTeamSlots(db, teamId, holders, leaseMs),
    standing: () => groupStanding(db, { teamId, group, limit }),
  };
}
