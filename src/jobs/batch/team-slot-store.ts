// The batch's view of its team's slots in PostgreSQL (platform/teams/team-slots.ts).
import type { Db } from '../../platform/db/prisma.ts';
import { groupStanding, releaseTeamSlot, renewTeamSlots, tryTeamSlot } from '../../platform/teams/team-slots.ts';
import { retryInBackground } from '../../platform/retry-in-background.ts';
import type { TeamSlotStore } from './batch-leases.ts';

const RELEASE_RETRY_MS = 1000;

export function teamSlotStore(db: Db, team: { teamId: string; group: string; limit: number; leaseMs: number }): TeamSlotStore {
  const { teamId, group, limit, leaseMs } = team;
  return {
    tryAcquire: async (holder) => (await tryTeamSlot(db, { teamId, group, limit, holder, leaseMs })) !== undefined,
    // A release lost with its connection is made again once the database is back: until then the
    // slot only frees when its lease lapses (twice the heartbeat).
    release: (holder) => retryInBackground(() => releaseTeamSlot(db, teamId, holder), { everyMs: RELEASE_RETRY_MS, forMs: leaseMs }),
    renew: (holders) => renewTeamSlots(db, teamId, holders, leaseMs),
    standing: () => groupStanding(db, { teamId, group, limit }),
  };
}
