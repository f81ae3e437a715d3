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

export function describeError(err: unknown): string {
  if (err instanceof Error) return `${err.name}: ${err.message}`;
  return `Thrown: ${showValue(err) ?? 'undefined'}`;
}
