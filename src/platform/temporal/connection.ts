import { Client, Connection } from '@temporalio/client';
import type { Config } from '../config.ts';
import type { Logger } from '../log.ts';
import { requestIdClientInterceptor } from './request-id-client-interceptor.ts';

/** Connects, retrying while the server is still starting (or restarting). */
export async function connectTemporal(address: string, log: Logger, timeoutMs = 60_000): Promise<Connection> {
  const deadline = Date.now() + timeoutMs;
  for (let attempt = 1; ; attempt++) {
    try {
      return await Connection.connect({ address, connectTimeout: '3s' });
    } catch (err) {
      if (Date.now() > deadline) throw new Error(`cannot reach Temporal at ${address}: ${(err as Error).message}`, { cause: err });
      if (attempt === 1) log.info('waiting for Temporal', { address });
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}

/** A client whose workflow starts carry the request id bound to the caller's log lines (request-id-client-interceptor.ts). */
export function temporalClient(connection: Connection, namespace: string, log: Logger): Client {
  return new Client({ connection, namespace, interceptors: { workflow: [requestIdClientInterceptor(log)] } });
}

export async function createTemporalClient(config: Config, address: string, log: Logger): Promise<Client> {
  return temporalClient(await connectTemporal(address, log), config.temporal.namespace, log);
}
