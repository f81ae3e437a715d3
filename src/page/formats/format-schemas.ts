// Schema pieces that several formats (and the page actions) share: bounded
// prompts, a caller's JSON schema, a viewport, the Python SDK's nulls.
import { z } from 'zod';
import { nestedAtMost } from '../../platform/json-depth.ts';
import { compileJsonSchema, InvalidJsonSchemaError } from '../../platform/llm/json-schema.ts';

/** Longest json prompt, question, highlights query or query prompt (as upstream). */
export const MAX_MODEL_PROMPT_CHARS = 10_000;

/** Deeper schemas would overflow the stack of the recursive validators (zod's, Ajv's); real ones nest far less. */
export const MAX_JSON_SCHEMA_DEPTH = 64;

export const viewportSchema = z.strictObject({
  width: z.int().min(1).max(7680),
  height: z.int().min(1).max(4320),
});

export const qualitySchema = z.int().min(1).max(100);

/** A caller's JSON schema at `path` of a body: bounded in depth and compiled by Ajv, whose complaint is the 400. */
export function jsonSchemaField(path: string) {
  return nestedAtMost(path, MAX_JSON_SCHEMA_DEPTH).pipe(
    z.record(z.string(), z.json(), { error: `${path} must be a JSON schema object` }).superRefine((schema, ctx) => {
      try {
        compileJsonSchema(schema);
      } catch (err) {
        if (!(err instanceof InvalidJsonSchemaError)) throw err;
        ctx.addIssue({ code: 'custom', message: `${path} is ${err.message}`, input: schema });
      }
    }),
  );
}

/** An optional field the Python SDK sends as null when unset (it dumps a JsonFormat model with its Nones): null is absent. */
export function unsetAsNull<T extends z.ZodType>(schema: T) {
  return schema
    .nullish()
    .transform((v) => v ?? undefined)
    .optional();
}

/** The caller's words a model format asks the model about: required, trimmed, bounded. */
export const modelTextSchema = (field: string) =>
  z
    .string({ error: `${field} is required` })
    .trim()
    .min(1, `${field} must not be empty`)
    .max(MAX_MODEL_PROMPT_CHARS, `${field} must be at most ${MAX_MODEL_PROMPT_CHARS} characters`);
