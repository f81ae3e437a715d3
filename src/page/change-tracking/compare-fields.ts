// The json mode's comparison: the fields extracted from the previous and the
// current version of a page, and for each field whose value differs, both values
// (`{ "price": { "previous": "$9", "current": "$12" } }`). A field present on one
// side only differs too; its missing value is null.

export type FieldChanges = Record<string, { previous: unknown; current: unknown }>;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Deep equality of JSON values; the order of an object's keys does not matter, an array's order does. */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((item, i) => sameJson(item, b[i]));
  if (isPlainObject(a)) {
    if (!isPlainObject(b)) return false;
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && sameJson(a[k], b[k]));
  }
  return false;
}

/** The top-level fields that differ, in the current fields' order, then those that disappeared. */
export function compareFields(previous: Record<string, unknown>, current: Record<string, unknown>): FieldChanges {
  const changes: FieldChanges = {};
  for (const key of new Set([...Object.keys(current), ...Object.keys(previous)])) {
    const before = Object.hasOwn(previous, key) ? previous[key] : null;
    const after = Object.hasOwn(current, key) ? current[key] : null;
    if (!sameJson(before, after)) changes[key] = { previous: before, current: after };
  }
  return changes;
}
