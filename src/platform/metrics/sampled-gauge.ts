// Gauges whose value is read from somewhere else (PostgreSQL rows, the process
// table) when Prometheus scrapes: the read runs at most once per `maxAgeMs`
// however many scrapers ask, and a read that fails or hangs leaves the previous
// values in place and is counted, so a slow database never fails a scrape.
import { counter, gauge } from './registry.ts';

export type Sample<L extends string> = { labels?: Partial<Record<L, string>>; value: number }[];

const sampleFailures = counter({
  name: 'metric_sample_failures_total',
  help: 'Reads behind sampled gauges that failed or took longer than their timeout; the gauge kept its previous values',
  labelNames: ['metric'],
});

export function sampledGauge<L extends string = never>(config: {
  name: string;
  help: string;
  labelNames?: readonly L[];
  read: () => Promise<Sample<L>>;
  maxAgeMs?: number;
  timeoutMs?: number;
}): void {
  const maxAgeMs = config.maxAgeMs ?? 5_000;
  const timeoutMs = config.timeoutMs ?? 2_000;
  let last: { at: number; values: Sample<L> } | undefined;
  let pending: Promise<void> | undefined;
  const refresh = async () => {
    let timer: NodeJS.Timeout | undefined;
    try {
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('timeout')), timeoutMs);
      });
      last = { at: Date.now(), values: await Promise.race([config.read(), timeout]) };
    } catch {
      sampleFailures.inc({ metric: config.name });
      if (last) last.at = Date.now();
    } finally {
      clearTimeout(timer);
    }
  };
  gauge<L>({
    name: config.name,
    help: config.help,
    labelNames: config.labelNames ?? [],
    async collect() {
      if (!last || Date.now() - last.at >= maxAgeMs) {
        pending ??= refresh().finally(() => (pending = undefined));
        await pending;
      }
      this.reset();
      for (const { labels, value } of last?.values ?? []) {
        if (labels) this.set(labels as Record<L, string>, value);
        else this.set(value);
      }
    },
  });
}
