// The Temporal SDK's process-wide runtime of a process that runs workers: its
// logs, the Rust core's included, go through our logger (see sdk-logger.ts).
import { makeTelemetryFilterString, Runtime } from '@temporalio/worker';
import type { LogLevel } from '../config.ts';
import type { Logger } from '../log.ts';
import { sdkLogger } from './sdk-logger.ts';

export function installSdkRuntime(log: Logger, level: LogLevel): void {
  Runtime.install({
    logger: sdkLogger(log.child({ sdk: 'temporal' })),
    // The core's INFO lines are per-poller chatter; its warnings and errors are what an operator needs.
    telemetryOptions: { logging: { filter: makeTelemetryFilterString({ core: level === 'debug' ? 'INFO' : 'WARN' }), forward: {} } },
    // No SDK signal handlers: the process's own (onShutdown) decide when workers drain.
    shutdownSignals: [],
  });
}
