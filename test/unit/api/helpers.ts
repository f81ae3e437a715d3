import type { z } from 'zod';
import { formatZodError } from '../../../src/platform/http/validation-error.ts';

/** Parses `input` with `schema`, expecting failure; returns the envelope message and details. */
export function rejectMessage(schema: z.ZodType, input: unknown): { error: string; details: unknown[] } {
  const result = schema.safeParse(input);
  if (result.success) throw new Error(`expected ${JSON.stringify(input)} to be rejected`);
  return formatZodError(result.error);
}
