// The process's one Prometheus registry. Modules that own a measurement declare
// their metrics here (counter, gauge, histogram) beside the code they measure;
// the operations port serves them all. Every name gets the service's prefix, and
// docs/operations.md lists each one (test/unit/platform/metrics-docs.test.ts).
import {
  collectDefaultMetrics,
  Counter,
  Gauge,
  Histogram,
  Registry,
  type CounterConfiguration,
  type GaugeConfiguration,
  type HistogramConfiguration,
} from 'prom-client';

export const METRIC_PREFIX = 'crawl_service_';

export const registry = new Registry();
// Node's own: CPU, memory, event-loop lag, handles (names as every Node exporter has them).
collectDefaultMetrics({ register: registry });

type Named<T> = Omit<T, 'registers'>;

export function counter<L extends string>(config: Named<CounterConfiguration<L>>): Counter<L> {
  return new Counter({ ...config, name: METRIC_PREFIX + config.name, registers: [registry] });
}

export function gauge<L extends string>(config: Named<GaugeConfiguration<L>>): Gauge<L> {
  return new Gauge({ ...config, name: METRIC_PREFIX + config.name, registers: [registry] });
}

export function histogram<L extends string>(config: Named<HistogramConfiguration<L>>): Histogram<L> {
  return new Histogram({ ...config, name: METRIC_PREFIX + config.name, registers: [registry] });
}

/** Seconds, from 5 ms to 5 min: requests, page loads, executes and waits share these buckets. */
export const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];
