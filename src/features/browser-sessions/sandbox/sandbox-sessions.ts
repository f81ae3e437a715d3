// The sessions a sandbox serves: each has a uid of its own (when the host runs as
// root), a CDP bridge to its browser, an agent-browser directory, and the runners
// it has started. A session is opened on its first execute and closed when it
// ends or its browser comes back under another URL; its uid goes back to the pool
// only once none of its processes is left.
import { chownSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from '../../../platform/log.ts';
import type { ExecuteLanguage } from '../protocol/execute-limits.ts';
import { CdpBridge, cdpTarget, type CdpTarget } from './cdp-bridge.ts';
import type { SessionPlaces } from './runner-plans.ts';
import type { SessionRef } from './execute-run.ts';
import type { SandboxProcess } from './sandbox-process.ts';
import type { UidPool } from './uid-pool.ts';
import { endProcessesOf } from './uid-processes.ts';

/** How long an ended session's processes get to disappear after SIGKILL before its uid is held back. */
const UID_DRAIN_MS = 5_000;

export interface SessionSandboxes {
  sessionId: string;
  cdpUrl: string;
  target: CdpTarget;
  user: { uid: number; gid: number } | undefined;
  bridge: CdpBridge;
  agentBrowserDir: string;
  spares: Map<ExecuteLanguage, SandboxProcess>;
  /** Languages whose next spare is starting. */
  warming: Set<ExecuteLanguage>;
  /** Executes in flight: ended with the session, so that nothing outlives it under a uid another session may get next. */
  running: Set<SandboxProcess>;
  daemon?: { process: SandboxProcess; ready: Promise<void> };
  ended: boolean;
}

export const placesOf = (s: SessionSandboxes): SessionPlaces => ({
  browserPath: s.target.browserPath,
  bridgeSocket: s.bridge.socketPath,
  agentBrowserDir: s.agentBrowserDir,
});

export class SandboxSessions {
  private readonly sessions = new Map<string, Promise<SessionSandboxes>>();
  private bridgeCount = 0;

  /** `asRoot`: each session runs under a uid of its own from `uids`; otherwise under the host's. */
  constructor(
    private readonly uids: UidPool,
    private readonly asRoot: boolean,
    /** Where the bridges' sockets go. */
    private readonly privateDir: string,
    private readonly log: Logger,
  ) {}

  /** The session's sandboxes, opened on first use, and again when its browser came back under another URL. */
  async sessionFor(run: SessionRef): Promise<SessionSandboxes> {
    let pending = this.sessions.get(run.sessionId);
    const existing = pending && (await pending.catch(() => undefined));
    if (existing && !existing.ended && existing.cdpUrl === run.cdpUrl) return existing;
    // The session's browser came back under another URL: what was attached to the old one goes.
    if (existing && !existing.ended) await this.close(existing);
    pending = this.open(run);
    this.sessions.set(run.sessionId, pending);
    pending.catch(() => this.sessions.delete(run.sessionId));
    return pending;
  }

  async end(sessionId: string): Promise<void> {
    const pending = this.sessions.get(sessionId);
    this.sessions.delete(sessionId);
    const s = pending && (await pending.catch(() => undefined));
    if (s) await this.close(s);
  }

  private async open(run: SessionRef): Promise<SessionSandboxes> {
    const target = cdpTarget(run.cdpUrl);
    const uid = this.asRoot ? this.uids.acquire(run.sessionId) : undefined;
    const user = uid === undefined ? undefined : { uid, gid: uid };
    try {
      const agentBrowserDir = join(run.sessionDir, 'agent-browser');
      mkdirSync(agentBrowserDir, { recursive: true, mode: 0o700 });
      if (user) chownSync(agentBrowserDir, user.uid, user.gid);
      const bridge = await CdpBridge.open(join(this.privateDir, `${++this.bridgeCount}.sock`), target, user);
      return {
        sessionId: run.sessionId,
        cdpUrl: run.cdpUrl,
        target,
        user,
        bridge,
        agentBrowserDir,
        spares: new Map(),
        warming: new Set(),
        running: new Set(),
        ended: false,
      };
    } catch (err) {
      this.uids.release(run.sessionId);
      throw err;
    }
  }

  private async close(s: SessionSandboxes): Promise<void> {
    s.ended = true;
    await Promise.all([...s.spares.values(), ...s.running, ...(s.daemon ? [s.daemon.process] : [])].map((p) => p.stop()));
    s.spares.clear();
    await s.bridge.close();
    rmSync(s.agentBrowserDir, { recursive: true, force: true });
    if (s.user && !(await endProcessesOf(s.user.uid, UID_DRAIN_MS))) {
      // Kept out of the pool: a process that outlives SIGKILL this long would run under the next session's uid.
      this.log.error('processes of an ended session survive SIGKILL; its uid is not reused', { sessionId: s.sessionId, uid: s.user.uid });
      return;
    }
    this.uids.release(s.sessionId);
  }
}
