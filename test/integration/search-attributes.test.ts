// Search attributes where this process may not use Temporal's operator service
// (Temporal Cloud): checked in the namespace's description; missing ones stop
// the process with one line naming them and the commands that add them, and the
// self-hosted command it prints does add them. Where the operator service is
// open, they are registered.
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { Connection } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { inject } from 'vitest';
import type { Logger } from '../../src/platform/log.ts';
import { SEARCH_ATTRIBUTES } from '../../src/platform/temporal/search-attribute-keys.ts';
import { ensureSearchAttributes } from '../../src/platform/temporal/search-attributes.ts';
import { waitFor } from '../support/wait-for.ts';

let connection: Connection;
const infos: string[] = [];
const log = { debug() {}, info: (msg: string) => infos.push(msg), warn() {}, error() {}, child: () => log } as Logger;

beforeAll(async () => {
  connection = await Connection.connect({ address: inject('temporalAddress') });
});
afterAll(async () => connection?.close());

/** The real connection, but every operator-service call answers as Temporal Cloud does to a namespace's API key. */
function operatorDenied(): Connection {
  const denied = () => Promise.reject(Object.assign(new Error('7 PERMISSION_DENIED: Request unauthorized.'), { code: 7 }));
  return { workflowService: connection.workflowService, operatorService: new Proxy({}, { get: () => denied }) } as unknown as Connection;
}

async function freshNamespace(): Promise<string> {
  const namespace = `sa-${randomUUID()}`;
  await connection.workflowService.registerNamespace({ namespace, workflowExecutionRetentionPeriod: msToTs('1 day') });
  await waitFor(
    `namespace ${namespace}`,
    () =>
      connection.workflowService.describeNamespace({ namespace }).then(
        () => true,
        () => undefined,
      ),
    30_000,
  );
  return namespace;
}

it('names the missing attributes and the commands to add them, and goes on once they are there', async () => {
  const namespace = await freshNamespace();
  const refusal = await ensureSearchAttributes(operatorDenied(), namespace, log).then(
    () => undefined,
    (err: Error) => err.message,
  );
  expect(refusal).toBeDefined();
  expect(refusal).not.toContain('\n');
  expect(refusal).toContain(`Temporal namespace ${namespace} lacks the search attributes TeamId (Keyword), CrawlId (Keyword)`);
  for (const a of SEARCH_ATTRIBUTES) expect(refusal).toContain(`--search-attribute ${a.name}=`);
  expect(refusal).toContain(`Temporal Cloud: tcld namespace search-attributes add --namespace ${namespace} --search-attribute TeamId=Keyword`);
  expect(refusal).toContain('(the operator service answered 7 PERMISSION_DENIED: Request unauthorized.)');

  // An operator runs the printed self-hosted command, as printed, against this server.
  const commands = refusal!.split('self-hosted: ')[1].split(' && ');
  expect(commands).toHaveLength(SEARCH_ATTRIBUTES.length);
  for (const command of commands) {
    const [program, ...args] = command.split(' ');
    expect(program).toBe('temporal');
    execFileSync(process.env.TEMPORAL_CLI_PATH!, [...args, '--address', inject('temporalAddress')], { stdio: 'ignore' });
  }

  await waitFor('the attributes in the namespace description', async () => {
    const d = await connection.workflowService.describeNamespace({ namespace });
    const names = new Set(Object.values(d.config?.customSearchAttributeAliases ?? {}));
    return SEARCH_ATTRIBUTES.every((a) => names.has(a.name)) || undefined;
  });
  expect(await ensureSearchAttributes(operatorDenied(), namespace, log)).toEqual([]);
  expect(infos).toContain('search attributes present (checked in the namespace description; the operator service is not open to this process)');
});

it('registers them where the operator service is open', async () => {
  const namespace = await freshNamespace();
  expect(await ensureSearchAttributes(connection, namespace, log)).toEqual(SEARCH_ATTRIBUTES.map((a) => a.name));
  expect(await ensureSearchAttributes(connection, namespace, log)).toEqual([]);
});
