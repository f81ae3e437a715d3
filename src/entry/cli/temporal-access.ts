// How the admin CLI reaches Temporal: TEMPORAL_ADDRESS, or the dev server `npm start`
// runs on TEMPORAL_DEV_PORT. The CLI never starts Temporal itself (a dev server
// started for one command would hold no workflows); a command that needs it and
// cannot reach it fails saying so.
import { Client, WorkflowNotFoundError } from '@temporalio/client';
import type { QueryDefinition } from '@temporalio/common';
import type { Config } from '../../config.ts';
import type { Logger } from '../../platform/log.ts';
import { connectTemporal } from '../../platform/temporal/connection.ts';
import { temporalEndpoint } from '../../platform/temporal/connection-options.ts';
import { TemporalTlsError } from '../../platform/temporal/tls-diagnosis.ts';
import type { CliContext } from './command.ts';

/** Long enough for a server that answers, short enough that an operator is not left waiting on one that is down. */
const CONNECT_TIMEOUT_MS = 5_000;
/** A query waits for a worker to answer it: with none running it would wait for one. */
const QUERY_TIMEOUT_MS = 5_000;

export class TemporalUnreachable extends Error {}

export function temporalAddress(config: Config): string {
  return config.temporal.address ?? `127.0.0.1:${config.temporal.devPort}`;
}

/** A client connected on first use, and a close for the end of the command. */
export function lazyTemporal(config: Config, log: Logger): { temporal: () => Promise<Client>; close: () => Promise<void> } {
  let client: Promise<Client> | undefined;
  const address = temporalAddress(config);
  return {
    temporal() {
      client ??= connectTemporal(temporalEndpoint(address, config.temporal), log, CONNECT_TIMEOUT_MS).then(
        (connection) => new Client({ connection, namespace: config.temporal.namespace }),
        (err: unknown) => {
          // Starting the service would not mend a certificate.
          if (err instanceof TemporalTlsError) throw new TemporalUnreachable(err.message);
          throw new TemporalUnreachable(
            `Temporal is not reachable at ${address} (${(err as Error).message}); start the service (npm start) or set TEMPORAL_ADDRESS`,
          );
        },
      );
      return client;
    },
    async close() {
      const connected = await client?.catch(() => undefined);
      await connected?.connection.close();
    },
  };
}

export interface WorkflowState {
  /** RUNNING, COMPLETED, CANCELLED, ...; null when Temporal could not say. */
  status: string | null;
  runId?: string;
  startedAt?: string;
  closedAt?: string | null;
  /** Why there is no status. */
  note?: string;
}

/** The workflow's status as Temporal describes it, or a plain note of why it cannot be had. */
export async function describeWorkflow(ctx: CliContext, workflowId: string): Promise<WorkflowState> {
  let temporal: Client;
  try {
    temporal = await ctx.temporal();
  } catch (err) {
    if (err instanceof TemporalUnreachable) return { status: null, note: err.message };
    throw err;
  }
  try {
    const d = await temporal.workflow.getHandle(workflowId).describe();
    return { status: d.status.name, runId: d.runId, startedAt: d.startTime.toISOString(), closedAt: d.closeTime?.toISOString() ?? null };
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return { status: null, note: 'Temporal has no such workflow (not started yet, or past its history retention)' };
    throw err;
  }
}

/** A running workflow's answer to a query, or a plain note of why there is none (no worker answered in time). */
export async function queryWorkflow<T>(ctx: CliContext, workflowId: string, query: QueryDefinition<T>): Promise<{ answer: T } | { note: string }> {
  try {
    const temporal = await ctx.temporal();
    return { answer: await temporal.connection.withDeadline(Date.now() + QUERY_TIMEOUT_MS, () => temporal.workflow.getHandle(workflowId).query(query)) };
  } catch (err) {
    return { note: `no answer to the ${query.name} query (${(err as Error).message})` };
  }
}
