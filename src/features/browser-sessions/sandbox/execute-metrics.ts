// Executes as the browser host that runs them counts them: by language and how
// they ended, and how long the sandbox took over the ones that ran.
import { counter, DURATION_BUCKETS, histogram } from '../../../platform/metrics/registry.ts';
import type { ExecuteLanguage } from '../protocol/execute-limits.ts';
import type { ExecuteOutcome } from './sandbox.ts';

const executes = counter({
  name: 'browser_executes_total',
  help: 'Executes by language and outcome: ok (exit 0), error (the code failed), timeout (killed at its timeout), refused (the sandbox could not run it: no runtime for the language, a runner that could not start or attach)',
  labelNames: ['language', 'outcome'],
});

const duration = histogram({
  name: 'browser_execute_duration_seconds',
  help: 'Time executes that ran took in the sandbox, start of the runner or attach included, by language',
  labelNames: ['language'],
  buckets: DURATION_BUCKETS,
});

function outcomeOf(run: ExecuteOutcome): string {
  if (run.killed) return 'timeout';
  return run.exitCode === 0 ? 'ok' : 'error';
}

/** Runs one execute, counting it whatever happens. */
export async function measuredExecute(language: ExecuteLanguage, run: () => Promise<ExecuteOutcome>): Promise<ExecuteOutcome> {
  const stop = duration.startTimer({ language });
  let outcome: ExecuteOutcome;
  try {
    outcome = await run();
  } catch (err) {
    executes.inc({ language, outcome: 'refused' });
    throw err;
  }
  stop();
  executes.inc({ language, outcome: outcomeOf(outcome) });
  return outcome;
}
