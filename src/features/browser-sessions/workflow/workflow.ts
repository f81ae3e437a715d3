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
import { sessionEnding } from './session-ending.ts';
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
  type SessionInput,
  type SessionState,
  type SessionStatus,
  type SessionSummary,
} from '../protocol/definitions.ts';
import type { HostActivities } from '../host/host-activities.ts';
import type { HostExecute } from '../host/execute-on-host.ts';
import { EXECUTE_ANSWER_GRACE_MS } from '../protocol/execute-limits.ts';
import { HOST_ONCE, SESSION_CONTROL_RETRY } from './retry-policies.ts';

/** Runs beyond this many history events continue as new (a session's history stays small). */
const CONTINUE_AS_NEW_EVENTS = 5000;
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

const historyIsLong = () => workflowInfo().historyLength > CONTINUE_AS_NEW_EVENTS || workflowInfo().continueAsNewSuggested;

export async function browserSessionWorkflow(input: SessionInput): Promise<SessionSummary> {
  const ttlDeadline = input.createdAtMs + input.ttlSeconds * 1000;
  const idleMs = input.activityTtlSeconds * 1000;
  let status: SessionStatus = input.running ? 'active' : 'starting';
  let lastActivity = input.running?.lastActivityMs ?? input.createdAtMs;
  let executes = input.running?.executes ?? 0;
  /** Executes running as activities (the execute Update). */
  let executing = 0;
  /** Admitted executes the gateway runs through the relay, by id: when each stops holding the idle clock if its end never comes. */
  const leases = new Map<string, number>();
  /** The main loop sleeps until a lease's deadline: the end of the last admitted execute wakes it to arm the idle clock. */
  let sleepingOnLease = false;
  const running = () => executing + leases.size;
  let destroyRequested = false;
  /** Why the gateway could not answer the start (then the session ends as an error, unbilled). */
  let startUnanswered: string | undefined;
  let endReason: string | null = null;
  let failure: string | undefined;
  let openingWarning: string | undefined;
  let host = input.running ? { hostId: input.running.hostId, taskQueue: input.running.taskQueue } : undefined;
  /** The scopes of the executes running now: the session's end cancels them (see below). */
  const runningExecutes = new Set<CancellationScope>();

  const state = (): SessionState => ({
    status,
    hostId: host?.hostId ?? null,
    lastActivityMs: lastActivity,
    expiresAtMs: ttlDeadline,
    executes,
    executing: running(),
    endReason,
  });
  /** The Temporal UI's line for the session, rewritten whenever what it says changes. */
  const showDetails = () => setCurrentDetails(sessionDetails(state(), idleMs, Date.now()));
  setHandler(touchedSignal, () => {
    lastActivity = Math.max(lastActivity, Date.now());
    showDetails();
  });
  setHandler(destroySignal, (options) => {
    destroyRequested = true;
    startUnanswered ??= options?.startUnanswered;
  });
  setHandler(stateQuery, state);
  setHandler(readyUpdate, async () => {
    await condition(() => status !== 'starting');
    return { status, reason: endReason, ...(openingWarning && { openingWarning }) };
  });
  setHandler(admitExecuteUpdate, async ({ executeId, leaseMs }) => {
    await condition(() => status !== 'starting');
    if (status !== 'active' || endReason !== null || !host)
      throw ApplicationFailure.create({ type: SESSION_ENDED, message: 'Browser session has been destroyed.', nonRetryable: true });
    if (!leases.has(executeId)) {
      executes++;
      leases.set(executeId, Date.now() + Math.max(0, leaseMs));
    }
    lastActivity = Date.now();
    showDetails();
    return { hostId: host.hostId };
  });
  setHandler(executeEndedSignal, ({ executeId }) => {
    if (!leases.delete(executeId)) return;
    lastActivity = Math.max(lastActivity, Date.now());
    showDetails();
  });
  setHandler(executeUpdate, async ({ language, code, timeoutSeconds }) => {
    await condition(() => status !== 'starting');
    if (status !== 'active' || endReason !== null || !host)
      throw ApplicationFailure.create({ type: SESSION_ENDED, message: 'Browser session has been destroyed.', nonRetryable: true });
    executing++;
    executes++;
    lastActivity = Date.now();
    showDetails();
    const scope = new CancellationScope();
    runningExecutes.add(scope);
    try {
      return await scope.run(() => hostActivities(host!.taskQueue).execute({ sessionId: input.sessionId, language, code, timeoutMs: timeoutSeconds * 1000 }));
    } catch (err) {
      if (isCancellation(err)) throw ApplicationFailure.create({ type: SESSION_ENDED, message: 'Browser session has been destroyed.', nonRetryable: true });
      throw ApplicationFailure.create({
        type: 'ExecuteFailed',
        message: `Failed to execute code in browser session: ${describeHostFailure(err, host.hostId)}`,
        nonRetryable: true,
      });
    } finally {
      runningExecutes.delete(scope);
      executing--;
      lastActivity = Date.now();
      showDetails();
    }
  });

  const setStatus = (next: SessionStatus) => {
    status = next;
    upsertSearchAttributes([{ key: SessionStatusAttribute, value: next }]);
    showDetails();
  };
  showDetails();

  if (!host) {
    try {
      host = await control.pickBrowserHost(input.sessionId);
      showDetails();
      const launched = await hostActivities(host.taskQueue).launch({
        sessionId: input.sessionId,
        teamId: input.teamId,
        profile: input.profile,
        ...(input.opening && { opening: input.opening }),
        ...(input.blockAds !== undefined && { blockAds: input.blockAds }),
        ...(input.location && { location: input.location }),
      });
      openingWarning = launched?.openingWarning;
      setStatus('active');
    } catch (err) {
      failure = `the browser did not start: ${describeHostFailure(err, host?.hostId ?? 'none')}`;
    }
  }

  // The watch runs in a scope of its own: ended (cancelled) before closing or continuing as new.
  const watchScope = new CancellationScope();
  if (host && !failure) {
    const { hostId, taskQueue } = host;
    watchScope
      .run(() => hostActivities(taskQueue).watch({ sessionId: input.sessionId }))
      .then(
        (why) => (failure ??= why),
        (err) => {
          if (!isCancellation(err)) failure ??= describeHostFailure(err, hostId);
        },
      );
  }

  /** Leases past their deadline let go of the idle clock as if their executes had ended then. */
  const expireLeases = (now: number) => {
    for (const [id, deadline] of leases) {
      if (deadline > now) continue;
      leases.delete(id);
      lastActivity = Math.max(lastActivity, deadline);
    }
  };

  let reason: string;
  for (;;) {
    if (failure) {
      reason = failure;
      break;
    }
    if (destroyRequested) {
      reason = startUnanswered === undefined ? 'deleted' : `the start could not be answered: ${startUnanswered}`;
      break;
    }
    const now = Date.now();
    expireLeases(now);
    if (now >= ttlDeadline) {
      reason = 'ttl';
      break;
    }
    if (running() === 0 && now >= lastActivity + idleMs) {
      reason = 'idle';
      break;
    }
    if (running() === 0 && historyIsLong()) {
      watchScope.cancel();
      await condition(allHandlersFinished);
      return continueAsNew<typeof browserSessionWorkflow>({ ...input, running: { ...host!, lastActivityMs: lastActivity, executes } });
    }
    showDetails();
    const wakeAt = executing > 0 ? ttlDeadline : Math.min(ttlDeadline, leases.size > 0 ? Math.min(...leases.values()) : lastActivity + idleMs);
    sleepingOnLease = executing === 0 && leases.size > 0;
    await condition(
      () => destroyRequested || failure !== undefined || (sleepingOnLease && leases.size === 0) || (running() === 0 && historyIsLong()),
      Math.max(1, wakeAt - now),
    );
  }

  const { failed, unbilled } = sessionEnding({ failure, startUnanswered, status });
  endReason = reason;
  showDetails();
  watchScope.cancel();
  // An execute's activity has no heartbeat: on a lost host it would hold its caller (and this
  // run, which waits for its handlers) until the code's timeout + 60 s. Ended with the session,
  // it answers at once. Asked only with executes running, so other runs record no marker.
  if (runningExecutes.size > 0 && patched('executes-end-with-session')) for (const scope of runningExecutes) scope.cancel();
  // A start that failed is answered now, not after the close below, which on a lost host waits
  // out the pick-up timeout (10 s). Asked only when a start failed.
  if (failed && status === 'starting' && patched('failed-start-answers-first')) setStatus('error');
  if (host) {
    // A lost host cannot close anything (its browsers went with it): the attempt just times out.
    await hostActivities(host.taskQueue)
      .close({ sessionId: input.sessionId, saveProfile: !failed && (input.profile?.saveChanges ?? false) })
      .catch(() => undefined);
  }
  const final: SessionSummary['status'] = failed ? 'error' : 'destroyed';
  let sessionDurationMs = Math.max(0, Date.now() - input.createdAtMs);
  let creditsBilled: number;
  try {
    ({ creditsBilled, sessionDurationMs } = await recordEnd({
      sessionId: input.sessionId,
      status: final,
      reason,
      sessionDurationMs,
      ...(unbilled && { unbilled: true }),
    }));
  } catch (err) {
    // Every attempt to record the end failed. The session is over all the same (its browser is
    // closed, waiting callers hear `error`) and the workflow fails with why; a DELETE then finds
    // no workflow running and closes the row unbilled.
    setStatus('error');
    await condition(allHandlersFinished);
    throw err;
  }
  setStatus(final);
  await condition(allHandlersFinished);
  return { status: final, reason, sessionDurationMs, creditsBilled };
}
