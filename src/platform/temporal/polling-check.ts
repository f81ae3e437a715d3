// The readiness check of a process that runs Temporal workers: it is ready only
// while every one of them polls its task queue; a worker that drains on shutdown
// or stopped after a fatal error takes the process out of rotation.
import type { Check } from '../process/readiness.ts';

export interface PollingWorker {
  taskQueue: string;
  state: string;
}

export function pollingCheck(workers: () => PollingWorker[]): Check {
  return () => {
    const idle = workers().filter((worker) => worker.state !== 'RUNNING');
    if (idle.length) throw new Error(`not polling: ${idle.map((w) => `${w.taskQueue} (${w.state})`).join(', ')}`);
  };
}
