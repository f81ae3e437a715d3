// Runs a session's executes, each in a sandbox of its own (bwrap-command.ts):
// runners are started ahead and wait for code (node and python already attached
// to the session's browser), so an execute pays for neither the start of a
// sandbox and runtime nor the attach; bash runs reach the session's one
// agent-browser daemon, which lives in a sandbox of its own until the session ends.
import { chownSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DomainError } from '../../../platform/domain-error.ts';
import type { Logger } from '../../../platform/log.ts';
import type { ExecuteLanguage } from '../protocol/execute-limits.ts';
import { runsAsRoot } from '../../../platform/browser/chromium-launch.ts';
import { bwrapArgs, SETPRIV, type Mount, type SandboxPlan } from './bwrap-command.ts';
import { CdpBridge, cdpTarget, type CdpTarget } from './cdp-bridge.ts';
import { prepareRuntimes, resolvePython, type PythonRuntime, type Runtimes } from './sandbox-runtimes.ts';
import { PRLIMIT, type SandboxSettings } from './sandbox-limits.ts';
import { SandboxProcess, type ProcessOutcome } from './sandbox-process.ts';
import * as paths from './runtime/sandbox-paths.ts';
import { UidPool } from './uid-pool.ts';
import { endProcessesOf } from './uid-processes.ts';

export type { SandboxSettings } from './sandbox-limits.ts';

export interface ExecuteRun {
  sessionId: string;
  language: ExecuteLanguage;
  code: string;
  timeoutMs: number;
  /** The session's browser-level DevTools URL as the host reaches it (ws://127.0.0.1:PORT/devtools/browser/ID). */
  cdpUrl: string;
  /** A host directory private to this session, alive until the session ends. */
  sessionDir: string;
}

export interface ExecuteOutcome {
  stdout: string;
  stderr: string;
  /** The last expression's value as text (node, python); otherwise stdout, as the spec's alias; null when both are empty. */
  result: string | null;
  /** The uncaught exception the code ended with ("TimeoutError: …"), as the runner described it. */
  error: string | null;
  exitCode: number;
  killed: boolean;
}

/** Which session, and where its browser and directory are. */
export type SessionRef = Pick<ExecuteRun, 'sessionId' | 'cdpUrl' | 'sessionDir'>;

export interface Sandbox {
  run(run: ExecuteRun): Promise<ExecuteOutcome>;
  /** Starts the session's node runner ahead of its first execute (when SANDBOX_WARM_RUNNERS is on); optional. */
  warmUp(session: SessionRef): Promise<void>;
  /** Ends the session's runners and agent-browser daemon and closes its bridge. */
  endSession(sessionId: string, sessionDir: string): Promise<void>;
}

