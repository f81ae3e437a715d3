// Body of POST /v2/agent: the fields the official SDKs send for an agent run
// (startAgent). Strict like every body: the thread, mode, exchange, webhook and
// audit fields of upstream's agent are not served here and are refused by name.
import { z } from 'zod';
import { httpUrl, integration, origin } from '../../platform/http/common-schemas.ts';
import { nestedAtMost } from '../../platform/json-depth.ts';
import { compileJsonSchema, InvalidJsonSchemaError } from '../../platform/llm/json-schema.ts';
import { MAX_PROMPT_LENGTH } from '../../jobs/crawl-request.ts';

export const MAX_AGENT_URLS = 100;
/** Deeper schemas would overflow the recursive validators (zod's, Ajv's). */
const MAX_SCHEMA_DEPTH = 64;

const answerSchema = nestedAtMost('schema', MAX_SCHEMA_DEPTH).pipe(
  z.record(z.string(), z.json(), { error: 'schema must be a JSON schema object' }).superRefine((schema, ctx) => {
    try {
      compileJsonSchema(schema);
    } catch (err) {
      if (!(err instanceof InvalidJsonSchemaError)) throw err;
      ctx.addIssue({ code: 'custom', message: `schema is ${err.message}`, input: schema });
    }
  }),
);

export const agentRequestSchema = z.strictObject({
  prompt: z
    .string({ error: (iss) => (iss.input === undefined ? 'prompt is required' : 'prompt must be a string') })
    .trim()
    .min(1, 'prompt must not be empty')
    .max(MAX_PROMPT_LENGTH, `prompt must be at most ${MAX_PROMPT_LENGTH} characters`)
    .describe('What the agent should find out or do.'),
  urls: z.array(httpUrl).max(MAX_AGENT_URLS, `urls must hold at most ${MAX_AGENT_URLS} URLs`).optional().describe('Where to start looking.'),
  schema: answerSchema.optional().describe('A JSON schema the answer (data) must match.'),
  maxCredits: z
    .int({ error: 'maxCredits must be a positive integer' })
    .min(1, 'maxCredits must be a positive integer')
    .optional()
    .describe('Most credits the tools may spend (AGENT_DEFAULT_MAX_CREDITS when absent).'),
  strictConstrainToURLs: z.boolean().default(false).describe('Read only pages under `urls` (scrape and map refuse other URLs).'),
  model: z.string().max(100).optional().describe("Accepted for the SDKs; the server's one model (LLM_MODEL) answers."),
  effort: z.enum(['low', 'medium', 'high']).optional().describe('Accepted for the SDKs; no effect.'),
  zeroDataRetention: z.boolean().default(false).describe('Scraped pages are kept under zero data retention; needs a model marked local.'),
  origin,
  integration,
});

export type AgentRequest = z.output<typeof agentRequestSchema>;
