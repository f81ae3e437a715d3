// Starting a session's sandboxes: the runner an execute gets (a spare started ahead
// when there is one), the spares kept warm for the next execute, and the session's
// one agent-browser daemon, ready once it has attached to the browser.
import { DomainError } from '../../../platform/domain-error.ts';
import type { Logger } from '../../../platform/log.ts';
import type { ExecuteLanguage } from '../protocol/execute-limits.ts';
import { bwrapArgs } from './bwrap-command.ts';
import { agentBrowserDaemon, bashRunner, cpuSecondsFor, nodeRunner, pythonRunner, type RunnerLaunch } from './runner-plans.ts';
import type { SandboxSettings } from './sandbox-limits.ts';
import { SandboxProcess } from './sandbox-process.ts';
import { resolvePython, type PythonRuntime, type Runtimes } from './sandbox-runtimes.ts';
import { placesOf, type SessionSandboxes } from './sandbox-sessions.ts';
import * as paths from './runtime/sandbox-paths.ts';

const BASE_ENV = { PATH: `${paths.BIN_DIR}:/usr/local/bin:/usr/bin:/bin`, HOME: '/tmp', TMPDIR: '/tmp', LANG: 'C.UTF-8' };

/** A spare's CPU limit must cover the longest execute it may serve. */
const SPARE_TIMEOUT_MS = 300_000;

export class SessionRunners {
  /** Found once, on the first python execute; forgotten when finding it failed. */
  private python: Promise<PythonRuntime> | undefined;

  constructor(
    private readonly settings: SandboxSettings,
    private readonly runtimes: Runtimes,
    private readonly log: Logger,
  ) {}

  /** The runner waiting for this session's next execute in this language; a fresh one if none is waiting. */
  async runner(s: SessionSandboxes, language: ExecuteLanguage, timeoutMs: number): Promise<SandboxProcess> {
    const spare = s.spares.get(language);
    s.spares.delete(language);
    if (spare && !spare.exited) return spare;
    return this.startRunner(s, language, timeoutMs);
  }

  keepWarm(s: SessionSandboxes, language: ExecuteLanguage): void {
    if (!this.settings.warmRunners || s.ended || s.spares.has(language) || s.warming.has(language)) return;
    s.warming.add(language);
    this.startRunner(s, language, SPARE_TIMEOUT_MS)
      .then(
        (spare) => {
          if (s.ended) spare.kill();
          else s.spares.set(language, spare);
        },
        (err) => this.log.warn('could not start a warm runner', { sessionId: s.sessionId, language, err }),
      )
      .finally(() => s.warming.delete(language));
  }

  /** The session's agent-browser daemon, started if it is not running; resolves once it has attached. */
  daemon(s: SessionSandboxes): Promise<void> {
    if (s.daemon && !s.daemon.process.exited) return s.daemon.ready;
    const process = this.start(s, agentBrowserDaemon(this.runtimes, placesOf(s)));
    const { daemonStartTimeoutMs } = this.settings;
    const ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        process.kill();
        reject(new Error(`the agent-browser daemon did not attach within ${daemonStartTimeoutMs} ms (SANDBOX_DAEMON_START_TIMEOUT_MS)`));
      }, daemonStartTimeoutMs);
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

  private start(s: SessionSandboxes, { plan, env }: RunnerLaunch): SandboxProcess {
    const args = bwrapArgs(this.settings, { ...plan, user: s.user });
    return new SandboxProcess(
      { bwrapPath: this.settings.bwrapPath, args, env: { ...BASE_ENV, ...env }, maxOutputBytes: this.settings.maxOutputBytes },
      this.log.child({ sessionId: s.sessionId }),
    );
  }

  private async startRunner(s: SessionSandboxes, language: ExecuteLanguage, timeoutMs: number): Promise<SandboxProcess> {
    const cpuSeconds = cpuSecondsFor(timeoutMs);
    if (language === 'bash') return this.start(s, bashRunner(this.runtimes, placesOf(s), cpuSeconds));
    if (language === 'node') return this.start(s, nodeRunner(this.runtimes, this.settings, placesOf(s), cpuSeconds));
    const packages = this.settings.pythonPackagesPath;
    if (!packages) {
      throw new DomainError(
        'unavailable',
        'python executes need the Python Playwright package: set PYTHON_PACKAGES_PATH (npm start installs it into .tools/python).',
      );
    }
    this.python ??= resolvePython(this.settings.python);
    const py = await this.python.catch((err: Error) => {
      this.python = undefined;
      throw new DomainError('unavailable', err.message);
    });
    // Ended while Python was being found: its uid may already be another session's.
    if (s.ended) throw new DomainError('gone', `session ${s.sessionId} has ended`);
    return this.start(s, pythonRunner(this.runtimes, this.settings, packages, py, placesOf(s), cpuSeconds));
  }
}
