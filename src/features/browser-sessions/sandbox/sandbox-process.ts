// One sandbox, as the host sees it: a bwrap process in a process group of its
// own, its stdout, stderr and report descriptor read up to the output cap. A run
// is over when the runner's report line is in (the sandbox is then killed rather
// than waited for: tearing its namespaces down takes longer than the run) or
// when the sandbox exits without one. At the timeout the whole group is killed;
// bwrap's --die-with-parent chain then takes the sandbox's pid namespace down
// with it, so nothing the code started (double forks, setsid, daemons) survives.
import { spawn, type ChildProcess } from 'node:child_process';
import type { Readable } from 'node:stream';
import type { Logger } from '../../../platform/log.ts';
import { CappedOutput } from './capped-output.ts';
import { parseReport, type RunnerReport } from './runner-report.ts';
import { REPORT_FD } from './runtime/sandbox-paths.ts';

export interface ProcessOutcome {
  stdout: string;
  stderr: string;
  /** What the runner reported on REPORT_FD; {} if nothing. */
  report: RunnerReport;
  exitCode: number;
  killed: boolean;
}

export interface SandboxProcessOptions {
  bwrapPath: string;
  args: string[];
  env: Record<string, string>;
  maxOutputBytes: number;
}

/** The exit status of a process killed by SIGKILL, as shells report it. */
const KILLED_EXIT_CODE = 128 + 9;

export class SandboxProcess {
  private readonly child: ChildProcess;
  private readonly stdout: CappedOutput;
  private readonly stderr: CappedOutput;
  private readonly report: CappedOutput;
  private readonly ended: Promise<number>;
  /** Resolves with the runner's report once its line is complete; never, if no report comes. */
  private readonly reported: Promise<RunnerReport & { exitCode: number }>;
  private killedByTimeout = false;
  exited = false;

  constructor(options: SandboxProcessOptions, log: Logger) {
    this.child = spawn(options.bwrapPath, options.args, { env: options.env, detached: true, stdio: ['pipe', 'pipe', 'pipe', 'pipe'] });
    this.stdout = new CappedOutput(this.child.stdout, options.maxOutputBytes);
    this.stderr = new CappedOutput(this.child.stderr, options.maxOutputBytes);
    // The runner cuts the result to maxOutputBytes characters; as JSON a character takes up to 6 bytes.
    const reportStream = this.child.stdio[REPORT_FD] as Readable;
    this.report = new CappedOutput(reportStream, options.maxOutputBytes * 6 + 65_536);
    this.reported = new Promise((resolve) => {
      const onData = (chunk: Buffer) => {
        if (!chunk.includes(0x0a)) return;
        reportStream.off('data', onData);
        // The runner wrote its output before its report, so what it wrote is in the pipes already and
        // read in the same turn of the event loop as the report: complete by the next one.
        setImmediate(() => {
          const report = parseReport(this.report.text());
          if (!this.report.truncated && Number.isInteger(report.exitCode)) resolve(report as RunnerReport & { exitCode: number });
        });
      };
      reportStream.on('data', onData);
    });
    this.child.stdin?.on('error', () => {});
    this.ended = new Promise((resolve) => {
      this.child.once('error', (err) => {
        log.error('sandbox process did not start', { err, bwrap: options.bwrapPath });
        this.exited = true;
        resolve(127);
      });
      this.child.once('close', (code, signal) => {
        this.exited = true;
        resolve(code ?? (signal === 'SIGKILL' ? KILLED_EXIT_CODE : 128));
      });
    });
  }

  get stdoutText(): string {
    return this.stdout.text();
  }

  /** Resolves when the first line of stdout arrives (a daemon saying it is ready), or rejects when the process ends first. */
  firstLine(): Promise<string> {
    return new Promise((resolve, reject) => {
      let seen = '';
      const onData = (chunk: Buffer) => {
        seen += chunk.toString('utf8');
        const end = seen.indexOf('\n');
        if (end >= 0) {
          this.child.stdout?.off('data', onData);
          resolve(seen.slice(0, end));
        }
      };
      this.child.stdout?.on('data', onData);
      void this.ended.then(() => reject(new Error(this.stderr.text().trim() || 'the sandbox ended before it was ready')));
    });
  }

  /** Resolves when the sandbox has exited. */
  get done(): Promise<void> {
    return this.ended.then(() => undefined);
  }

  /**
   * Hands the code over on stdin (a warm runner has been waiting for it) and waits for the runner's
   * report, or for the sandbox's end when none comes, killing at the timeout. A sandbox that has
   * reported is killed: its runner was only exiting.
   */
  async finish(code: string, timeoutMs: number): Promise<ProcessOutcome> {
    this.child.stdin?.end(code);
    const timer = setTimeout(() => {
      this.killedByTimeout = true;
      this.kill();
    }, timeoutMs);
    try {
      const report = await Promise.race([this.reported, this.ended.then(() => undefined)]);
      if (report && !this.killedByTimeout) {
        this.kill();
        return { stdout: this.stdout.text(), stderr: this.stderr.text(), report, exitCode: report.exitCode, killed: false };
      }
      const exitCode = await this.ended;
      return {
        stdout: this.stdout.text(),
        stderr: this.stderr.text(),
        report: parseReport(this.report.text()),
        exitCode: this.killedByTimeout ? KILLED_EXIT_CODE : exitCode,
        killed: this.killedByTimeout,
      };
    } finally {
      clearTimeout(timer);
    }
  }

  kill(): void {
    if (this.exited || this.child.pid === undefined) return;
    try {
      process.kill(-this.child.pid, 'SIGKILL');
    } catch {
      // Already gone between the check and the signal.
    }
  }

  /** Kills the sandbox and waits until it is gone. */
  async stop(): Promise<void> {
    this.kill();
    await this.ended;
  }
}
