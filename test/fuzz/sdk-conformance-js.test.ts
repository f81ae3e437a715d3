// The long run of the JS SDK conformance suite (`npm run fuzz`): the same requests
// as test/integration/sdk-conformance-js.test.ts, many more of them.
// SDK_CONFORMANCE_RUNS sets how many per method; SDK_CONFORMANCE_SEED replays a run.
import { jsAcceptanceSuite } from '../sdk/conformance/js-acceptance.ts';
import { conformanceStage } from '../sdk/conformance/conformance-stage.ts';

const stage = conformanceStage();

const runs = Number(process.env.SDK_CONFORMANCE_RUNS ?? 5000);
jsAcceptanceSuite({
  runs,
  timeoutMs: Math.max(600_000, runs * 100),
  ...(process.env.SDK_CONFORMANCE_SEED && { seed: Number(process.env.SDK_CONFORMANCE_SEED) }),
  target: () => ({ baseUrl: stage().baseUrl, poorKey: stage().poorKey }),
});
