// Registers the custom search attributes on servers that do not have them yet
// (the dev server gets them as flags; a real cluster gets them here or from the
// compose namespace job). Idempotent. Where this process may not use the
// operator service (Temporal Cloud), it checks them through the namespace's
// description instead, and a missing one stops the worker naming the command
// that adds it: workflows that set it would fail every task.
import type { Connection } from '@temporalio/client';
import { SearchAttributeType } from '@temporalio/common';
import protos from '@temporalio/proto';
import type { Logger } from '../log.ts';
import { GrpcStatus, grpcStatus } from './grpc-status.ts';
import { SEARCH_ATTRIBUTES } from './search-attribute-keys.ts';

const { temporal } = protos;

type SearchAttribute = (typeof SEARCH_ATTRIBUTES)[number];

/** The type names the Temporal CLI and tcld take. */
const CLI_TYPE: Record<SearchAttributeType, string> = {
  [SearchAttributeType.KEYWORD]: 'Keyword',
  [SearchAttributeType.INT]: 'Int',
  [SearchAttributeType.TEXT]: 'Text',
  [SearchAttributeType.BOOL]: 'Bool',
  [SearchAttributeType.DATETIME]: 'Datetime',
  [SearchAttributeType.DOUBLE]: 'Double',
  [SearchAttributeType.KEYWORD_LIST]: 'KeywordList',
};

/** The operator service is closed to this process (Temporal Cloud, or an authorizer that keeps it to admins). */
function operatorRefused(err: unknown): boolean {
  const code = grpcStatus(err);
  return code === GrpcStatus.PERMISSION_DENIED || code === GrpcStatus.UNIMPLEMENTED;
}

/** How an operator adds `missing`, on Temporal Cloud and on a self-hosted cluster. */
export function missingSearchAttributesMessage(namespace: string, missing: readonly SearchAttribute[], why: string): string {
  const tcld = `tcld namespace search-attributes add --namespace ${namespace} ${missing.map((a) => `--search-attribute ${a.name}=${CLI_TYPE[a.type]}`).join(' ')}`;
  const cli = missing.map((a) => `temporal operator search-attribute create --namespace ${namespace} --name ${a.name} --type ${CLI_TYPE[a.type]}`).join(' && ');
  const names = missing.map((a) => `${a.name} (${CLI_TYPE[a.type]})`).join(', ');
  return `Temporal namespace ${namespace} lacks the search attributes ${names} and this process may not add them (${why}); add them, then start again. Temporal Cloud: ${tcld}; self-hosted: ${cli}`;
}

/** Custom search attribute names the namespace's description lists (its aliases), open to any client that may use the namespace. */
async function describedSearchAttributes(connection: Connection, namespace: string): Promise<Set<string>> {
  const described = await connection.workflowService.describeNamespace({ namespace });
  return new Set(Object.values(described.config?.customSearchAttributeAliases ?? {}));
}

/** The names added; a missing attribute this process may not add stops it with one line naming the commands. */
export async function ensureSearchAttributes(connection: Connection, namespace: string, log: Logger): Promise<string[]> {
  let missing: SearchAttribute[];
  try {
    const existing = await connection.operatorService.listSearchAttributes({ namespace });
    const known = new Set([...Object.keys(existing.customAttributes ?? {}), ...Object.keys(existing.systemAttributes ?? {})]);
    missing = SEARCH_ATTRIBUTES.filter((a) => !known.has(a.name));
    if (missing.length === 0) return [];
    await connection.operatorService.addSearchAttributes({
      namespace,
      searchAttributes: Object.fromEntries(missing.map((a) => [a.name, temporal.api.enums.v1.IndexedValueType[`INDEXED_VALUE_TYPE_${a.type}`]])),
    });
    return missing.map((a) => a.name);
  } catch (err) {
    if (!operatorRefused(err)) throw err;
    const present = await describedSearchAttributes(connection, namespace);
    missing = SEARCH_ATTRIBUTES.filter((a) => !present.has(a.name));
    const why = `the operator service answered ${(err as Error).message.replace(/\s+/g, ' ')}`;
    if (missing.length > 0) throw new Error(missingSearchAttributesMessage(namespace, missing, why), { cause: err });
    log.info('search attributes present (checked in the namespace description; the operator service is not open to this process)', {
      namespace,
      searchAttributes: SEARCH_ATTRIBUTES.map((a) => a.name),
    });
    return [];
  }
}

/** `--search-attribute Name=Type` flags for `temporal server start-dev`. */
export function devServerSearchAttributeFlags(): string[] {
  return SEARCH_ATTRIBUTES.flatMap((a) => ['--search-attribute', `${a.name}=${CLI_TYPE[a.type]}`]);
}
