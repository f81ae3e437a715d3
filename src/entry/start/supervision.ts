// What `npm start` has brought up and where it is in its life: starting (a signal
// stops it after the current step), running (a signal stops everything), stopping.
// Everything started is stopped in reverse order of start.
import type { EmbeddedPostgres } from '../../platform/db/embedded-postgres.ts';
import type { ServerWatch } from '../../platform/process/server-watch.ts';
import type { TemporalDevServer } from '../../platform/temporal/dev-server.ts';
import type { Supervised } from './children.ts';

export const progress = (line: string) => process.stderr.write(`[start] ${line}\n`);
export const seconds = (since: number) => `${((Date.now() - since) / 1000).toFixed(1)} s`;

/** A signal arrived during start-up: what started is stopped, and the process ends normally. */
export class StartStopped extends Error {}

export class Supervision {
  phase: 'starting' | 'running' | 'stopping' = 'starting';
  private stopRequested = false;
  pg?: EmbeddedPostgres;
  temporalServer?: TemporalDevServer;
  readonly serverWatches: ServerWatch[] = [];

  /** `childExitWaitMs`: how long a child is given to exit after SIGTERM before the next is stopped. */
  constructor(
    readonly children: Supervised[],
    private readonly childExitWaitMs: number,
  ) {}

  onSignal(signal: NodeJS.Signals): void {
    if (this.phase !== 'starting') return void this.shutdown(0);
    // A server being started cannot be stopped halfway; the start-up stops after the current step.
    if (!this.stopRequested) progress(`${signal}: stopping after the current start-up step ...`);
    this.stopRequested = true;
  }

  /** Between start-up steps, after what a step started is recorded for stopAll. */
  checkpoint(): void {
    if (this.stopRequested) throw new StartStopped();
  }

  async step<T>(work: Promise<T>): Promise<T> {
    const value = await work;
    this.checkpoint();
    return value;
  }

  /** Everything started so far, in reverse order of start. */
  async stopAll(): Promise<void> {
    for (const watch of this.serverWatches) watch.stop();
    for (const name of ['gateway', 'browser-host', 'worker']) {
      const c = this.children.find((x) => x.name === name)?.child;
      if (c && c.exitCode === null && c.signalCode === null) {
        const exited = new Promise((r) => c.once('exit', r));
        c.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, this.childExitWaitMs))]);
      }
    }
    await this.temporalServer?.stop();
    await this.pg?.stop();
  }

  async shutdown(code: number): Promise<void> {
    if (this.phase === 'stopping') return;
    this.phase = 'stopping';
    progress('shutting down: gateway, then worker (draining), then Temporal and PostgreSQL ...');
    await this.stopAll();
    progress('stopped');
    process.exit(code);
  }
}
