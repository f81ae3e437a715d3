import { Client, Connection, defaultGrpcRetryOptions, makeGrpcRetryInterceptor, type ConnectionOptions } from '@temporalio/client';
import type { TemporalSettings } from './config.ts';
import type { Logger } from '../log.ts';
import type { TemporalEndpoint } from './connection-options.ts';
import { GrpcStatus, grpcStatus } from './grpc-status.ts';
import { requestIdClientInterceptor } from './request-id-client-interceptor.ts';
import { throwIfTlsFailure } from './tls-diagnosis.ts';

/**
 * Connects, retrying while the server is still starting (or restarting). A TLS failure (certificates,
 * server name) or refused credentials stop at once: waiting would not change them.
 */
export async function connectTemporal(endpoint: TemporalEndpoint, log: Logger, timeoutMs = 60_000): Promise<Connection> {
  const deadline = Date.now() + timeoutMs;
  for (let attempt = 1; ; attempt++) {
    try {
      return await closableConnection({ ...endpoint, connectTimeout: '3s' });
    } catch (err) {
      const code = grpcStatus(err);
      if (code === GrpcStatus.UNAUTHENTICATED || code === GrpcStatus.PERMISSION_DENIED) {
        const refusal = (err as Error).cause instanceof Error ? ((err as Error).cause as Error) : (err as Error);
        throw new Error(`Temporal at ${endpoint.address} refused this process's credentials (TEMPORAL_API_KEY or client certificate): ${refusal.message}`, {
          cause: err,
        });
      }
      await throwIfTlsFailure(endpoint);
      if (Date.now() > deadline) throw new Error(`cannot reach Temporal at ${endpoint.address}: ${(err as Error).message}`, { cause: err });
      if (attempt === 1) log.info('waiting for Temporal', { address: endpoint.address });
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}

/**
 * A connection with the SDK's gRPC retries, except once it is being closed. Closing ends the calls
 * in flight as UNAVAILABLE; a retry the SDK scheduled for one would then start a call on the closed
 * channel from a timer, where "Channel has been shut down" is an uncaught exception.
 */
async function closableConnection(options: ConnectionOptions): Promise<Connection> {
  let closing = false;
  const retry = defaultGrpcRetryOptions();
  const connection = await Connection.connect({
    ...options,
    interceptors: [makeGrpcRetryInterceptor({ ...retry, retryableDecider: (attempt, status) => !closing && retry.retryableDecider(attempt, status) })],
  });
  const close = connection.close.bind(connection);
  connection.close = () => {
    closing = true;
    return close();
  };
  return connection;
}

/** A client whose workflow starts carry the request id bound to the caller's log lines (request-id-client-interceptor.ts). */
export function temporalClient(connection: Connection, namespace: string, log: Logger): Client {
  return new Client({ connection, namespace, interceptors: { workflow: [requestIdClientInterceptor(log)] } });
}

export async function createTemporalClient(
  config: { temporal: Pick<TemporalSettings, 'namespace'> },
  endpoint: TemporalEndpoint,
  log: Logger,
): Promise<Client> {
  return temporalClient(await connectTemporal(endpoint, log), config.temporal.namespace, log);
}
