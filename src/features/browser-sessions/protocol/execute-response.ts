// The answer of an execute, as the API gives it and as the host's relay (or its execute activity) hands it back.
import { z } from 'zod';

export const executeResponseSchema = z.object({
  success: z.literal(true),
  stdout: z.string().nullable(),
  result: z.string().nullable().describe('The same as stdout.'),
  stderr: z.string().nullable(),
  exitCode: z.number().int().nullable(),
  killed: z.boolean().describe('Whether the timeout ended the run.'),
  error: z.string().nullable().describe('Set exactly when the code failed or was killed: read it, not only success.'),
});
export type ExecuteResponse = z.infer<typeof executeResponseSchema>;
