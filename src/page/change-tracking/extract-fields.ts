// The json mode's fields of a page: the one place change tracking asks a model
// for them, through the json format's extraction (schema-checked structured
// output, one retry with the errors), so both bill and behave alike.
import { LlmError, type LlmSettings, type TokenUsage } from '../../platform/llm/chat-completion.ts';
import { extractJson } from '../model-formats/json-format.ts';
import type { ChangeTrackingFormat } from '../formats/change-tracking/change-tracking-format.ts';

/** What the model is asked for when the format names neither a prompt nor a schema. */
const DEFAULT_REQUEST = 'Extract the main facts the page states (names, prices, dates, figures) as flat fields.';

/** The fields of the page as an object, and the tokens spent; throws LlmError when the model fails or answers with something else. */
export async function extractFields(
  markdown: string,
  format: Pick<ChangeTrackingFormat, 'schema' | 'prompt'>,
  llm: LlmSettings,
  fetchImpl?: typeof fetch,
): Promise<{ fields: Record<string, unknown>; usage: TokenUsage }> {
  const prompt = format.prompt ?? (format.schema === undefined ? DEFAULT_REQUEST : undefined);
  const { value, usage } = await extractJson(markdown, { prompt, schema: format.schema }, llm, fetchImpl);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new LlmError('the model did not answer with a JSON object', undefined, usage);
  return { fields: value as Record<string, unknown>, usage };
}
