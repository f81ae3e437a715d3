// The coverage rows as the Python conformance suite (test/sdk/conformance_python.py)
// reads them: for every field of the Python SDK (`Model.field`, and a method's keyword
// argument as `Client.method().argument`), the disposition of the row it maps onto,
// with its values under the Python SDK's own spellings.
import type { Disposition } from '../coverage/dispositions.ts';
import { pythonGroupsOf, pythonRow, PY_VALUE_ALIASES } from '../coverage/coverage.ts';
import type { PythonSurface } from '../coverage/python-surface.ts';

/** A row's disposition and the field's name on the wire, which the service's messages use. */
export type PythonOracleRow = Disposition & { wire: string };

export function pythonOracle(surface: PythonSurface): Record<string, PythonOracleRow> {
  const table: Record<string, PythonOracleRow> = {};
  for (const { owner, field, alias, values } of surface.fields) {
    const groups = pythonGroupsOf(owner);
    const found = groups && pythonRow(groups, field, alias);
    if (!found) throw new Error(`no coverage row for the Python field ${owner}.${field}`);
    const { row, wire } = found;
    // Every value of the row (a Python str field may carry them: categories: ["developer"]), and the SDK's own spellings.
    const byPythonValue = {
      ...row.values,
      ...Object.fromEntries(
        values
          .map((v) => [v, row.values?.[PY_VALUE_ALIASES[v] ?? v]] as const)
          .filter((entry): entry is readonly [string, Disposition] => entry[1] !== undefined),
      ),
    };
    table[`${owner}.${field}`] = { status: row.status, wire, ...(Object.keys(byPythonValue).length > 0 && { values: byPythonValue }) };
  }
  return table;
}
