// `npm run bench:execute`: the round trip of a trivial execute (node `1`,
// python `1`, bash `true`: the snippet's own time is well under a
// millisecond, so the figure is the sandbox's overhead) against a real
// Chromium, BENCH_EXECUTE_RUNS (20) per language, p50 and p95: with warm
// runners after a pause (an interactive caller), back to back (the spare is
// still starting), and with SANDBOX_WARM_RUNNERS off (a fresh sandbox, runtime
// start and attach included). Not a test: the figures depend on the machine.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createSandbox } from '../src/features/browser-sessions/sandbox/sandbox.ts';
import type { ExecuteLanguage } from '../src/features/browser-sessions/protocol/execute-limits.ts';
import { loadConfig } from '../src/config.ts';
import { createLogger } from '../src/platform/log.ts';
import { startDebugChromium } from '../test/support/debug-chromium.ts';

const RUNS = Number(process.env.BENCH_EXECUTE_RUNS ?? 20);
const PAUSE_MS = Number(process.env.BENCH_EXECUTE_PAUSE_MS ?? 1500);
const SNIPPETS: Record<ExecuteLanguage, string> = { node: '1', python: '1', bash: 'true' };

function percentile(values: number[], p: number): number {
  const sorted = values.toSorted((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

const chromium = await startDebugChromium();
const log = createLogger('warn');
try {
  for (const warm of [true, false]) {
    const sandbox = createSandbox({ ...loadConfig().sandbox, warmRunners: warm }, log);
    for (const language of ['node', 'python', 'bash'] as const) {
      const pauses = warm ? [PAUSE_MS, 0] : [PAUSE_MS];
      for (const pause of pauses) {
        const sessionId = `bench-${language}-${warm}-${pause}`;
        const sessionDir = mkdtempSync(join(tmpdir(), 'bench-execute-'));
        const run = () => sandbox.run({ sessionId, language, code: SNIPPETS[language], timeoutMs: 30_000, cdpUrl: chromium.cdpUrl, sessionDir });
        // The first execute of a session starts its runner or daemon: not counted.
        const first = await run();
        if (first.exitCode !== 0) throw new Error(`${language} does not run: ${first.stderr}`);
        const times: number[] = [];
        for (let i = 0; i < RUNS; i++) {
          await sleep(pause);
          const started = performance.now();
          await run();
          times.push(performance.now() - started);
        }
        await sandbox.endSession(sessionId, sessionDir);
        rmSync(sessionDir, { recursive: true, force: true });
        const mode = warm ? (pause ? `warm, ${pause} ms apart` : 'warm, back to back') : 'cold (SANDBOX_WARM_RUNNERS=false)';
        console.log(
          `${language.padEnd(6)} ${mode.padEnd(34)} p50 ${percentile(times, 50).toFixed(1).padStart(7)} ms   p95 ${percentile(times, 95).toFixed(1).padStart(7)} ms   (${RUNS} runs)`,
        );
      }
    }
  }
} finally {
  await chromium.close();
}