interface SessionSandboxes {
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

/**
 * The bash runner: waits for the script on stdin, runs it as a child and reports how it exited.
 * The child reads the script through paths.CODE_FILE, a link to its descriptor 5, so that the
 * script is named as a file; that has to be a pipe (the host's stdin is a socket, which cannot be
 * opened by path), hence cat. The script's own stdin is empty, as a file's run was.
 */
const BASH_RUNNER = `cat ${paths.REPORT_FD}>&- | /bin/bash ${paths.CODE_FILE} 5<&0 </dev/null ${paths.REPORT_FD}>&-
printf '{"exitCode":%d}\\n' "$?" >&${paths.REPORT_FD}`;

/** How long a node or python run goes on before its language's next runner starts beside it (sandbox.run). */
const WARM_NEXT_AFTER_MS = 50;
/**
 * How long after an answer its language's next runner starts: the answer still has its way through the
 * relay and the gateway to make, on the same cores, and a runner's start (a fork of the host, then a
 * runtime) held it up by 10-15 ms when it began at once (bench:browser, 2026-11-29).
 */
const WARM_NEXT_DELAY_MS = 10;
/** How long an ended session's processes get to disappear after SIGKILL before its uid is held back. */
const UID_DRAIN_MS = 5_000;

const BASE_ENV = { PATH: `${paths.BIN_DIR}:/usr/local/bin:/usr/bin:/bin`, HOME: '/tmp', TMPDIR: '/tmp', LANG: 'C.UTF-8' };

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

export function createSandbox(settings: SandboxSettings, log: Logger): Sandbox {
  checkTools(settings);
  const runtimes: Runtimes = prepareRuntimes();
  const asRoot = runsAsRoot();
  // Machine-wide, like the uids themselves: every browser host on the machine claims from the same directory.
  const uids = new UidPool(settings.uidBase, settings.maxSessions, join(tmpdir(), 'execute-sandbox-uids'));
  const sessions = new Map<string, Promise<SessionSandboxes>>();
  let bridgeCount = 0;
  let python: Promise<PythonRuntime> | undefined;

  const bridgeMount = (s: SessionSandboxes): Mount => ({ source: s.bridge.socketPath, target: paths.BRIDGE_SOCKET });
  const runtimeMount: Mount = { source: runtimes.runtimeDir, target: paths.RUNTIME_DIR };
  const nodeMounts: Mount[] = [
    runtimeMount,
    { source: runtimes.nodeBinary, target: paths.NODE_BINARY },
    ...Object.entries(runtimes.nodePackages).map(([name, dir]) => ({ source: dir, target: `${paths.NODE_MODULES_DIR}/${name}` })),
  ];

  function start(s: SessionSandboxes, plan: Omit<SandboxPlan, 'user'>, env: Record<string, string>): SandboxProcess {
    const args = bwrapArgs(settings, { ...plan, user: s.user });
    return new SandboxProcess(
      { bwrapPath: settings.bwrapPath, args, env: { ...BASE_ENV, ...env }, maxOutputBytes: settings.maxOutputBytes },
      log.child({ sessionId: s.sessionId }),
    );
  }

  async function startRunner(s: SessionSandboxes, language: ExecuteLanguage, timeoutMs: number): Promise<SandboxProcess> {
    const cpuSeconds = Math.ceil(timeoutMs / 1000) + 5;
    if (language === 'bash') {
      return start(
        s,
        {
          mounts: [
            { source: runtimes.agentBrowserBinary, target: paths.AGENT_BROWSER_BINARY },
            { source: s.agentBrowserDir, target: paths.AGENT_BROWSER_DIR },
          ],
          cpuSeconds,
          fdLink: { fd: 5, target: paths.CODE_FILE },
          command: ['/bin/bash', '-c', BASH_RUNNER],
        },
        { AGENT_BROWSER_SOCKET_DIR: paths.AGENT_BROWSER_DIR, AGENT_BROWSER_NO_VERSION_CHECK: '1' },
      );
    }
    const cdp = { EXECUTE_CDP_PATH: s.target.browserPath, EXECUTE_CDP_SOCKET: paths.BRIDGE_SOCKET, EXECUTE_MAX_RESULT_CHARS: String(settings.maxOutputBytes) };
    if (language === 'node') {
      return start(s, { mounts: [...nodeMounts, bridgeMount(s)], cpuSeconds, command: [paths.NODE_BINARY, `${paths.RUNTIME_DIR}/node-runner.ts`] }, cdp);
    }
    if (!settings.pythonPackagesPath) {
      throw new DomainError(
        'unavailable',
        'python executes need the Python Playwright package: set PYTHON_PACKAGES_PATH (npm start installs it into .tools/python).',
      );
    }
    python ??= resolvePython(settings.python);
    const py = await python.catch((err: Error) => {
      python = undefined;
      throw new DomainError('unavailable', err.message);
    });
    // Ended while Python was being found: its uid may already be another session's.
    if (s.ended) throw new DomainError('gone', `session ${s.sessionId} has ended`);
    const mounts: Mount[] = [runtimeMount, bridgeMount(s), { source: settings.pythonPackagesPath, target: paths.PYTHON_PACKAGES_DIR }];
    if (!py.prefix.startsWith('/usr/')) mounts.push({ source: py.prefix, target: py.prefix });
    return start(
      s,
      { mounts, cpuSeconds, command: [py.executable, '-s', '-B', `${paths.RUNTIME_DIR}/python-runner.py`] },
      { ...cdp, PYTHONPATH: paths.PYTHON_PACKAGES_DIR, PYTHONDONTWRITEBYTECODE: '1' },
    );
  }

  /** The runner waiting for this session's next execute in this language; a fresh one if none is waiting. */
  async function runner(s: SessionSandboxes, language: ExecuteLanguage, timeoutMs: number): Promise<SandboxProcess> {
    const spare = s.spares.get(language);
    s.spares.delete(language);
    if (spare && !spare.exited) return spare;
    return startRunner(s, language, timeoutMs);
  }

  function keepWarm(s: SessionSandboxes, language: ExecuteLanguage): void {
    if (!settings.warmRunners || s.ended || s.spares.has(language) || s.warming.has(language)) return;
    s.warming.add(language);
    // A spare's CPU limit must cover the longest execute it may serve.
    startRunner(s, language, 300_000)
      .then(
        (spare) => {
          if (s.ended) spare.kill();
          else s.spares.set(language, spare);
        },
        (err) => log.warn('could not start a warm runner', { sessionId: s.sessionId, language, err }),
      )
      .finally(() => s.warming.delete(language));
  }

  function daemon(s: SessionSandboxes): Promise<void> {
    if (s.daemon && !s.daemon.process.exited) return s.daemon.ready;
    const process = start(
      s,
      {
        mounts: [
          ...nodeMounts,
          bridgeMount(s),
          { source: runtimes.agentBrowserBinary, target: paths.AGENT_BROWSER_BINARY },
          { source: s.agentBrowserDir, target: paths.AGENT_BROWSER_DIR, writable: true },
        ],
        cpuSeconds: undefined,
        command: [paths.NODE_BINARY, `${paths.RUNTIME_DIR}/agent-browser-host.ts`],
      },
      {
        EXECUTE_CDP_PATH: s.target.browserPath,
        AGENT_BROWSER_SOCKET_DIR: paths.AGENT_BROWSER_DIR,
        AGENT_BROWSER_IDLE_TIMEOUT_MS: '0',
        AGENT_BROWSER_NO_VERSION_CHECK: '1',
      },
    );
    const ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        process.kill();
        reject(new Error(`the agent-browser daemon did not attach within ${settings.daemonStartTimeoutMs} ms (SANDBOX_DAEMON_START_TIMEOUT_MS)`));
      }, settings.daemonStartTimeoutMs);
      process.firstLine().then(
        (line) => {
          clearTimeout(timer);
          if (line.trim() === 'ready') resolve();
          else reject(new Error(`the agent-browser daemon did not start: ${line}`));
        },
        (err: Error) => {
          clearTimeout(timer);
          reject(new Error(`the agent-browser daemon did not start: ${err.message}`));
        },
      );
    });
    s.daemon = { process, ready };
    return ready;
  }

  async function openSession(run: SessionRef): Promise<SessionSandboxes> {
    const target = cdpTarget(run.cdpUrl);
    const uid = asRoot ? uids.acquire(run.sessionId) : undefined;
    const user = uid === undefined ? undefined : { uid, gid: uid };
    try {
      const agentBrowserDir = join(run.sessionDir, 'agent-browser');
      mkdirSync(agentBrowserDir, { recursive: true, mode: 0o700 });
      if (user) chownSync(agentBrowserDir, user.uid, user.gid);
      const bridge = await CdpBridge.open(join(runtimes.privateDir, `${++bridgeCount}.sock`), target, user);
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
      uids.release(run.sessionId);
      throw err;
    }
  }

  async function closeSession(s: SessionSandboxes): Promise<void> {
    s.ended = true;
    await Promise.all([...s.spares.values(), ...s.running, ...(s.daemon ? [s.daemon.process] : [])].map((p) => p.stop()));
    s.spares.clear();
    await s.bridge.close();
    rmSync(s.agentBrowserDir, { recursive: true, force: true });
    if (s.user && !(await endProcessesOf(s.user.uid, UID_DRAIN_MS))) {
      // Kept out of the pool: a process that outlives SIGKILL this long would run under the next session's uid.
      log.error('processes of an ended session survive SIGKILL; its uid is not reused', { sessionId: s.sessionId, uid: s.user.uid });
      return;
    }
    uids.release(s.sessionId);
  }

  async function sessionFor(run: SessionRef): Promise<SessionSandboxes> {
    let pending = sessions.get(run.sessionId);
    const existing = pending && (await pending.catch(() => undefined));
    if (existing && !existing.ended && existing.cdpUrl === run.cdpUrl) return existing;
    // The session's browser came back under another URL: what was attached to the old one goes.
    if (existing && !existing.ended) await closeSession(existing);
    pending = openSession(run);
    sessions.set(run.sessionId, pending);
    pending.catch(() => sessions.delete(run.sessionId));
    return pending;
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

  function outcomeOf(run: ExecuteRun, p: ProcessOutcome): ExecuteOutcome {
    const { report } = p;
    if (report.fatal && !p.killed) throw new Error(`execute in session ${run.sessionId} failed: ${report.fatal}`);
    const value = report.result ?? null;
    return {
      stdout: p.stdout,
      stderr: p.stderr,
      result: value ?? (p.stdout === '' ? null : p.stdout),
      error: report.error ?? null,
      exitCode: p.exitCode,
      killed: p.killed,
    };
  }

  return {
    async run(run) {
      const s = await sessionFor(run);
      if (run.language === 'bash') await daemon(s);
      const process = await runner(s, run.language, run.timeoutMs);
      const outcome = tracked(s, process, run);
      // The next runner starts just after the answer (WARM_NEXT_DELAY_MS), so as not to compete with the run for the CPU (a
      // node or python runner's start takes most of a second of it: python `1` took 7 ms beside it,
      // 1.3 ms without). A run still going after WARM_NEXT_AFTER_MS has it start beside it, so that
      // a long run's next execute need not wait for the whole start.
      const warmNext = () => keepWarm(s, run.language);
      const early = run.language === 'bash' ? undefined : setTimeout(warmNext, WARM_NEXT_AFTER_MS);
      const settled = () => {
        clearTimeout(early);
        setTimeout(warmNext, WARM_NEXT_DELAY_MS);
      };
      void outcome.then(settled, settled);
      return outcomeOf(run, await outcome);
    },

    async warmUp(session) {
      keepWarm(await sessionFor(session), 'node');
    },

    async endSession(sessionId, sessionDir) {
      const pending = sessions.get(sessionId);
      sessions.delete(sessionId);
      const s = pending && (await pending.catch(() => undefined));
      if (s) await closeSession(s);
      rmSync(join(sessionDir, 'agent-browser'), { recursive: true, force: true });
    },
  };
}
