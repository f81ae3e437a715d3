// The long run of the JS SDK conformance suite (`npm run fuzz`): the same requests
// as test/integration/sdk-conformance-js.test.ts, many more of them.
// SDK_CONFORMANCE_RUNS sets how many per method; SDK_CONFORMANCE_SEED replays a run.
import { afterAll, beforeAll } from 'vitest';
import { startFakeLlm, type FakeLlm } from '../support/fake-llm.ts';
import { startHarness, type Harness } from '../support/harness.ts';
import { jsAcceptanceSuite } from '../sdk/conformance/js-acceptance.ts';
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

const runs = Number(process.env.SDK_CONFORMANCE_RUNS ?? 5000);
jsAcceptanceSuite({
  runs,
  timeoutMs: Math.max(600_000, runs * 100),
  ...(process.env.SDK_CONFORMANCE_SEED && { seed: Number(process.env.SDK_CONFORMANCE_SEED) }),
  target: () => ({ baseUrl: h.baseUrl, poorKey }),
});
