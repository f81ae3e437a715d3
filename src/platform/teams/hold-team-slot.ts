// One slot of a team's concurrency limit held by work the gateway does itself
// (a parse converts an upload there): waited for as a batch's runners wait
// (25 ms doubling to 500 ms), renewed while the work runs, given back when it
// ends however it ends. A gateway that dies mid-work leaves a lease that lapses.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Db } from '../db/prisma.ts';
import { DomainError } from '../domain-error.ts';
import { releaseTeamSlot, renewTeamSlots, tryTeamSlot } from './team-slots.ts';

export interface HeldSlot {
  teamId: string;
  limit: number;
  /** Unique per piece of work; it is its own fair-share group. */
  holder: string;
  leaseMs: number;
  /** When waiting for the slot gives up (epoch ms). */
  deadline: number;
  /** How the 408 names the work. */
  what: string;
}

/** Runs `work` under a slot; it learns how long it waited (undefined when a slot was free at once). */
export async function withTeamSlot<T>(db: Db, slot: HeldSlot, work: (queuedMs: number | undefined) => Promise<T>): Promise<T> {
  const { teamId, holder, leaseMs } = slot;
  const started = Date.now();
  let pause = 25;
  while ((await tryTeamSlot(db, { teamId, limit: slot.limit, holder, group: holder, leaseMs })) === undefined) {
    if (Date.now() + pause > slot.deadline) {
      throw new DomainError(
        'timeout',
        `${slot.what} waited ${Date.now() - started} ms for a slot of the team's concurrency limit (${slot.limit}) and none came free within its timeout.`,
        'CONCURRENCY_TIMEOUT',
      );
    }
    await sleep(pause);
    pause = Math.min(500, pause * 2);
  }
  const waited = Date.now() - started;
  const renewal = setInterval(() => void renewTeamSlots(db, teamId, [holder], leaseMs).catch(() => undefined), Math.max(1, Math.floor(leaseMs / 3)));
  try {
    return await work(pause > 25 ? waited : undefined);
  } finally {
    clearInterval(renewal);
    await releaseTeamSlot(db, teamId, holder);
  }
}
