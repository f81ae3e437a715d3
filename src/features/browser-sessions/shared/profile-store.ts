// browser_profile rows: the saved state of a (team, name) and its one writer. A
// session that saves (saveChanges, the default) claims the writer place when it
// is admitted; a claim whose session has ended is free again, so a crashed writer
// never locks a profile for good. Readers (saveChanges false) are not counted.
import type { Db, Tx } from '../../../platform/db/prisma.ts';
import { DomainError } from '../../../platform/domain-error.ts';

export const WRITER_CONFLICT =
  'Another session is currently writing to this profile. Only one writer is allowed at a time. You can still access it with saveChanges: false, or try again later.';

const LIVE = `('starting', 'active')`;

/** Inside the admission transaction: makes `sessionId` the profile's writer, or refuses with 409. */
export async function claimWriter(tx: Tx, teamId: string, name: string, sessionId: string): Promise<void> {
  const claimed = await tx.$queryRawUnsafe<unknown[]>(
    `INSERT INTO browser_profile (team_id, name, writer_session_id) VALUES ($1::uuid, $2, $3::uuid)
     ON CONFLICT (team_id, name) DO UPDATE SET writer_session_id = EXCLUDED.writer_session_id
     WHERE browser_profile.writer_session_id IS NULL
        OR NOT EXISTS (SELECT 1 FROM browser_session s WHERE s.id = browser_profile.writer_session_id AND s.status IN ${LIVE})
     RETURNING 1`,
    teamId,
    name,
    sessionId,
  );
  if (claimed.length === 0) throw new DomainError('conflict', WRITER_CONFLICT, 'PROFILE_LOCKED');
}

export async function loadProfileState(db: Db, teamId: string, name: string): Promise<Buffer | undefined> {
  const row = await db.browserProfile.findUnique({ where: { teamId_name: { teamId, name } }, select: { state: true } });
  return row?.state ? Buffer.from(row.state) : undefined;
}

/** Stores the state if `sessionId` still holds the writer place; false when it does not. */
export async function saveProfileState(db: Db, teamId: string, name: string, sessionId: string, state: Buffer): Promise<boolean> {
  const { count } = await db.browserProfile.updateMany({
    where: { teamId, name, writerSessionId: sessionId },
    data: { state: new Uint8Array(state), sizeBytes: state.length, updatedAt: new Date(), lastSaveError: null },
  });
  return count > 0;
}

export async function recordSaveError(db: Db, teamId: string, name: string, sessionId: string, error: string): Promise<void> {
  await db.browserProfile.updateMany({ where: { teamId, name, writerSessionId: sessionId }, data: { lastSaveError: error.slice(0, 1000) } });
}

/** DELETE /v2/browser/profiles/{name}: 404 when unknown, 409 while a live session writes it. */
export async function deleteProfile(db: Db, teamId: string, name: string): Promise<void> {
  await db.$transaction(async (tx) => {
    const rows = await tx.$queryRawUnsafe<{ writer_live: boolean }[]>(
      `SELECT EXISTS (SELECT 1 FROM browser_session s WHERE s.id = p.writer_session_id AND s.status IN ${LIVE}) AS writer_live
       FROM browser_profile p WHERE p.team_id = $1::uuid AND p.name = $2 FOR UPDATE`,
      teamId,
      name,
    );
    if (rows.length === 0) throw new DomainError('not-found', 'Profile not found.', 'NOT_FOUND');
    if (rows[0].writer_live)
      throw new DomainError('conflict', 'A session is currently writing to this profile; delete it once that session has ended.', 'PROFILE_LOCKED');
    await tx.browserProfile.delete({ where: { teamId_name: { teamId, name } } });
  });
}
