// Body of POST /v2/agent: every field the official SDKs send for an agent run
// (startAgent; Python's start_agent also sends location and zeroDataRetention).
// Strict like every body. What this service cannot honour is refused by name:
// the exchange (a cloud service of upstream's) and a schema for a chat-mode run
// (which answers text).
import { z } from 'zod';
import { httpUrl, integration, origin } from '../../platform/http/common-schemas.ts';
import { nestedAtMost } from '../../platform/json-depth.ts';
import { compileJsonSchema, InvalidJsonSchemaError } from '../../platform/llm/json-schema.ts';
import { MAX_PROMPT_LENGTH } from '../../jobs/crawl-request.ts';
import { webhookSchemaWith } from '../../jobs/webhooks/webhook-schema.ts';
import { auditMetadataSchema, locationSchema, threatProtectionSchema } from '../../page/scrape-options.ts';

export const MAX_AGENT_URLS = 100;
/** Deeper schemas would overflow the recursive validators (zod's, Ajv's). */
const MAX_SCHEMA_DEPTH = 64;

export const AGENT_MODELS = ['spark-1-pro', 'spark-1-mini', 'spark-2'] as const;
export type AgentModelName = (typeof AGENT_MODELS)[number];
export const AGENT_EFFORTS = ['low', 'medium', 'high'] as const;
export type AgentEffort = (typeof AGENT_EFFORTS)[number];
export const AGENT_MODES = ['extract', 'chat'] as const;
export type AgentMode = (typeof AGENT_MODES)[number];
export const AGENT_WEBHOOK_EVENTS = ['started', 'action', 'completed', 'failed', 'cancelled'] as const;

export const EXCHANGE_NOT_OFFERED =
  'the exchange (paid data providers, Alexandria) is not offered by this service: leave exchange out or set exchange.enabled to false';

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

const exchangeSchema = z
  .strictObject({
    enabled: z.boolean().optional(),
    toolkits: z.array(z.string().max(200)).max(5, 'exchange.toolkits takes at most 5').optional(),
    maxCalls: z.int().min(0).optional(),
    requireApproval: z.boolean().optional(),
    approve: z
      .strictObject({ approvalId: z.string().max(200), callIds: z.array(z.string().max(200)).max(100).optional(), always: z.boolean().optional() })
      .optional(),
    decline: z.strictObject({ approvalId: z.string().max(200) }).optional(),
    onTermsRequired: z.enum(['skip', 'ask']).optional(),
  })
  .superRefine((ex, ctx) => {
    // Settings that only tune the exchange are harmless without it; asking for its providers is not.
    const asks: [string, boolean][] = [
      ['enabled', ex.enabled === true],
      ['toolkits', (ex.toolkits?.length ?? 0) > 0],
      ['approve', ex.approve !== undefined],
      ['decline', ex.decline !== undefined],
    ];
    for (const [field, asked] of asks)
      if (asked) ctx.addIssue({ code: 'custom', path: [field], input: ex[field as keyof typeof ex], message: EXCHANGE_NOT_OFFERED });
  });

export const agentRequestSchema = z
  .strictObject({
    prompt: z
      .string({ error: (iss) => (iss.input === undefined ? 'prompt is required' : 'prompt must be a string') })
      .trim()
      .min(1, 'prompt must not be empty')
      .max(MAX_PROMPT_LENGTH, `prompt must be at most ${MAX_PROMPT_LENGTH} characters`)
      .describe('What the agent should find out or do.'),
    urls: z.array(httpUrl).max(MAX_AGENT_URLS, `urls must hold at most ${MAX_AGENT_URLS} URLs`).optional().describe('Where to start looking.'),
    schema: answerSchema.optional().describe('A JSON schema the answer (data) must match; extract mode only.'),
    maxCredits: z
      .int({ error: 'maxCredits must be a positive integer' })
      .min(1, 'maxCredits must be a positive integer')
      .optional()
      .describe('Most credits the tools may spend (AGENT_DEFAULT_MAX_CREDITS when absent).'),
    strictConstrainToURLs: z.boolean().default(false).describe('Read only pages under `urls` (scrape and map refuse other URLs).'),
    model: z
      .enum(AGENT_MODELS, { error: `model must be one of ${AGENT_MODELS.join(', ')}` })
      .optional()
      .describe('spark-1-mini runs LLM_SMALL_MODEL, the others LLM_MODEL; echoed in the status.'),
    effort: z
      .enum(AGENT_EFFORTS, { error: `effort must be one of ${AGENT_EFFORTS.join(', ')}` })
      .optional()
      .describe('The step budget: low a quarter of AGENT_MAX_STEPS, medium half, high (and absent) all of it.'),
    mode: z
      .enum(AGENT_MODES, { error: `mode must be one of ${AGENT_MODES.join(', ')}` })
      .default('extract')
      .describe('extract answers JSON in data; chat answers text in message.'),
    threadId: z
      .uuid({ error: 'threadId must be the threadId (a UUID) of an earlier run' })
      .optional()
      .describe('Continue this thread: the run is its next turn.'),
    location: locationSchema.optional().describe("The country (and languages) of the run's searches and scrapes."),
    webhook: webhookSchemaWith(AGENT_WEBHOOK_EVENTS)
      .optional()
      .describe('Signed agent.started, agent.action, agent.completed, agent.failed and agent.cancelled events.'),
    threatProtection: threatProtectionSchema
      .optional()
      .describe("Domain rules for the URLs the agent's tools read, as for every job (src/page/threat-policy.ts)."),
    auditMetadata: auditMetadataSchema.optional().describe('Who asked, recorded with the run.'),
    exchange: exchangeSchema.optional().describe('Accepted with the exchange off; asking for it is a 400.'),
    zeroDataRetention: z.boolean().default(false).describe('Scraped pages are kept under zero data retention; needs a model marked local.'),
    origin,
    integration,
  })
  .superRefine((req, ctx) => {
    if (req.mode === 'chat' && req.schema !== undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['schema'],
        input: req.schema,
        message: 'a chat-mode run answers text in message; leave schema out, or use mode extract for JSON matching a schema',
      });
  });

export type AgentRequest = z.output<typeof agentRequestSchema>;
