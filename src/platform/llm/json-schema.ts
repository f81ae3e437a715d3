// JSON schemas that callers send (the json format's `schema`): compiled once by
// Ajv, checked when the request arrives and used to validate what a model
// answers. Draft 2020-12 (what zod's toJSONSchema writes) when the schema says
// so, draft-07 (zod-to-json-schema, most hand-written schemas) otherwise.
// `pattern` runs on RE2 (re2js): the strings it checks come from a model that
// read a hostile page, and must not be able to stall the worker's event loop.
import { Ajv, type ErrorObject, type Options, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { RE2JS } from 're2js';
import { BoundedMap } from '../bounded-map.ts';

/** The schema cannot be used; `message` says why, fit for a 400. */
export class InvalidJsonSchemaError extends Error {}

const re2 = Object.assign(
  (source: string, flags: string) => {
    const re = RE2JS.compile(source, flags.includes('i') ? RE2JS.CASE_INSENSITIVE : 0);
    return { test: (subject: string) => re.matcher(subject).find() };
  },
  { code: 'RE2JS' },
);

// strict: false accepts the keywords schema generators add (title, examples, x-…); formats are not checked.
const OPTIONS: Options = { strict: false, allErrors: true, validateFormats: false, code: { regExp: re2 } };
const draft07 = new Ajv(OPTIONS);
const draft2020 = new Ajv2020(OPTIONS);

/** Compiled schemas by their JSON: a crawl's every page validates against the same one. */
const compiled = new BoundedMap<string, ValidateFunction>(256);

export type JsonSchema = Record<string, unknown>;

/** A validator for the schema; throws InvalidJsonSchemaError when Ajv cannot compile it. */
export function compileJsonSchema(schema: JsonSchema): ValidateFunction {
  return compiled.getOrSet(JSON.stringify(schema), () => {
    const ajv = typeof schema.$schema === 'string' && schema.$schema.includes('2020-12') ? draft2020 : draft07;
    try {
      return ajv.compile(schema);
    } catch (err) {
      throw new InvalidJsonSchemaError(`not a usable JSON schema: ${(err as Error).message}`);
    }
  });
}

/** The validator's last errors in one line, e.g. `/price must be number; must have required property 'name'`. */
export function describeSchemaErrors(errors: ErrorObject[] | null | undefined): string {
  return (errors ?? []).map((e) => `${e.instancePath || '(root)'} ${e.message ?? 'is invalid'}`).join('; ');
}
