// The series the service exports, from the code and from docs/operations.md:
// loading every module that declares metrics fills the process's registry (the
// service's own, prefixed, and Node's default collectors); the metrics table
// lists the prefixed ones, and "Node and the Temporal SDK" names the SDK core's.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import '../../src/features/index.ts';
import '../../activities/index.ts';
// The job engine's activities, which a worker loads at its start (job-engine.ts imports them lazily).
import '../../src/jobs/activities.ts';
import '../../src/platform/http/app.ts';
import '../../src/features/browser-sessions/host/browser-host.ts';
// Imported by the worker's and the browser host's entry points, which cannot be loaded here (they run).
import '../../src/platform/browser/chromium-metrics.ts';
import '../../src/platform/process/ops-server.ts';
import { METRIC_PREFIX, registry } from '../../src/platform/metrics/registry.ts';

export interface MetricShape {
  type: string;
  labels: string[];
}

const ROOT = new URL('../../', import.meta.url);
const operationsDoc = () => readFileSync(new URL('docs/operations.md', ROOT), 'utf8');

/** Every metric of the registry, the service's and Node's, with its type and label names. */
export async function declaredMetrics(): Promise<Map<string, MetricShape>> {
  return new Map(
    (await registry.getMetricsAsJSON()).map((m) => {
      const labelNames = (registry.getSingleMetric(m.name) as unknown as { labelNames: string[] }).labelNames;
      return [m.name, { type: String(m.type), labels: [...labelNames].sort() }];
    }),
  );
}

/** The rows of the metrics table ("The service's metrics"). */
export function documentedMetrics(): Map<string, MetricShape> {
  const text = operationsDoc();
  const section = text.slice(text.indexOf("\n### The service's metrics"), text.indexOf('\n### Node and the Temporal SDK'));
  const rows = section.split('\n').filter((line) => line.startsWith(`| \`${METRIC_PREFIX}`));
  return new Map(
    rows.map((row) => {
      const [name, type, labels] = row
        .split('|')
        .slice(1, 4)
        .map((cell) => cell.trim());
      // "gauge, shared": the type is the first word.
      return [name.replaceAll('`', ''), { type: type.split(',')[0], labels: labels === '' ? [] : labels.split(',').map((l) => l.trim().replaceAll('`', '')) }];
    }),
  );
}

/** The Temporal SDK metrics "Node and the Temporal SDK" names, as they appear on /metrics (histograms by their base name). */
export function documentedSdkMetrics(): Set<string> {
  const text = operationsDoc();
  const start = text.indexOf('\n### Node and the Temporal SDK');
  const section = text.slice(start, text.indexOf('\n## ', start));
  return new Set([...section.matchAll(/`(temporal_[a-z0-9_]+)`/g)].map((m) => m[1]!));
}

/**
 * The metric names the installed Temporal SDK core defines, read from its Rust sources (shipped in
 * @temporalio/core-bridge): `name: "…"` of its instruments and the `&str` constants those name.
 */
export function sdkCoreMetricNames(): Set<string> {
  const crates = new URL('node_modules/@temporalio/core-bridge/sdk-core/crates/', ROOT).pathname;
  const names = new Set<string>();
  const visit = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory() && entry.name !== 'tests') visit(path);
      else if (entry.name.endsWith('.rs')) {
        for (const m of readFileSync(path, 'utf8').matchAll(/(?:name:\s*|&str\s*=\s*)"([a-z][a-z0-9_]*)"/g)) names.add(m[1]!);
      }
    }
  };
  for (const crate of readdirSync(crates, { withFileTypes: true })) if (crate.isDirectory()) visit(join(crates, crate.name, 'src'));
  return names;
}
