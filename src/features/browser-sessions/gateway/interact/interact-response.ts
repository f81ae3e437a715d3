import { z } from 'zod';
import { executeResponseSchema } from '../../protocol/execute-response.ts';
import { sessionUrlsSchema } from '../session-store.ts';

/** The answer of POST /v2/scrape/{id}/interact: an execute's, with the session's URLs. */
export const interactResponseSchema = executeResponseSchema.extend(sessionUrlsSchema.shape).extend({
  output: z.string().optional().describe('A prompt’s answer: the result of the code the model wrote, else what it printed.'),
  code: z.string().optional().describe('The code the model wrote for a prompt.'),
  warning: z.string().optional().describe('Why the scrape’s page did not open again as the scrape saw it (first call only).'),
});
export type InteractResponse = z.infer<typeof interactResponseSchema>;

export const interactEndedSchema = z.object({
  success: z.literal(true),
  status: z.literal('destroyed'),
  sessionDurationMs: z.number().int(),
  creditsBilled: z.number(),
});
