// What GET /metrics on an operations port answers: this process's registry and,
// in processes that run Temporal workers, the SDK core's metrics after it.
import { registry } from './registry.ts';
import type { SdkMetrics } from './sdk-metrics.ts';

export const METRICS_CONTENT_TYPE = registry.contentType;

export async function metricsText(sdk?: SdkMetrics): Promise<string> {
  const [ours, core] = await Promise.all([registry.metrics(), sdk?.scrape() ?? '']);
  return core ? `${ours.trimEnd()}\n${core}` : ours;
}
