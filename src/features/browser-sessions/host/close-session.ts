// Closing a session on this host, after any launch of it under way: its executes
// end (answered as the session's end), its profile is saved when asked, its
// browser closes, and its uid and directory are freed.
import { rmSync } from 'node:fs';
import type { HostActivityDeps } from './host-activity-deps.ts';
import type { StartingSessions } from './launch-session.ts';
import { saveSessionProfile } from './session-profile.ts';

export async function closeBrowserSession(
  deps: HostActivityDeps,
  starting: StartingSessions,
  input: { sessionId: string; saveProfile: boolean },
): Promise<void> {
  await starting.get(input.sessionId)?.catch(() => undefined);
  const hosted = deps.sessions.get(input.sessionId);
  if (!hosted) return;
  // Executes killed by the close are answered as the session's end, not as their code's.
  hosted.closing = true;
  await deps.sandbox.endSession(input.sessionId, hosted.dir);
  if (input.saveProfile) await saveSessionProfile(deps, hosted);
  await hosted.chromium.close();
  deps.browserUids?.release(input.sessionId);
  deps.sessions.delete(input.sessionId);
  rmSync(hosted.dir, { recursive: true, force: true });
  deps.log.info('session closed', { sessionId: input.sessionId });
}
