// How deep a value from a request nests. Recursive validators and serializers
// (zod's z.json(), Ajv, JSON.stringify) overflow the stack on a deep enough
// value, so request schemas bound the depth first with this check, which is
// iterative: no input can overflow it.
import { z } from 'zod';

/** Whether any value inside `root` is nested more than `limit` levels deep. */
export function nestedDeeperThan(root: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[root, 0]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (typeof value !== 'object' || value === null) continue;
    if (depth >= limit) return true;
    for (const child of Object.values(value)) stack.push([child, depth + 1]);
  }
  return false;
}

/** Any value, refused at its path (naming `field`) when nested more than `limit` levels deep; pipe it into the recursive schema. */
export function nestedAtMost(field: string, limit: number) {
  return z.unknown().superRefine((value, ctx) => {
    if (nestedDeeperThan(value, limit)) ctx.addIssue({ code: 'custom', message: `${field} may be nested at most ${limit} levels deep`, input: value });
  });
}
