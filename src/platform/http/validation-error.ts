import type { z } from 'zod';

/** Message Firecrawl returns when a strict body carries a key the schema does not know. */
export const UNRECOGNIZED_KEY_MESSAGE = 'Unrecognized key in body -- please review the v2 API documentation for request body changes';

type Issue = z.core.$ZodIssue;

function hasUnrecognizedKeys(issues: readonly Issue[]): boolean {
  return issues.some((iss) => iss.code === 'unrecognized_keys' || (iss.code === 'invalid_union' && iss.errors.some((branch) => hasUnrecognizedKeys(branch))));
}

function formatPath(path: readonly PropertyKey[]): string {
  return path.map((p) => (typeof p === 'symbol' ? (p.description ?? 'symbol') : String(p))).join('.');
}

/** A JSON-safe copy of an issue: drops functions and undefined, turns bigints into strings. */
function toPlain(issue: Issue): unknown {
  return JSON.parse(
    JSON.stringify(issue, (_key, value: unknown) => {
      if (typeof value === 'bigint') return value.toString();
      if (typeof value === 'symbol') return value.description ?? value.toString();
      if (typeof value === 'function') return undefined;
      return value;
    }),
  );
}

/**
 * The message and details of the 400 envelope for a failed body parse:
 * `{ success:false, code:"BAD_REQUEST", error, details }`.
 */
export function formatZodError(error: z.ZodError): { error: string; details: unknown[] } {
  const issues = error.issues;
  const details = issues.map(toPlain);
  if (hasUnrecognizedKeys(issues)) return { error: UNRECOGNIZED_KEY_MESSAGE, details };
  const first = issues[0];
  if (!first) return { error: 'Bad Request', details };
  const path = formatPath(first.path);
  return { error: path ? `${path}: ${first.message}` : first.message, details };
}
