import type { ExecuteResponse } from '../protocol/execute-response.ts';
import type { ExecuteOutcome } from './execute-run.ts';
import type { ProcessOutcome } from './sandbox-process.ts';

/**
 * What a runner's sandbox ended with, as an execute's outcome: `result` is the last expression's value, else
 * stdout (the spec's alias). A runner that failed itself (`fatal`, not the code) is an error of the service,
 * unless the timeout killed it.
 */
export function executeOutcome(sessionId: string, p: ProcessOutcome): ExecuteOutcome {
  const { report } = p;
  if (report.fatal && !p.killed) throw new Error(`execute in session ${sessionId} failed: ${report.fatal}`);
  const value = report.result ?? null;
  return {
    stdout: p.stdout,
    stderr: p.stderr,
    result: value ?? (p.stdout === '' ? null : p.stdout),
    error: report.error ?? null,
    exitCode: p.exitCode,
    killed: p.killed,
  };
}

/**
 * The body of a finished execute, by the spec's rules: `success` stays true
 * (the run happened; whether the code succeeded is in `error`), `killed` is
 * true when the timeout ended it, and `error` is set exactly when the code
 * exited non-zero or was killed: the exception it ended with, else its stderr,
 * else "Execution failed".
 */
export function executeResponse(outcome: ExecuteOutcome): ExecuteResponse {
  let error: string | null = null;
  if (outcome.killed) error = 'Execution timed out: the process was killed';
  else if (outcome.exitCode !== 0) error = outcome.error ?? (outcome.stderr.trim() || 'Execution failed');
  return {
    success: true,
    stdout: outcome.stdout,
    result: outcome.result,
    stderr: outcome.stderr,
    exitCode: outcome.exitCode,
    killed: outcome.killed,
    error,
  };
}
