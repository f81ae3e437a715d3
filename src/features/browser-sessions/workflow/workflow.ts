// One browser session = one workflow (browser-<id>). It picks a browser host,
// has it launch the session's Chromium, and then keeps three clocks: the hard ttl,
// the idle timer (re-armed by executes and by the gateway's debounced `touched`
// signals) and the host's heartbeat through a watch activity that runs as long as
// the session does. An execute is admitted by an Update (admitExecute: the session
// is active, the execute counted, the idle clock held), then the gateway runs it on
// the host through the host's relay, the round trip's short way, and signals its
// end (executeEnded), or its lease runs out. The older execute Update, which runs
// the code as an activity on the host's own queue, stays for gateways of the build
// before (docs/patches.md). Whatever ends the session (DELETE, ttl, idle, a lost host), the host
// closes the browser and a control activity records the end and bills it once.
// No activity retries without end (retry-policies.ts): a host pick that keeps
// failing ends the session `error` as a failed launch does.
// What the run knows and decides lives in SessionRunState (session-run-state.ts,
// tested without Temporal); this file wires its transitions to Temporal's commands.
import {
  ActivityFailure,
  ApplicationFailure,
  CancellationScope,
  condition,
  continueAsNew,
  isCancellation,
  proxyActivities,
  proxyLocalActivities,
  setCurrentDetails,
  setHandler,
  TimeoutFailure,
  upsertSearchAttributes,
  workflowInfo,
  allHandlersFinished,
  patched,
} from '@temporalio/workflow';
import { SessionRunState } from './session-run-state.ts';
import { SessionStatusAttribute } from '../../../platform/temporal/search-attribute-keys.ts';
import type { SessionControlActivities } from './control-activities.ts';
import { sessionDetails } from './session-details.ts';
import {
  admitExecuteUpdate,
  destroySignal,
  executeEndedSignal,
  executeUpdate,
  readyUpdate,
  SESSION_ENDED,
  stateQuery,
  touchedSignal,
  type ExecuteInput,
  type SessionInput,
  type SessionStatus,
  type SessionSummary,
} from '../protocol/definitions.ts';
import type { HostActivities } from '../host/host-activities.ts';
import type { HostExecute } from '../host/execute-on-host.ts';
import type { ExecuteResponse } from '../protocol/execute-response.ts';
import { EXECUTE_ANSWER_GRACE_MS } from '../protocol/execute-limits.ts';
import { HOST_ONCE, SESSION_CONTROL_RETRY } from './retry-policies.ts';

/** How long a host may go without a heartbeat before its sessions end `error`. */
const HOST_HEARTBEAT_TIMEOUT = '15 seconds';
/** A host that does not pick a task up in this time is taken for gone. */
const HOST_PICKUP_TIMEOUT = '30 seconds';

const control = proxyActivities<SessionControlActivities>({ startToCloseTimeout: '30 seconds', retry: SESSION_CONTROL_RETRY });
/**
 * The end's record as a local activity: run by this worker inside the workflow task that follows the
 * close, it spares DELETE /v2/browser, which waits for it, four trips to the Temporal server (the
 * activity's scheduling, dispatch and completion, and the task after it): 1.2 s when each way takes 300 ms.
 */
const localControl = proxyLocalActivities<SessionControlActivities>({ startToCloseTimeout: '30 seconds', retry: SESSION_CONTROL_RETRY });

function hostActivities(taskQueue: string) {
  return {
    launch: proxyActivities<HostActivities>({
      taskQueue,
      scheduleToStartTimeout: HOST_PICKUP_TIMEOUT,
      startToCloseTimeout: '90 seconds',
      heartbeatTimeout: HOST_HEARTBEAT_TIMEOUT,
      retry: HOST_ONCE,
    }).launchBrowserSession,
    watch: proxyActivities<HostActivities>({
      taskQueue,
      scheduleToStartTimeout: HOST_PICKUP_TIMEOUT,
      startToCloseTimeout: '2 hours',
      heartbeatTimeout: HOST_HEARTBEAT_TIMEOUT,
      retry: HOST_ONCE,
    }).watchBrowserSession,
    execute: (execute: HostExecute) =>
      proxyActivities<HostActivities>({
        taskQueue,
        scheduleToStartTimeout: HOST_PICKUP_TIMEOUT,
        startToCloseTimeout: execute.timeoutMs + EXECUTE_ANSWER_GRACE_MS,
        retry: HOST_ONCE,
      }).executeInBrowserSession(execute),
    close: proxyActivities<HostActivities>({ taskQueue, scheduleToStartTimeout: '10 seconds', startToCloseTimeout: '60 seconds', retry: HOST_ONCE })
      .closeBrowserSession,
  };
}

