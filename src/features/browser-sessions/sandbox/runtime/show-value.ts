// How a runner turns what the caller's code produced into the text of the
// response: `result` and `error` are strings.
export function showValue(value: unknown): string | null {
  if (value === undefined) return null;
  if (typeof value === 'string') return value;
  try {
    const json = JSON.stringify(value);
    if (json !== undefined) return json;
  } catch {
    // Cycles and BigInts have no JSON; their String form is the next best thing.
  }
  return String(value);
}

/** The result cut to the host's output cap (EXECUTE_MAX_RESULT_CHARS), saying so, as the host cuts stdout. */
export function capResult(text: string | null, max: number): string | null {
  if (text === null || text.length <= max) return text;
  return `${text.slice(0, max)}\n[${text.length - max} more characters dropped: the result is cut at ${max} (SANDBOX_MAX_OUTPUT_BYTES)]\n`;
}

export function describeError(err: unknown): string {
  if (err instanceof Error) return `${err.name}: ${err.message}`;
  return `Thrown: ${showValue(err) ?? 'undefined'}`;
}
