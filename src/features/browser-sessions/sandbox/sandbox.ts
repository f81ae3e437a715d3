// Runs a session's executes, each in a sandbox of its own (bwrap-command.ts):
// runners are started ahead and wait for code (node and python already attached
// to the session's browser), so an execute pays for neither the start of a
// sandbox and runtime nor the attach; bash runs reach the session's one
// agent-browser daemon, which lives in a sandbox of its own until the session ends.
import { existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Logger } from '../../../platform/log.ts';
import type { ExecuteOutcome, ExecuteRun, SessionRef } from './execute-run.ts';
import { runsAsRoot } from '../../../platform/browser/chromium-launch.ts';
import { SETPRIV } from './bwrap-command.ts';
import { executeOutcome } from './execute-answer.ts';
import { prepareRuntimes } from './sandbox-runtimes.ts';
import { PRLIMIT, type SandboxSettings } from './sandbox-limits.ts';
import type { ProcessOutcome, SandboxProcess } from './sandbox-process.ts';
import { SandboxSessions, type SessionSandboxes } from './sandbox-sessions.ts';
import { SessionRunners } from './session-runners.ts';
import { UidPool } from './uid-pool.ts';

export type { SandboxSettings } from './sandbox-limits.ts';
export type { ExecuteOutcome, ExecuteRun, SessionRef } from './execute-run.ts';

export interface Sandbox {
  run(run: ExecuteRun): Promise<ExecuteOutcome>;
  /** Starts the session's node runner ahead of its first execute (when SANDBOX_WARM_RUNNERS is on); optional. */
  warmUp(session: SessionRef): Promise<void>;
  /** Ends the session's runners and agent-browser daemon and closes its bridge. */
  endSession(sessionId: string, sessionDir: string): Promise<void>;
}

/** How long a node or python run goes on before its language's next runner starts beside it (sandbox.run). */
const WARM_NEXT_AFTER_MS = 50;
/**
 * How long after an answer its language's next runner starts: the answer still has its way through the
 * relay and the gateway to make, on the same cores, and a runner's start (a fork of the host, then a
 * runtime) held it up by 10-15 ms when it began at once (bench:browser, 2026-11-29).
 */
const WARM_NEXT_DELAY_MS = 10;

/** The host's tools a sandbox is made with; a host without one stops at start-up rather than failing every execute. */
function checkTools(settings: SandboxSettings): void {
  for (const [tool, hint] of [
    [settings.bwrapPath, 'bubblewrap (Debian: apt-get install bubblewrap; or set SANDBOX_BWRAP_PATH)'],
    [SETPRIV, 'setpriv (util-linux)'],
    [PRLIMIT, 'prlimit (util-linux)'],
  ]) {
    if (!existsSync(tool)) throw new Error(`${tool} is missing: browser-session executes need ${hint}`);
  }
}

/** Runs the code in the runner; the runner counts as the session's until its sandbox is gone, which may be after the answer. */
async function tracked(s: SessionSandboxes, process: SandboxProcess, run: ExecuteRun): Promise<ProcessOutcome> {
  s.running.add(process);
  try {
    return await process.finish(run.code, run.timeoutMs);
  } finally {
    void process.done.then(() => s.running.delete(process));
  }
}

export function createSandbox(settings: SandboxSettings, log: Logger): Sandbox {
  checkTools(settings);
  const runtimes = prepareRuntimes();
  const asRoot = runsAsRoot();
  // Machine-wide, like the uids themselves: every browser host on the machine claims from the same directory.
  const uids = new UidPool(settings.uidBase, settings.maxSessions, join(tmpdir(), 'execute-sandbox-uids'));
  const sessions = new SandboxSessions(uids, asRoot, runtimes.privateDir, log);
  const runners = new SessionRunners(settings, runtimes, log);

  return {
    async run(run) {
      const s = await sessions.sessionFor(run);
      if (run.language === 'bash') await runners.daemon(s);
      const process = await runners.runner(s, run.language, run.timeoutMs);
      const outcome = tracked(s, process, run);
      // The next runner starts just after the answer (WARM_NEXT_DELAY_MS), so as not to compete with the run for the CPU (a
      // node or python runner's start takes most of a second of it: python `1` took 7 ms beside it,
      // 1.3 ms without). A run still going after WARM_NEXT_AFTER_MS has it start beside it, so that
      // a long run's next execute need not wait for the whole start.
      const warmNext = () => runners.keepWarm(s, run.language);
      const early = run.language === 'bash' ? undefined : setTimeout(warmNext, WARM_NEXT_AFTER_MS);
      const settled = () => {
        clearTimeout(early);
        setTimeout(warmNext, WARM_NEXT_DELAY_MS);
      };
      void outcome.then(settled, settled);
      return executeOutcome(run.sessionId, await outcome);
    },

    async warmUp(session) {
      runners.keepWarm(await sessions.sessionFor(session), 'node');
    },

    async endSession(sessionId, sessionDir) {
      await sessions.end(sessionId);
      rmSync(join(sessionDir, 'agent-browser'), { recursive: true, force: true });
    },
  };
}
