// docs/operations.md lists every metric the service declares, and nothing else:
// the registry, filled by every module that declares metrics, is compared with
// the table's rows.
import { describe, expect, it } from 'vitest';
import { METRIC_PREFIX } from '../../../src/platform/metrics/registry.ts';
import { declaredMetrics, documentedMetrics } from '../../support/service-metrics.ts';

describe('the metrics table', () => {
  it('lists every declared metric with its type and labels, and no other', async () => {
    const declared = new Map([...(await declaredMetrics())].filter(([name]) => name.startsWith(METRIC_PREFIX)));
    const documented = documentedMetrics();
    expect(declared.size).toBeGreaterThanOrEqual(29);
    expect([...documented.keys()].sort()).toEqual([...declared.keys()].sort());
    for (const [name, { type, labels }] of declared) {
      expect({ name, type: documented.get(name)!.type, labels: documented.get(name)!.labels.sort() }).toEqual({ name, type, labels });
    }
  });
});
