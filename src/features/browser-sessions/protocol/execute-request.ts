import { z } from 'zod';
import { origin } from '../../../platform/http/common-schemas.ts';
import { EXECUTE_LANGUAGES } from '../sandbox/sandbox.ts';

/** Body of POST /v2/browser/{id}/execute. */

export const MAX_EXECUTE_CODE_LENGTH = 100_000;
export const MAX_EXECUTE_TIMEOUT_SECONDS = 300;
/** Upstream's default when the body names no timeout. */
export const DEFAULT_EXECUTE_TIMEOUT_SECONDS = 30;

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
