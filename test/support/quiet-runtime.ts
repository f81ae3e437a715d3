// The Temporal SDK logs every worker state change at INFO; tests want warnings only.
import { DefaultLogger, Runtime } from '@temporalio/worker';

try {
  Runtime.install({ logger: new DefaultLogger('WARN') });
} catch {
  // Already installed by an earlier file in this process.
}
