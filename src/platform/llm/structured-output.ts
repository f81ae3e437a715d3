// A chat completion whose answer must be JSON matching a schema. The schema goes
// to the endpoint as a JSON-schema response format; a server that refuses that
// (HTTP 400/422: older vLLM, llama.cpp without grammar support…) is asked again
// with a plain JSON-object response format, and is remembered as such, so
// later calls go straight to it. Either way the answer is validated here (the
// server's own guarantee varies) and, when it does not parse or does not match,
// the model is asked once more with the errors; a second bad answer is an LlmError.
import { addUsage, complete, LlmError, NO_TOKENS, type ChatMessage, type LlmSettings, type TokenUsage } from './chat-completion.ts';
import { nestedDeeperThan } from '../json-depth.ts';
import { compileJsonSchema, describeSchemaErrors, type JsonSchema } from './json-schema.ts';

/** Deepest answer accepted: the validator and the document's serializers recurse. */
const MAX_ANSWER_DEPTH = 64;

/** Endpoints (base URL and model) that refused a json_schema response format. */
const jsonObjectOnly = new Set<string>();

export interface StructuredRequest {
  /** Names the schema in the response format (letters, digits, _ and -). */
  name: string;
  schema: JsonSchema;
  messages: ChatMessage[];
  /** A model other than `llm.model` (the small one). */
  model?: string;
  fetchImpl?: typeof fetch;
}

export interface StructuredAnswer {
  value: unknown;
  usage: TokenUsage;
}

function endpointKey(llm: LlmSettings, model: string): string {
  return `${llm.baseUrl} ${model}`;
}

/** The schema as sent to the endpoint: `$schema` dropped, which some servers refuse. */
function sentSchema(schema: JsonSchema): JsonSchema {
  const { $schema: _dropped, ...rest } = schema;
  return rest;
}

/** Why the answer is not usable, or undefined when it is. */
function problemWith(content: string, validate: ReturnType<typeof compileJsonSchema>): { value?: unknown; problem?: string } {
  let value: unknown;
  try {
    value = JSON.parse(content);
  } catch {
    return { problem: 'the answer is not valid JSON' };
  }
  // Before the validator, which recurses: a page can talk a model into any shape.
  if (nestedDeeperThan(value, MAX_ANSWER_DEPTH)) return { problem: `the answer is nested more than ${MAX_ANSWER_DEPTH} levels deep` };
  if (!validate(value)) return { problem: `the answer does not match the schema: ${describeSchemaErrors(validate.errors)}` };
  return { value };
}

/** One completion in the best response format the endpoint takes. */
async function completeAsJson(llm: LlmSettings, req: StructuredRequest, messages: ChatMessage[]) {
  const model = req.model ?? llm.model;
  const key = endpointKey(llm, model);
  const jsonObject = { type: 'json_object' };
  if (!jsonObjectOnly.has(key)) {
    const jsonSchema = { type: 'json_schema', json_schema: { name: req.name, schema: sentSchema(req.schema), strict: false } };
    try {
      return await complete(llm, messages, { responseFormat: jsonSchema, model, fetchImpl: req.fetchImpl });
    } catch (err) {
      if (!(err instanceof LlmError) || (err.status !== 400 && err.status !== 422)) throw err;
    }
    const answer = await complete(llm, messages, { responseFormat: jsonObject, model, fetchImpl: req.fetchImpl });
    jsonObjectOnly.add(key);
    return answer;
  }
  return complete(llm, messages, { responseFormat: jsonObject, model, fetchImpl: req.fetchImpl });
}

/**
 * The model's answer as a value valid under `req.schema`, with the tokens of every call made for it.
 * Throws LlmError (carrying the tokens spent) when the endpoint fails or answers badly twice.
 */
export async function structuredCompletion(llm: LlmSettings, req: StructuredRequest): Promise<StructuredAnswer> {
  const validate = compileJsonSchema(req.schema);
  let usage = NO_TOKENS;
  let messages = req.messages;
  for (let attempt = 1; ; attempt++) {
    let content: string;
    try {
      const answer = await completeAsJson(llm, req, messages);
      usage = addUsage(usage, answer.usage);
      content = answer.content;
    } catch (err) {
      if (err instanceof LlmError) throw new LlmError(err.message, err.status, addUsage(usage, err.usage));
      throw err;
    }
    const { value, problem } = problemWith(content, validate);
    if (problem === undefined) return { value, usage };
    if (attempt === 2) throw new LlmError(`${problem} (after one retry)`, undefined, usage);
    messages = [
      ...req.messages,
      { role: 'assistant', content },
      { role: 'user', content: `That reply cannot be used: ${problem}. Reply again with only the JSON value, matching the schema.` },
    ];
  }
}

/** Forgets which endpoints refused json_schema (tests). */
export function forgetResponseFormats(): void {
  jsonObjectOnly.clear();
}
