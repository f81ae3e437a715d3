import type { ExecuteResponse } from '../protocol/execute-response.ts';
import type { ExecuteOutcome } from './sandbox.ts';

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
