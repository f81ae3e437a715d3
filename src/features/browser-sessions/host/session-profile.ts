// A session's profile on the host: its saved state written into the session's fresh
// profile folder at launch, and packed from it at close once the browser has
// closed cleanly (so its storage is complete). A profile that does not read or save
// costs the session only that profile's state, never the session.
import { join } from 'node:path';
import type { SessionProfile } from '../protocol/definitions.ts';
import { loadProfileState, recordSaveError, saveProfileState } from '../shared/profile-store.ts';
import type { HostActivityDeps } from './host-activity-deps.ts';
import type { HostedSession } from './hosted-sessions.ts';
import { closeCleanly, packState, readCookies, unpackState, writeStateFiles, type ProfileState } from './profile-state.ts';

type ProfileDeps = Pick<HostActivityDeps, 'db' | 'log' | 'config'>;

/** The saved state of the session's profile, written into its fresh profile folder; undefined when there is none or it does not read. */
export async function restoreProfileFiles(deps: ProfileDeps, teamId: string, profile: SessionProfile, profileDir: string): Promise<ProfileState | undefined> {
  const packed = await loadProfileState(deps.db, teamId, profile.name);
  if (!packed) return undefined;
  try {
    const state = unpackState(packed, deps.config.browserSessions.profileMaxBytes);
    writeStateFiles(state, profileDir);
    return state;
  } catch (err) {
    deps.log.warn('saved profile state does not read; the session starts without it', { teamId, profile: profile.name, error: (err as Error).message });
    return undefined;
  }
}

/** Closes the session's browser cleanly and saves its profile, or records why it could not. */
export async function saveSessionProfile(deps: ProfileDeps, hosted: HostedSession): Promise<void> {
  const { db, log } = deps;
  const profiles = deps.config.browserSessions;
  const { teamId, sessionId, profile } = hosted;
  if (!profile) return;
  try {
    const cookies = await readCookies(hosted.chromium.cdpUrl);
    if (!(await closeCleanly(hosted.chromium.cdpUrl, hosted.chromium.exited, profiles.profileCloseTimeoutMs))) {
      throw new Error(`the browser did not close within ${profiles.profileCloseTimeoutMs} ms, so its storage may be incomplete`);
    }
    const packed = packState(join(hosted.dir, 'profile'), cookies, profiles.profileMaxBytes);
    if (!(await saveProfileState(db, teamId, profile.name, sessionId, packed)))
      log.warn('profile not saved: the session no longer holds it', { sessionId, profile: profile.name });
  } catch (err) {
    const reason = `the profile was not saved: ${(err as Error).message}`;
    log.warn(reason, { sessionId, profile: profile.name });
    await recordSaveError(db, teamId, profile.name, sessionId, reason);
  }
}
