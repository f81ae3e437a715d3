// The schema a chunk's answer is held to when an extract reads its pages in
// several chunks: the caller's schema without what makes an answer complete
// (required fields, minimum counts). One chunk rarely holds every field; held to
// the full schema, its model call must invent the missing ones or fail validation
// twice and fail the extract. The merge call that follows is held to the full
// schema, so what the caller gets is still complete.
import type { JsonSchema } from '../../platform/llm/json-schema.ts';

const COMPLETENESS = new Set(['required', 'minItems', 'minProperties', 'minContains', 'dependentRequired']);
/** Keywords whose value is a schema. */
const SCHEMA_VALUED = ['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames', 'unevaluatedItems', 'unevaluatedProperties'];
/** Keywords whose value is a list of schemas. */
const SCHEMA_LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];
/** Keywords whose value maps names to schemas. */
const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];

export function partialSchema(schema: JsonSchema): JsonSchema {
  return relax(schema) as JsonSchema;
}

function relax(node: unknown): unknown {
  if (typeof node !== 'object' || node === null) return node;
  // Draft-07's tuple form: `items` as a list of schemas.
  if (Array.isArray(node)) return node.map(relax);
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (COMPLETENESS.has(key)) continue;
    if (SCHEMA_VALUED.includes(key) || SCHEMA_LISTS.includes(key)) out[key] = relax(value);
    else if (SCHEMA_MAPS.includes(key) && typeof value === 'object' && value !== null)
      out[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, relax(sub)]));
    else out[key] = value;
  }
  return out;
}
