// The process's readiness as a gauge, read when Prometheus scrapes: an operations
// port answers /metrics while PostgreSQL or Temporal is away, so `up` stays 1 and
// only this says the process cannot work (the alert on a process not ready).
import { gauge } from '../metrics/registry.ts';
import type { Readiness } from './readiness.ts';

let served: (() => Promise<Readiness>) | undefined;

gauge({
  name: 'readiness_check_ok',
  help: 'Readiness checks of this process (postgres, temporal, workers): 1 passing, 0 failing; the process is ready when all are 1',
  labelNames: ['check'],
  async collect() {
    this.reset();
    // One answer serves scrapes and /ready callers for a second (readiness.ts): scrapers cannot load the dependencies.
    const answer = await served?.();
    for (const [check, probe] of Object.entries(answer?.checks ?? {})) this.set({ check }, probe.ok ? 1 : 0);
  },
});

/** The operations port calls this with the readiness it serves on /ready. */
export function serveReadinessGauge(readiness: () => Promise<Readiness>): void {
  served = readiness;
}
