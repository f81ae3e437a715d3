// Body of POST /v2/scrape/{id}/interact: code to run against the scrape's page,
// or a prompt a model turns into such code. Not strict, as the SDKs send `origin`.
import { z } from 'zod';
import { origin } from '../../../../platform/http/common-schemas.ts';
import { DEFAULT_EXECUTE_TIMEOUT_SECONDS, EXECUTE_LANGUAGES, MAX_EXECUTE_CODE_LENGTH, MAX_EXECUTE_TIMEOUT_SECONDS } from '../../protocol/execute-limits.ts';

export const MAX_INTERACT_PROMPT_LENGTH = 10_000;

export const ONE_OF_CODE_OR_PROMPT = "Either 'code' or 'prompt' must be provided, not both";

export const interactRequestSchema = z
  .object({
    code: z
      .string({ error: 'code must be a string' })
      .max(MAX_EXECUTE_CODE_LENGTH, `code must be at most ${MAX_EXECUTE_CODE_LENGTH} characters`)
      .optional()
      .describe('Code to run against the page the scrape saw (as in POST /v2/browser/{id}/execute).'),
    prompt: z
      .string({ error: 'prompt must be a string' })
      .max(MAX_INTERACT_PROMPT_LENGTH, `prompt must be at most ${MAX_INTERACT_PROMPT_LENGTH} characters`)
      .optional()
      .describe('What to do on the page, in words: the configured model writes node code for it, which runs like `code` (needs LLM_BASE_URL).'),
    language: z
      .enum(EXECUTE_LANGUAGES, { error: 'language must be one of node, python, bash' })
      .default('node')
      .describe('The language of `code`; a prompt always runs as node.'),
    timeout: z
      .int({ error: 'timeout must be an integer number of seconds' })
      .min(1, 'timeout must be at least 1 second')
      .max(MAX_EXECUTE_TIMEOUT_SECONDS, `timeout must be at most ${MAX_EXECUTE_TIMEOUT_SECONDS} seconds`)
      .default(DEFAULT_EXECUTE_TIMEOUT_SECONDS)
      .describe('Seconds the code may run; it is killed when they elapse (killed: true).'),
    origin,
  })
  .superRefine((body, ctx) => {
    const code = body.code?.trim() ? 1 : 0;
    const prompt = body.prompt?.trim() ? 1 : 0;
    if (code + prompt !== 1) ctx.addIssue({ code: 'custom', message: ONE_OF_CODE_OR_PROMPT, path: code ? ['prompt'] : ['code'] });
  });

export type InteractRequest = z.output<typeof interactRequestSchema>;
