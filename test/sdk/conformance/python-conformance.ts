// Runs test/sdk/conformance_python.py (the Python SDK's generated requests) against a
// gateway as a team without credits; one report per SDK method.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runPythonSdk } from '../../support/python-sdk.ts';
import { pythonSdkSurface } from '../coverage/python-surface.ts';
import { pythonOracle } from './python-oracle.ts';

export interface MethodReport {
  method: string;
  accepted: number;
  refused: number;
  not_sent: number;
  failures: { seed: number; kwargs: string; problem: string }[];
}

export async function runPythonConformance(opts: { baseUrl: string; poorKey: string; examples: number; seed: number }): Promise<MethodReport[]> {
  const dir = mkdtempSync(join(tmpdir(), 'sdk-conformance-'));
  try {
    const oracle = join(dir, 'oracle.json');
    writeFileSync(oracle, JSON.stringify(pythonOracle(pythonSdkSurface())));
    const out = await runPythonSdk('test/sdk/conformance_python.py', {
      API_URL: opts.baseUrl,
      POOR_KEY: opts.poorKey,
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
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** What a run must show: no failure, and not vacuous (most calls reached the gateway, some were accepted). */
export function reportProblems(reports: MethodReport[], seed: number): string[] {
  return reports.flatMap((r) => [
    ...r.failures.map((f) => `${r.method} (SDK_CONFORMANCE_SEED=${seed}): ${f.problem}\n  with ${f.kwargs}`),
    ...(r.accepted === 0 ? [`${r.method}: no call was accepted (${JSON.stringify({ ...r, failures: undefined })})`] : []),
    ...(r.not_sent * 2 >= r.accepted + r.refused + r.not_sent ? [`${r.method}: most calls were refused by the SDK itself`] : []),
  ]);
}
