// The Temporal SDK's process-wide runtime of a process that runs workers: its
// logs, the Rust core's included, go through our logger (see sdk-logger.ts), and
// its metrics, when the process serves metrics, to a loopback exporter the
// operations port reads (see ../metrics/sdk-metrics.ts).
import { makeTelemetryFilterString, Runtime } from '@temporalio/worker';
import type { LogLevel } from '../log-config.ts';
import type { Logger } from '../log.ts';
import { sdkLogger } from './sdk-logger.ts';

export function installSdkRuntime(log: Logger, level: LogLevel, metrics?: { bindAddress: string }): void {
  Runtime.install({
    logger: sdkLogger(log.child({ sdk: 'temporal' })),
    // The core's INFO lines are per-poller chatter; its warnings and errors are what an operator needs.
    telemetryOptions: {
      logging: { filter: makeTelemetryFilterString({ core: level === 'debug' ? 'INFO' : 'WARN' }), forward: {} },
      // Prometheus' conventions (seconds, _total) so the core's series read like ours.
      ...(metrics && {
        metrics: { prometheus: { bindAddress: metrics.bindAddress, countersTotalSuffix: true, useSecondsForDurations: true, unitSuffix: true } },
      }),
    },
    // No SDK signal handlers: the process's own (onShutdown) decide when workers drain.
    shutdownSignals: [],
  });
}
