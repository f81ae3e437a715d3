// The activities a browser host runs on its own task queue, for the sessions it
// owns: launch a session's Chromium, watch it (the heartbeat that tells the
// workflow the host is alive), run executes in the sandbox, and close it.
import { ApplicationFailure, Context } from '@temporalio/activity';
import type { ExecuteResponse } from '../protocol/execute-response.ts';
import type { PageOpening } from '../protocol/definitions.ts';
import { closeBrowserSession } from './close-session.ts';
import { SessionNotOnHost, type HostExecute } from './execute-on-host.ts';
import type { HostActivityDeps } from './host-activity-deps.ts';
import type { HostedSessions } from './hosted-sessions.ts';
import { HEARTBEAT_INTERVAL_MS, launchBrowserSession, type LaunchInput, type StartingSessions } from './launch-session.ts';

function notHere(sessionId: string): ApplicationFailure {
  return ApplicationFailure.create({ type: 'SessionNotOnHost', message: `session ${sessionId} is not running on this browser host`, nonRetryable: true });
}

/** Heartbeats while the session's browser lives; returns why it ended if it exits on its own. */
async function watchBrowserSession(sessions: HostedSessions, input: { sessionId: string }): Promise<string> {
  const hosted = sessions.get(input.sessionId);
  if (!hosted) throw notHere(input.sessionId);
  const ctx = Context.current();
  for (;;) {
    ctx.heartbeat();
    const why = await Promise.race([hosted.chromium.exited, ctx.sleep(HEARTBEAT_INTERVAL_MS).then(() => undefined)]);
    if (why !== undefined) return why;
  }
}

/** The execute Update's activity, for gateways of the build before admitExecute (docs/patches.md). */
async function executeInBrowserSession(executeOnHost: HostActivityDeps['executeOnHost'], input: HostExecute): Promise<ExecuteResponse> {
  try {
    return await executeOnHost(input);
  } catch (err) {
    if (err instanceof SessionNotOnHost) throw notHere(input.sessionId);
    throw err;
  }
}

export function createHostActivities(deps: HostActivityDeps) {
  const starting: StartingSessions = new Map();
  return {
    /** Returns why an opening's page did not open as its scrape saw it, if it did not. */
    launchBrowserSession: (input: LaunchInput & { opening?: PageOpening }) => launchBrowserSession(deps, starting, input),
    watchBrowserSession: (input: { sessionId: string }) => watchBrowserSession(deps.sessions, input),
    executeInBrowserSession: (input: HostExecute) => executeInBrowserSession(deps.executeOnHost, input),
    closeBrowserSession: (input: { sessionId: string; saveProfile: boolean }) => closeBrowserSession(deps, starting, input),
  };
}

export type HostActivities = ReturnType<typeof createHostActivities>;
