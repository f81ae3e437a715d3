// The worker's connection to Temporal (the SDK's native one, which polls task
// queues). A failure is one line: the TLS cause when there is one (its own
// messages are Rust debug dumps), else the SDK's message on one line.
import { NativeConnection } from '@temporalio/worker';
import type { TemporalEndpoint } from './connection-options.ts';
import { throwIfTlsFailure } from './tls-diagnosis.ts';

export async function connectWorkerTemporal(endpoint: TemporalEndpoint): Promise<NativeConnection> {
  try {
    return await NativeConnection.connect(endpoint);
  } catch (err) {
    await throwIfTlsFailure(endpoint);
    throw new Error(`cannot connect to Temporal at ${endpoint.address}: ${(err as Error).message.replace(/\s+/g, ' ')}`, { cause: err });
  }
}
