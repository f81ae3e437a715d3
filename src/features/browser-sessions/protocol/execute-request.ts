// An execute's request, one schema for both of its forms: the public body of POST
// /v2/browser/{id}/execute, and the call past the API (the body the gateway sends the host's
// relay), which is that body's code and language with the timeout in milliseconds.
import { z } from 'zod';
import { origin } from '../../../platform/http/common-schemas.ts';
import {
  DEFAULT_EXECUTE_TIMEOUT_SECONDS,
  EXECUTE_LANGUAGES,
  MAX_EXECUTE_CODE_LENGTH,
  MAX_EXECUTE_TIMEOUT_MS,
  MAX_EXECUTE_TIMEOUT_SECONDS,
} from './execute-limits.ts';

/** Body of POST /v2/browser/{id}/execute. */
export const executeRequestSchema = z.strictObject({
  code: z
    .string({ error: 'code must be a string' })
    .min(1, 'code must not be empty')
    .max(MAX_EXECUTE_CODE_LENGTH, `code must be at most ${MAX_EXECUTE_CODE_LENGTH} characters`)
    .describe('The code to run against the session’s browser.'),
  language: z
    .enum(EXECUTE_LANGUAGES, { error: 'language must be one of node, python, bash' })
    .default('node')
    .describe(
      'node: JavaScript with Playwright `page`, `context`, `browser`; python: async Playwright with `page`; bash: a shell with agent-browser attached to the session.',
    ),
  timeout: z
    .int({ error: 'timeout must be an integer number of seconds' })
    .min(1, 'timeout must be at least 1 second')
    .max(MAX_EXECUTE_TIMEOUT_SECONDS, `timeout must be at most ${MAX_EXECUTE_TIMEOUT_SECONDS} seconds`)
    .default(DEFAULT_EXECUTE_TIMEOUT_SECONDS)
    .describe('Seconds; the run is killed when it elapses (killed: true).'),
  origin,
});

export type ExecuteRequest = z.infer<typeof executeRequestSchema>;

/** An execute past the public API: what the gateway sends the host's relay (and hands executeInSession). */
export const executeCallSchema = executeRequestSchema.pick({ code: true }).extend({
  // Named by every caller: no default past the API.
  language: executeRequestSchema.shape.language.unwrap(),
  timeoutMs: z.int().min(1).max(MAX_EXECUTE_TIMEOUT_MS),
});
export type ExecuteCall = z.output<typeof executeCallSchema>;
