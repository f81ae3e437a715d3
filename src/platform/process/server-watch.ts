// `npm start` keeps the servers it started (PostgreSQL, the Temporal dev server)
// running as it keeps its children: a server found dead is started again, after
// a back-off that doubles while restarts fail, and given up on (the caller stops
// everything) after too many failed attempts in a row.

export interface ServerWatchOptions {
  name: string;
  isAlive: () => boolean;
  /** Starts the server again; resolves once it answers. */
  restart: () => Promise<void>;
  /** One line per event, for the operator. */
  report: (line: string) => void;
  /** Called once, when `maxFailures` restarts in a row failed; watching stops. */
  giveUp: (why: string) => void;
  checkEveryMs?: number;
  firstDelayMs?: number;
  maxDelayMs?: number;
  maxFailures?: number;
  sleep?: (ms: number) => Promise<void>;
}

export interface ServerWatch {
  stop(): void;
  /** Resolves when the loop has ended (after stop or give-up). */
  done: Promise<void>;
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

export function watchServer(opts: ServerWatchOptions): ServerWatch {
  const sleep = opts.sleep ?? wait;
  const checkEveryMs = opts.checkEveryMs ?? 1_000;
  const firstDelayMs = opts.firstDelayMs ?? 1_000;
  const maxDelayMs = opts.maxDelayMs ?? 30_000;
  const maxFailures = opts.maxFailures ?? 8;
  let stopped = false;

  /** Restarts until one succeeds (true) or the attempts run out or watching stops (false). */
  const revive = async (): Promise<boolean> => {
    let delay = firstDelayMs;
    for (let attempt = 1; attempt <= maxFailures; attempt++) {
      opts.report(`${opts.name} is not running; starting it again in ${(delay / 1000).toFixed(1)} s (attempt ${attempt} of ${maxFailures})`);
      await sleep(delay);
      if (stopped) return false;
      try {
        await opts.restart();
        opts.report(`${opts.name} is running again`);
        return true;
      } catch (err) {
        opts.report(`${opts.name} did not start: ${(err as Error).message.split('\n')[0]}`);
        delay = Math.min(delay * 2, maxDelayMs);
      }
    }
    return false;
  };

  const loop = async () => {
    while (!stopped) {
      await sleep(checkEveryMs);
      if (stopped || opts.isAlive()) continue;
      if (!(await revive()) && !stopped) {
        opts.giveUp(`${opts.name} could not be started again after ${maxFailures} attempts`);
        return;
      }
    }
  };
  const done = loop();
  return {
    stop: () => {
      stopped = true;
    },
    done,
  };
}
