// The Temporal SDK's own metrics (workers' task slots, poll and schedule-to-start
// latencies, sticky cache, activity and workflow outcomes) come from its Rust
// core, which serves them itself over HTTP. The core's exporter listens on a
// loopback port of its own and the operations port appends its text to ours, so
// each process stays one scrape target.
import { freePort } from '../process/ports.ts';

export interface SdkMetrics {
  /** For Runtime.install's telemetryOptions.metrics.prometheus.bindAddress. */
  bindAddress: string;
  /** The core's exposition text; empty when it does not answer in time. */
  scrape(): Promise<string>;
}

export async function sdkMetricsEndpoint(timeoutMs = 2_000): Promise<SdkMetrics> {
  const port = await freePort();
  return {
    bindAddress: `127.0.0.1:${port}`,
    async scrape() {
      try {
        const answer = await fetch(`http://127.0.0.1:${port}/metrics`, { signal: AbortSignal.timeout(timeoutMs) });
        return answer.ok ? await answer.text() : '';
      } catch {
        return '';
      }
    },
  };
}
