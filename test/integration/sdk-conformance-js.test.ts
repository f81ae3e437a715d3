// Drop-in by construction, JS side: every body-sending method of the official JS
// SDK, called with arguments generated from the SDK's own types, is answered as
// the coverage table (docs/api/sdk-coverage.md) says. A bounded run here; the long
// one is `npm run fuzz` (test/fuzz/sdk-conformance.test.ts). fast-check prints the
// seed and the shrunk arguments of a failure.
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

jsAcceptanceSuite({
  runs: Number(process.env.SDK_CONFORMANCE_RUNS ?? 50),
  ...(process.env.SDK_CONFORMANCE_SEED && { seed: Number(process.env.SDK_CONFORMANCE_SEED) }),
  target: () => ({ baseUrl: h.baseUrl, poorKey }),
});
