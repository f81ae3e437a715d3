// Drop-in by construction, Python side: the official Python SDK's body-sending
// methods (v2 and v1 clients), called with keyword arguments hypothesis builds from
// the SDK's own signatures and pydantic models (test/sdk/conformance_python.py),
// are answered as the coverage table (docs/api/sdk-coverage.md) says. The seed and
// the failing arguments are printed on failure; `npm run fuzz` runs many more.
import { expect, it } from 'vitest';
import { reportProblems, runPythonConformance } from '../sdk/conformance/python-conformance.ts';
import { conformanceStage } from '../sdk/conformance/conformance-stage.ts';

const stage = conformanceStage();

it('every body-sending method of the Python SDK (v2 and v1) is accepted, or refused naming a field the table refuses', { timeout: 600_000 }, async () => {
  const seed = Number(process.env.SDK_CONFORMANCE_SEED ?? Math.floor(Math.random() * 2 ** 31));
  const reports = await runPythonConformance({
    baseUrl: stage().baseUrl,
    poorKey: stage().poorKey,
    examples: Number(process.env.SDK_CONFORMANCE_RUNS ?? 30),
    seed,
  });
  expect(reports).toHaveLength(14);
  expect(reportProblems(reports, seed)).toEqual([]);
});
