// Use of a session that does not pass through its workflow (CDP traffic through
// the gateway, live-view input) re-arms its idle timer by a `touched` signal.
// Signals are debounced per session and gateway: at most one per interval (never
// longer than a third of the session's activityTtl, so steady use never idles a
// session out), with a trailing one for use that fell inside the wait.
import type { Client } from '@temporalio/client';
import type { Db } from '../../../platform/db/prisma.ts';
import type { Logger } from '../../../platform/log.ts';
import { sessionWorkflowId, touchedSignal } from '../protocol/definitions.ts';

/** A session touched within the last window: more use during it earns one trailing signal at its end. */
interface Window {
  timer: NodeJS.Timeout;
  usedAgain: boolean;
}

export interface SessionToucher {
  touch(sessionId: string, activityTtlSeconds: number): void;
  stop(): void;
}

export function createSessionToucher(deps: { temporal: Client; db: Db; log: Logger }, intervalMs: number): SessionToucher {
  const windows = new Map<string, Window>();

  const send = (sessionId: string, waitMs: number) => {
    deps.temporal.workflow
      .getHandle(sessionWorkflowId(sessionId))
      .signal(touchedSignal)
      .catch((err: unknown) => deps.log.debug('session touch not delivered', { sessionId, error: (err as Error).message }));
    deps.db.browserSession
      .update({ where: { id: sessionId }, data: { lastActivityAt: new Date() } })
      .catch((err: unknown) => deps.log.debug('session last activity not recorded', { sessionId, error: (err as Error).message }));
    const window: Window = {
      usedAgain: false,
      timer: setTimeout(() => {
        windows.delete(sessionId);
        if (window.usedAgain) send(sessionId, waitMs);
      }, waitMs),
    };
    window.timer.unref();
    windows.set(sessionId, window);
  };

  return {
    touch(sessionId, activityTtlSeconds) {
      const window = windows.get(sessionId);
      if (window) window.usedAgain = true;
      else send(sessionId, Math.min(intervalMs, Math.floor((activityTtlSeconds * 1000) / 3)));
    },
    stop() {
      for (const window of windows.values()) clearTimeout(window.timer);
      windows.clear();
    },
  };
}
