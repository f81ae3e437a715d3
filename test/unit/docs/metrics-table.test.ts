// docs/operations.md lists every metric the service declares, and nothing else:
// loading every module that declares metrics fills the registry, which is then
// compared with the table's rows.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import '../../../src/features/index.ts';
import '../../../activities/index.ts';
import '../../../src/platform/http/app.ts';
import '../../../src/features/browser-sessions/host/browser-host.ts';
// Imported by the worker's and the browser host's entry points, which cannot be loaded here (they run).
import '../../../src/platform/browser/chromium-metrics.ts';
import '../../../src/platform/process/ops-server.ts';
import { METRIC_PREFIX, registry } from '../../../src/platform/metrics/registry.ts';

function documentedMetrics(): Map<string, { type: string; labels: string[] }> {
  const text = readFileSync(new URL('../../../docs/operations.md', import.meta.url), 'utf8');
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

describe('the metrics table', () => {
  it('lists every declared metric with its type and labels, and no other', async () => {
    const declared = new Map(
      (await registry.getMetricsAsJSON())
        .filter((m) => m.name.startsWith(METRIC_PREFIX))
        .map((m) => {
          const labelNames = (registry.getSingleMetric(m.name) as unknown as { labelNames: string[] }).labelNames;
          return [m.name, { type: String(m.type), labels: [...labelNames].sort() }];
        }),
    );
    const documented = documentedMetrics();
    expect(declared.size).toBeGreaterThanOrEqual(29);
    expect([...documented.keys()].sort()).toEqual([...declared.keys()].sort());
    for (const [name, { type, labels }] of declared) {
      expect({ name, type: documented.get(name)!.type, labels: documented.get(name)!.labels.sort() }).toEqual({ name, type, labels });
    }
  });
});
