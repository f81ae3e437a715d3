// What the gateway must answer to a request an SDK built, read from the coverage
// rows (test/sdk/coverage/dispositions.ts): walks the arguments of an SDK call
// alongside the SDK's own types (the JS surface) and collects the rows it used.
// A request that uses a refused row (a cloud service, or not implemented yet)
// must be refused with a message naming one of them; any other must be accepted.
import { FIELDS, type Disposition, type Status } from '../coverage/dispositions.ts';
import type { SdkSurface, SurfaceField } from '../coverage/js-surface.ts';

export interface UsedRow {
  /** Where in the arguments: `scrapeOptions.formats[1]`. */
  path: string;
  /** The row: `ScrapeOptions.formats = "audio"`. */
  row: string;
  status: Status;
  /** Words a refusal must contain one of: the field's name, or the value for a value row. */
  names: string[];
}

export interface Verdict {
  used: UsedRow[];
  /** The rows that make the request a refusal (status cloud, todo or retired). */
  refusedBy: UsedRow[];
  /** The rows whose answer must carry a warning naming them. */
  warnedBy: UsedRow[];
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function createOracle(surface: SdkSurface) {
  const byOwner = new Map<string, Map<string, SurfaceField>>();
  for (const f of surface.fields) {
    if (!byOwner.has(f.owner)) byOwner.set(f.owner, new Map());
    byOwner.get(f.owner)!.set(f.field, f);
  }

  const childOwner = (field: SurfaceField, item: Record<string, unknown>): string | undefined => {
    const byType = field.children.find((c) => c.type !== undefined && c.type === item.type);
    if (byType) return byType.owner;
    const untyped = field.children.filter((c) => c.type === undefined);
    return untyped.length >= 1 ? untyped[0].owner : undefined;
  };

  // An argument's type can gather fields of several interfaces (ParseOptions = Omit<ScrapeOptions, ...> & {...}).
  const walk = (owners: string[], value: Record<string, unknown>, path: string, used: UsedRow[]): void => {
    for (const [key, v] of Object.entries(value)) {
      if (v === undefined) continue;
      const owner = owners.find((o) => FIELDS[o]?.[key]);
      if (!owner) throw new Error(`no coverage row for ${owners.join(' or ')}.${key} (at ${path}${key})`);
      const row: Disposition = FIELDS[owner][key];
      const here = `${path}${key}`;
      used.push({ path: here, row: `${owner}.${key}`, status: row.status, names: [key] });
      const items = Array.isArray(v) ? v : [v];
      items.forEach((item, i) => {
        const at = Array.isArray(v) ? `${here}[${i}]` : here;
        // A value row: a string literal's, or a boolean's (`true` of exchange.enabled asks for a cloud service, `false` does not).
        const value = typeof item === 'string' ? item : typeof item === 'boolean' ? String(item) : undefined;
        if (value !== undefined && row.values && Object.hasOwn(row.values, value)) {
          const valueRow = row.values[value];
          used.push({ path: at, row: `${owner}.${key} = ${JSON.stringify(item)}`, status: valueRow.status, names: typeof item === 'string' ? [item] : [key] });
        }
        const field = byOwner.get(owner)?.get(key);
        if (isObject(item) && field) {
          const child = childOwner(field, item);
          if (child) walk([child], item, `${at}.`, used);
        }
      });
    }
  };

  return {
    /** The rows an SDK call's argument of the given type(s) uses. */
    judge(owners: string[], args: Record<string, unknown>): Verdict {
      const used: UsedRow[] = [];
      walk(owners, args, '', used);
      return {
        used,
        refusedBy: used.filter((u) => u.status === 'cloud' || u.status === 'todo' || u.status === 'retired'),
        warnedBy: used.filter((u) => u.status === 'warning'),
      };
    },
  };
}

export type Oracle = ReturnType<typeof createOracle>;

/** Whether a refusal's message names one of the rows that refuse the request. */
export function namesARefusedRow(message: string, verdict: Verdict): boolean {
  return verdict.refusedBy.some((u) => u.names.some((n) => message.includes(n)));
}
