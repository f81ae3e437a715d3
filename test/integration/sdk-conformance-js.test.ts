// Drop-in by construction, JS side: every body-sending method of the official JS
// SDK, called with arguments generated from the SDK's own types, is answered as
// the coverage table (docs/api/sdk-coverage.md) says. A bounded run here; the long
// one is `npm run fuzz` (test/fuzz/sdk-conformance.test.ts). fast-check prints the
// seed and the shrunk arguments of a failure.
import { jsAcceptanceSuite } from '../sdk/conformance/js-acceptance.ts';
import { conformanceStage } from '../sdk/conformance/conformance-stage.ts';

const stage = conformanceStage();

jsAcceptanceSuite({
  runs: Number(process.env.SDK_CONFORMANCE_RUNS ?? 50),
  ...(process.env.SDK_CONFORMANCE_SEED && { seed: Number(process.env.SDK_CONFORMANCE_SEED) }),
  target: () => ({ baseUrl: stage().baseUrl, poorKey: stage().poorKey }),
});
