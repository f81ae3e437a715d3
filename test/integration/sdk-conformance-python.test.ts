// Drop-in by construction, Python side: the official Python SDK's body-sending
// methods (v2 and v1 clients), called with keyword arguments hypothesis builds from
// the SDK's own signatures and pydantic models (test/sdk/conformance_python.py),
// are answered as the coverage table (docs/api/sdk-coverage.md) says. SEED and
// the failing arguments are printed on failure; `npm run fuzz` runs many more.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startFakeLlm, type FakeLlm } from '../support/fake-llm.ts';
import { startHarness, type Harness } from '../support/harness.ts';
import { runPythonSdk } from '../support/python-sdk.ts';
import { pythonSdkSurface } from '../sdk/coverage/python-surface.ts';
import { pythonOracle } from '../sdk/conformance/python-oracle.ts';
import { ALL_TEAM_FLAGS } from '../sdk/conformance/team-flags.ts';

let h: Harness;
let llm: FakeLlm;
let poorKey: string;
let dir: string;

beforeAll(async () => {
  llm = await startFakeLlm();
  h = await startHarness({ llm: { baseUrl: llm.url, model: 'fake-big', smallModel: 'fake-small', local: true } });
  ({ apiKey: poorKey } = await h.newTeam({ credits: 0, flags: ALL_TEAM_FLAGS }));
  dir = mkdtempSync(join(tmpdir(), 'sdk-conformance-'));
});

afterAll(async () => {
  await h?.stop();
  await llm?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

interface MethodReport {
  method: string;
  accepted: number;
  refused: number;
  not_sent: number;
  failures: { seed: number; kwargs: string; problem: string }[];
}

export async function runPythonConformance(opts: { examples: number; seed: number }): Promise<MethodReport[]> {
  const oracle = join(dir, 'oracle.json');
  writeFileSync(oracle, JSON.stringify(pythonOracle(pythonSdkSurface())));
  const out = await runPythonSdk('test/sdk/conformance_python.py', {
    API_URL: h.baseUrl,
    POOR_KEY: poorKey,
    ORACLE: oracle,
    EXAMPLES: String(opts.examples),
    SEED: String(opts.seed),
  });
  if (out.code !== 0) {
    // The end of the traceback, without hypothesis's long description of the strategy it was drawing from.
    const tail = out.stderr
      .split('\n')
      .filter((line) => line.length < 400)
      .slice(-30)
      .join('\n');
    throw new Error(`the Python suite ended ${out.code}:\n${tail}`);
  }
  return out.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as MethodReport);
}

it('every body-sending method of the Python SDK (v2 and v1) is accepted, or refused naming a field the table refuses', { timeout: 600_000 }, async () => {
  const seed = Number(process.env.SDK_CONFORMANCE_SEED ?? Math.floor(Math.random() * 2 ** 31));
  const reports = await runPythonConformance({ examples: Number(process.env.SDK_CONFORMANCE_RUNS ?? 60), seed });
  expect(reports.map((r) => r.method)).toHaveLength(14);
  for (const r of reports) {
    expect(r.failures, `${r.method} (SDK_CONFORMANCE_SEED=${seed})`).toEqual([]);
    // Not vacuous: most calls reached the gateway, and some were accepted.
    expect(r.accepted, `${r.method}: ${JSON.stringify(r)}`).toBeGreaterThan(0);
    expect(r.not_sent, `${r.method}: ${JSON.stringify(r)}`).toBeLessThan((r.accepted + r.refused + r.not_sent) / 2);
  }
});
