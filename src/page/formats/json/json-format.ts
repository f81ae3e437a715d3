// The json format: what the caller's prompt and/or schema ask for, extracted
// from the page's text by the model (model-formats/json-format.ts).
import { z } from 'zod';
import { MODEL_FORMAT_CREDITS } from '../../../platform/usage/credits.ts';
import { extractJson } from '../../model-formats/json-format.ts';
import { defineFormat } from '../format-module.ts';
import { jsonSchemaField, MAX_MODEL_PROMPT_CHARS, unsetAsNull } from '../format-schemas.ts';

export const JSON_FORMAT_NEEDS_MESSAGE = 'The json format needs a prompt, a schema or both';

const schema = z
  .strictObject({
    type: z.literal('json'),
    prompt: unsetAsNull(z.string().trim().min(1, 'json.prompt must not be empty').max(MAX_MODEL_PROMPT_CHARS)),
    schema: unsetAsNull(jsonSchemaField('json.schema')),
    /** Accepted for the SDKs; every model call already treats the page as untrusted data. */
    checkPromptInjection: unsetAsNull(z.boolean()),
  })
  .superRefine((format, ctx) => {
    if (format.prompt === undefined && format.schema === undefined) ctx.addIssue({ code: 'custom', message: JSON_FORMAT_NEEDS_MESSAGE, input: format });
  });
export type JsonFormat = z.output<typeof schema>;

export const jsonFormat = defineFormat({
  type: 'json',
  schema,
  // It fills one field of the document.
  once: 'Only one json format is allowed',
  needs: 'text',
  model: {
    produce: (text, format, llm, fetchImpl) => extractJson(text, format, llm, fetchImpl).then(({ value, usage }) => ({ fields: { json: value }, usage })),
  },
  answerCredits: MODEL_FORMAT_CREDITS,
});
