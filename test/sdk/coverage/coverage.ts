// Joins the SDKs' surfaces (read from the SDKs) with the rows of dispositions.ts,
// methods.ts and python-names.ts: what has no row, what row no SDK has any more,
// and, for the table, which Python names each row stands for.
import { FIELDS, type Disposition, type FieldTable } from './dispositions.ts';
import type { SdkSurface } from './js-surface.ts';
import { JS_METHODS, PYTHON_ASYNC_OF, PYTHON_METHODS, type MethodRow } from './methods.ts';
import { PY_METHOD_GROUPS, PY_MODEL_GROUPS, PY_ONLY_FIELDS, PY_V1_CLIENTS, PY_V1_METHOD_GROUPS, wireName } from './python-names.ts';
import type { PythonSurface } from './python-surface.ts';

/** The Python SDK's spellings of format names, converted before sending. */
export const PY_VALUE_ALIASES: Record<string, string> = { raw_html: 'rawHtml', change_tracking: 'changeTracking' };

export interface Gaps {
  /** SDK names with no row: `js field ScrapeOptions.foo`, `py method FirecrawlClient.bar`, ... */
  missing: string[];
  /** Rows no SDK reaches any more. */
  stale: string[];
}

function valueGaps(label: string, values: string[], row: Disposition, alias: (v: string) => string = (v) => v): string[] {
  if (values.length === 0) return [];
  return values.filter((v) => !row.values || !Object.hasOwn(row.values, alias(v))).map((v) => `${label} = "${v}"`);
}

export function jsGaps(surface: SdkSurface, fields: FieldTable = FIELDS, methods: Record<string, MethodRow> = JS_METHODS): Gaps {
  const missing: string[] = [];
  const reached = new Set<string>();
  for (const { owner, field, values } of surface.fields) {
    const row = fields[owner]?.[field];
    const label = `js field ${owner}.${field}`;
    if (!row) {
      missing.push(label);
      continue;
    }
    reached.add(`${owner}.${field}`);
    missing.push(...valueGaps(label, values, row));
  }
  for (const { client, method } of surface.methods) if (!methods[`${client}.${method}`]) missing.push(`js method ${client}.${method}`);
  const stale = [
    ...Object.entries(fields).flatMap(([owner, rows]) =>
      Object.keys(rows)
        .filter((f) => !reached.has(`${owner}.${f}`))
        .map((f) => `js field ${owner}.${f}`),
    ),
    ...Object.keys(methods)
      .filter((key) => !surface.methods.some((m) => `${m.client}.${m.method}` === key))
      .map((key) => `js method ${key}`),
  ];
  return { missing, stale };
}

/** The row a Python field stands for: its group and wire name, or undefined. */
export function pythonRow(groups: string[], field: string, alias: string | null): { group: string; wire: string; row: Disposition } | undefined {
  const wire = wireName(field, alias);
  for (const group of groups) {
    const row = FIELDS[group]?.[wire] ?? PY_ONLY_FIELDS[group]?.[wire];
    if (row) return { group, wire, row };
  }
  return undefined;
}

/** A method's keyword arguments are `<method>()` fields; a model's are `<Model>` fields. */
export function pythonGroupsOf(owner: string): string[] | undefined {
  const call = /^(\w+)\.(\w+)\(\)$/.exec(owner);
  if (!call) return PY_MODEL_GROUPS[owner];
  const [, client, method] = call;
  const groups = PY_V1_CLIENTS.has(client) ? PY_V1_METHOD_GROUPS[method] : PY_METHOD_GROUPS[method];
  return [...(groups ?? []), 'py arguments'];
}

export function pythonMethodRow(client: string, method: string): MethodRow | undefined {
  return PYTHON_METHODS[`${client}.${method}`] ?? (PYTHON_ASYNC_OF[client] ? PYTHON_METHODS[`${PYTHON_ASYNC_OF[client]}.${method}`] : undefined);
}

export function pythonGaps(surface: PythonSurface): Gaps {
  const missing: string[] = [];
  const usedPyOnly = new Set<string>();
  for (const { owner, field, alias, values } of surface.fields) {
    const label = `py field ${owner}.${field}`;
    const groups = pythonGroupsOf(owner);
    if (!groups) {
      missing.push(`${label} (no row group for ${owner}: python-names.ts)`);
      continue;
    }
    const found = pythonRow(groups, field, alias);
    if (!found) {
      missing.push(label);
      continue;
    }
    if (PY_ONLY_FIELDS[found.group]) usedPyOnly.add(`${found.group}.${found.wire}`);
    missing.push(...valueGaps(label, values, found.row, (v) => PY_VALUE_ALIASES[v] ?? v));
  }
  for (const { client, method } of surface.methods) if (!pythonMethodRow(client, method)) missing.push(`py method ${client}.${method}`);
  const clients = new Set(surface.methods.map((m) => `${m.client}.${m.method}`));
  const stale = [
    ...Object.entries(PY_ONLY_FIELDS).flatMap(([group, rows]) =>
      Object.keys(rows)
        .filter((f) => !usedPyOnly.has(`${group}.${f}`))
        .map((f) => `py field ${group}.${f}`),
    ),
    ...Object.keys(PYTHON_METHODS)
      .filter((key) => !clients.has(key))
      .map((key) => `py method ${key}`),
  ];
  return { missing, stale };
}

/** For each row `group.field`, the Python names that map onto it (for the table's Python column). */
export function pythonNamesByRow(surface: PythonSurface): Map<string, string[]> {
  const names = new Map<string, string[]>();
  for (const { owner, field, alias } of surface.fields) {
    if (owner.endsWith('()')) continue; // keyword arguments repeat the models' fields
    const groups = pythonGroupsOf(owner);
    const found = groups && pythonRow(groups, field, alias);
    if (!found) continue;
    const key = `${found.group}.${found.wire}`;
    names.set(key, [...(names.get(key) ?? []), `${owner}.${field}`]);
  }
  return names;
}
