// The batch's view of its team's slots in PostgreSQL (platform/teams/team-slots.ts).
import type { Db } from '../../platform/db/prisma.ts';
import { groupStanding, releaseTeamSlot, renewTeamSlots, tryTeamSlot } from '../../platform/teams/team-slots.ts';
import type { TeamSlotStore } from './batch-leases.ts';

export function teamSlotStore(db: Db, team: { teamId: string; group: string; limit: number; leaseMs: number }): TeamSlotStore {
  const { teamId, group, limit, leaseMs } = team;
  return {
    tryAcquire: async (holder) => (await tryTeamSlot(db, { teamId, group, limit, holder, leaseMs })) !== undefined,
    release: (holder) => releaseTeamSlot(db, teamId, holder),
    renew: (holders) => renewTeamSlots(db, teamId, holders, leaseMs),
    standing: () => groupStanding(db, { teamId, group, limit }),
  };
}
