// The json format: the model extracts what the caller's prompt and/or schema
// ask for from the page, as a JSON value that the schema validates (any JSON
// object without a schema).
import type { LlmSettings } from '../../platform/llm/chat-completion.ts';
import type { JsonSchema } from '../../platform/llm/json-schema.ts';
import { structuredCompletion, type StructuredAnswer } from '../../platform/llm/structured-output.ts';
import { pageMessages } from './page-as-data.ts';

const ANY_OBJECT: JsonSchema = { type: 'object' };

/** What the caller asks for: a prompt, a schema or both (the json format's options). */
export interface JsonRequest {
  prompt?: string;
  schema?: JsonSchema;
}

function task(format: JsonRequest, schema: JsonSchema): string {
  return [
    'You extract structured data from a web page. Reply with one JSON value and nothing else.',
    format.prompt !== undefined ? `What to extract: ${format.prompt}` : 'Extract what the schema describes.',
    `The reply must be valid under this JSON schema: ${JSON.stringify(schema)}`,
    'Use only what the page says; where it does not say something the schema allows to be missing, leave it out, and use null only where the schema allows it.',
  ].join('\n');
}

export function extractJson(pageText: string, format: JsonRequest, llm: LlmSettings, fetchImpl?: typeof fetch): Promise<StructuredAnswer> {
  const schema = format.schema ?? ANY_OBJECT;
  return structuredCompletion(llm, { name: 'extraction', schema, messages: pageMessages(task(format, schema), pageText, llm.maxInputChars), fetchImpl });
}
