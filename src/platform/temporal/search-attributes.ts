// Registers the custom search attributes on servers that do not have them yet
// (the dev server gets them as flags; a real cluster gets them here or from the
// compose namespace job). Idempotent.
import type { Connection } from '@temporalio/client';
import { SearchAttributeType } from '@temporalio/common';
import protos from '@temporalio/proto';

const { temporal } = protos;
import { SEARCH_ATTRIBUTES } from './search-attribute-keys.ts';

export async function ensureSearchAttributes(connection: Connection, namespace: string): Promise<string[]> {
  const existing = await connection.operatorService.listSearchAttributes({ namespace });
  const known = new Set([...Object.keys(existing.customAttributes ?? {}), ...Object.keys(existing.systemAttributes ?? {})]);
  const missing = SEARCH_ATTRIBUTES.filter((a) => !known.has(a.name));
  if (missing.length === 0) return [];
  await connection.operatorService.addSearchAttributes({
    namespace,
    searchAttributes: Object.fromEntries(missing.map((a) => [a.name, temporal.api.enums.v1.IndexedValueType[`INDEXED_VALUE_TYPE_${a.type}`]])),
  });
  return missing.map((a) => a.name);
}

/** `--search-attribute Name=Type` flags for `temporal server start-dev`. */
export function devServerSearchAttributeFlags(): string[] {
  const cli: Record<string, string> = {
    [SearchAttributeType.KEYWORD]: 'Keyword',
    [SearchAttributeType.INT]: 'Int',
    [SearchAttributeType.TEXT]: 'Text',
    [SearchAttributeType.BOOL]: 'Bool',
    [SearchAttributeType.DATETIME]: 'Datetime',
    [SearchAttributeType.DOUBLE]: 'Double',
    [SearchAttributeType.KEYWORD_LIST]: 'KeywordList',
  };
  return SEARCH_ATTRIBUTES.flatMap((a) => ['--search-attribute', `${a.name}=${cli[a.type]}`]);
}