/** One line for the API and the Temporal UI on why a host activity failed. */
function describeHostFailure(err: unknown, hostId: string): string {
  if (err instanceof ActivityFailure) {
    if (err.cause instanceof TimeoutFailure) {
      return err.cause.timeoutType === 'HEARTBEAT' || err.cause.timeoutType === 'SCHEDULE_TO_START'
        ? `browser host ${hostId} stopped responding`
        : `browser host ${hostId} timed out (${err.cause.timeoutType})`;
    }
    return err.cause?.message ?? err.message;
  }
  return (err as Error).message;
}

/**
 * Records the session's end and bills it once: as a local activity in runs that have the patch
 * (docs/patches.md). Answers what was recorded: a local activity run again by a workflow task retried
 * with a later clock finds the first run's duration, which the answer then carries too; an older
 * history's result carries only the credits.
 */
async function recordEnd(end: Parameters<SessionControlActivities['finishBrowserSession']>[0]) {
  const recorded: { creditsBilled: number; sessionDurationMs?: number } = patched('session-end-local-record')
    ? await localControl.finishBrowserSession(end)
    : await control.finishBrowserSession(end);
  return { creditsBilled: recorded.creditsBilled, sessionDurationMs: recorded.sessionDurationMs ?? end.sessionDurationMs };
}

/** The Temporal UI's line for the session, rewritten whenever what it says changes. */
function showDetails(session: SessionRunState): void {
  setCurrentDetails(sessionDetails(session.state(), session.idleMs, Date.now()));
}

function setStatus(session: SessionRunState, next: SessionStatus): void {
  session.status = next;
  upsertSearchAttributes([{ key: SessionStatusAttribute, value: next }]);
  showDetails(session);
}

function sessionEnded(): ApplicationFailure {
  return ApplicationFailure.create({ type: SESSION_ENDED, message: 'Browser session has been destroyed.', nonRetryable: true });
}

/** The execute Update: the code runs as an activity on the host's own queue (gateways of the build before admitExecute). */
async function executeOnHost(session: SessionRunState, sessionId: string, { language, code, timeoutSeconds }: ExecuteInput): Promise<ExecuteResponse> {
  await condition(() => session.started());
  const host = session.executeStarted(Date.now());
  if (!host) throw sessionEnded();
  showDetails(session);
  const scope = new CancellationScope();
  session.runningExecutes.add(scope);
  try {
    return await scope.run(() => hostActivities(host.taskQueue).execute({ sessionId, language, code, timeoutMs: timeoutSeconds * 1000 }));
  } catch (err) {
    if (isCancellation(err)) throw sessionEnded();
    throw ApplicationFailure.create({
      type: 'ExecuteFailed',
      message: `Failed to execute code in browser session: ${describeHostFailure(err, host.hostId)}`,
      nonRetryable: true,
    });
  } finally {
    session.runningExecutes.delete(scope);
    session.executeFinished(Date.now());
    showDetails(session);
  }
}

/** The session's signals, query and Updates, each a transition of its state. */
function setSessionHandlers(session: SessionRunState, sessionId: string): void {
  setHandler(touchedSignal, () => {
    session.touched(Date.now());
    showDetails(session);
  });
  setHandler(destroySignal, (options) => session.destroy(options));
  setHandler(stateQuery, () => session.state());
  setHandler(readyUpdate, async () => {
    await condition(() => session.started());
    return session.ready();
  });
  setHandler(admitExecuteUpdate, async ({ executeId, leaseMs }) => {
    await condition(() => session.started());
    const host = session.admit(executeId, leaseMs, Date.now());
    if (!host) throw sessionEnded();
    showDetails(session);
    return { hostId: host.hostId };
  });
  setHandler(executeEndedSignal, ({ executeId }) => {
    if (session.executeEnded(executeId, Date.now())) showDetails(session);
  });
  setHandler(executeUpdate, (execute) => executeOnHost(session, sessionId, execute));
}

