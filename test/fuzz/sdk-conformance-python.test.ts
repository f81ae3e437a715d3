// The long run of the Python SDK conformance suite (`npm run fuzz`): the requests of
// test/integration/sdk-conformance-python.test.ts, many more of them.
// SDK_CONFORMANCE_RUNS sets how many per method; SDK_CONFORMANCE_SEED replays a run.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startFakeLlm, type FakeLlm } from '../support/fake-llm.ts';
import { startHarness, type Harness } from '../support/harness.ts';
import { reportProblems, runPythonConformance } from '../sdk/conformance/python-conformance.ts';
import { ALL_TEAM_FLAGS } from '../sdk/conformance/team-flags.ts';

let h: Harness;
let llm: FakeLlm;
let poorKey: string;

beforeAll(async () => {
  llm = await startFakeLlm();
  h = await startHarness({ llm: { baseUrl: llm.url, model: 'fake-big', smallModel: 'fake-small', local: true } });
  ({ apiKey: poorKey } = await h.newTeam({ credits: 0, flags: ALL_TEAM_FLAGS }));
});

afterAll(async () => {
  await h?.stop();
  await llm?.close();
});

const runs = Number(process.env.SDK_CONFORMANCE_RUNS ?? 2000);
it('every body-sending method of the Python SDK, many generated calls each', { timeout: Math.max(1_800_000, runs * 1500) }, async () => {
  const seed = Number(process.env.SDK_CONFORMANCE_SEED ?? Math.floor(Math.random() * 2 ** 31));
  const reports = await runPythonConformance({ baseUrl: h.baseUrl, poorKey, examples: runs, seed });
  expect(reportProblems(reports, seed)).toEqual([]);
});
