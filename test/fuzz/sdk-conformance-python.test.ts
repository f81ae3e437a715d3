// The long run of the Python SDK conformance suite (`npm run fuzz`): the requests of
// test/integration/sdk-conformance-python.test.ts, many more of them.
// SDK_CONFORMANCE_RUNS sets how many per method; SDK_CONFORMANCE_SEED replays a run.
import { expect, it } from 'vitest';
import { reportProblems, runPythonConformance } from '../sdk/conformance/python-conformance.ts';
import { conformanceStage } from '../sdk/conformance/conformance-stage.ts';

const stage = conformanceStage();

const runs = Number(process.env.SDK_CONFORMANCE_RUNS ?? 2000);
it('every body-sending method of the Python SDK, many generated calls each', { timeout: Math.max(1_800_000, runs * 1500) }, async () => {
  const seed = Number(process.env.SDK_CONFORMANCE_SEED ?? Math.floor(Math.random() * 2 ** 31));
  const reports = await runPythonConformance({ baseUrl: stage().baseUrl, poorKey: stage().poorKey, examples: runs, seed });
  expect(reportProblems(reports, seed)).toEqual([]);
});