/** Picks a host and has it launch the session's browser; a failure is the session's. */
async function launchBrowser(session: SessionRunState, input: SessionInput): Promise<void> {
  try {
    session.host = await control.pickBrowserHost(input.sessionId);
    showDetails(session);
    const launched = await hostActivities(session.host.taskQueue).launch({
      sessionId: input.sessionId,
      teamId: input.teamId,
      profile: input.profile,
      ...(input.opening && { opening: input.opening }),
      ...(input.blockAds !== undefined && { blockAds: input.blockAds }),
      ...(input.location && { location: input.location }),
      ...(input.proxy && { proxy: input.proxy }),
    });
    session.openingWarning = launched?.openingWarning;
    setStatus(session, 'active');
  } catch (err) {
    session.launchFailed(describeHostFailure(err, session.host?.hostId ?? 'none'));
  }
}

/** The host's watch, in a scope of its own: ended (cancelled) before closing or continuing as new. */
function watchHost(session: SessionRunState, sessionId: string): CancellationScope {
  const watchScope = new CancellationScope();
  if (session.host && !session.failure) {
    const { hostId, taskQueue } = session.host;
    watchScope
      .run(() => hostActivities(taskQueue).watch({ sessionId }))
      .then(
        (why) => session.hostLost(why),
        (err) => {
          if (!isCancellation(err)) session.hostLost(describeHostFailure(err, hostId));
        },
      );
  }
  return watchScope;
}

/** Ends the session for `reason`: its executes cancelled, its browser closed, its end recorded and billed. */
async function endSession(session: SessionRunState, input: SessionInput, reason: string, watchScope: CancellationScope): Promise<SessionSummary> {
  const ending = session.end(reason);
  showDetails(session);
  watchScope.cancel();
  // An execute's activity has no heartbeat: on a lost host it would hold its caller (and this
  // run, which waits for its handlers) until the code's timeout + 60 s. Ended with the session,
  // it answers at once. Asked only with executes running, so other runs record no marker.
  if (session.runningExecutes.size > 0 && patched('executes-end-with-session')) for (const scope of session.runningExecutes) scope.cancel();
  // A start that failed is answered now, not after the close below, which on a lost host waits
  // out the pick-up timeout (10 s). Asked only when a start failed.
  if (ending.answersFailedStartFirst && patched('failed-start-answers-first')) setStatus(session, 'error');
  if (session.host) {
    // A lost host cannot close anything (its browsers went with it): the attempt just times out.
    await hostActivities(session.host.taskQueue)
      .close({ sessionId: input.sessionId, saveProfile: ending.saveProfile })
      .catch(() => undefined);
  }
  const final: SessionSummary['status'] = ending.final;
  let sessionDurationMs = session.durationMs(Date.now());
  let creditsBilled: number;
  try {
    ({ creditsBilled, sessionDurationMs } = await recordEnd({
      sessionId: input.sessionId,
      status: final,
      reason,
      sessionDurationMs,
      ...(ending.unbilled && { unbilled: true }),
    }));
  } catch (err) {
    // Every attempt to record the end failed. The session is over all the same (its browser is
    // closed, waiting callers hear `error`) and the workflow fails with why; a DELETE then finds
    // no workflow running and closes the row unbilled.
    setStatus(session, 'error');
    await condition(allHandlersFinished);
    throw err;
  }
  setStatus(session, final);
  await condition(allHandlersFinished);
  return { status: final, reason, sessionDurationMs, creditsBilled };
}

// The main loop and the steps it calls await Temporal's promises directly, as they did when this
// was one function, and each step issues its first command in the same task, in the same order:
// what else resolves in that task (an execute, a timer) keeps its place among the commands, which
// replay compares.
export async function browserSessionWorkflow(input: SessionInput): Promise<SessionSummary> {
  const session = new SessionRunState(input, workflowInfo);
  setSessionHandlers(session, input.sessionId);
  showDetails(session);
  if (!session.host) await launchBrowser(session, input);
  const watchScope = watchHost(session, input.sessionId);
  for (;;) {
    const step = session.nextStep(Date.now());
    if (step.kind === 'end') return endSession(session, input, step.reason, watchScope);
    if (step.kind === 'continue-as-new') {
      watchScope.cancel();
      await condition(allHandlersFinished);
      return continueAsNew<typeof browserSessionWorkflow>(session.continuedInput());
    }
    showDetails(session);
    await condition(() => session.wakes(), step.timeoutMs);
  }
}
