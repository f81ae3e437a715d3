// One execute in a hosted session's sandbox: what the relay runs for a gateway
// (the admitted execute's short way) and what the host activity of the older
// execute Update runs. The session row's lastActivityAt is written beside the run.
import type { Db } from '../../../platform/db/prisma.ts';
import type { Logger } from '../../../platform/log.ts';
import { measuredExecute } from '../sandbox/execute-metrics.ts';
import type { ExecuteCall } from '../protocol/execute-request.ts';
import type { ExecuteResponse } from '../protocol/execute-response.ts';
import { executeResponse } from '../sandbox/execute-answer.ts';
import type { Sandbox } from '../sandbox/sandbox.ts';
import type { HostedSessions } from './hosted-sessions.ts';

/** An execute for one of the host's sessions: the relay's body (or the older execute activity's input). */
export type HostExecute = ExecuteCall & { sessionId: string };

/** The session is not (or no longer) running on this host: never launched here, or closed before or during the run. */
export class SessionNotOnHost extends Error {
  constructor(sessionId: string) {
    super(`session ${sessionId} is not running on this browser host`);
  }
}

export function createHostExecutor(deps: { db: Db; log: Logger; sessions: HostedSessions; sandbox: Sandbox }) {
  const { db, log, sessions, sandbox } = deps;
  return async function executeOnHost(input: HostExecute): Promise<ExecuteResponse> {
    const hosted = sessions.get(input.sessionId);
    if (!hosted || hosted.closing) throw new SessionNotOnHost(input.sessionId);
    const started = performance.now();
    const running = measuredExecute(input.language, () => sandbox.run({ ...input, cdpUrl: hosted.chromium.cdpUrl, sessionDir: hosted.dir }));
    // For the session listing only (the workflow keeps the idle clock): written once the code is handed
    // over, and the answer waits for it no more than it does for the gateway's touches (gateway/session-touch.ts).
    setImmediate(() => {
      db.browserSession
        .update({ where: { id: input.sessionId }, data: { lastActivityAt: new Date() } })
        .catch((err: unknown) => log.warn('session last activity not recorded', { sessionId: input.sessionId, error: (err as Error).message }));
    });
    // A run the session's close cut short is answered as the session's end, whatever it printed.
    const outcome = await running.catch((err: unknown) => {
      throw hosted.closing ? new SessionNotOnHost(input.sessionId) : err;
    });
    if (hosted.closing) throw new SessionNotOnHost(input.sessionId);
    log.debug('execute timings', {
      sessionId: input.sessionId,
      language: input.language,
      sandboxMs: Math.round(performance.now() - started),
      exitCode: outcome.exitCode,
    });
    return executeResponse(outcome);
  };
}
