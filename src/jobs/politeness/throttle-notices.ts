// A job's workflow learns that its pages wait for a throttled host (its current
// details say so) from a signal its batch sends: once per host and pause, and at
// most once a second per host however many of its pages wait.
import type { Context } from '@temporalio/activity';
import { hostThrottledSignal, type HostThrottle } from '../definitions.ts';

const MIN_GAP_MS = 1000;

export function throttleNotices(send: (t: HostThrottle) => void): (host: string, until: number) => void {
  const told = new Map<string, { until: number; at: number }>();
  return (host, until) => {
    const last = told.get(host);
    const now = Date.now();
    if (last && (until <= last.until || now - last.at < MIN_GAP_MS)) return;
    told.set(host, { until, at: now });
    send({ host, until });
  };
}

/** Signals the activity's own workflow; a signal that fails costs only the details, so it is only logged. */
export function signalOwnWorkflow(activity: Context, warn: (message: string, fields: Record<string, unknown>) => void): (t: HostThrottle) => void {
  return (t) => {
    try {
      const workflowId = activity.info.workflowExecution?.workflowId;
      if (workflowId === undefined) return;
      activity.client.workflow
        .getHandle(workflowId)
        .signal(hostThrottledSignal, t)
        .catch((err: unknown) => warn('throttled host not told to the workflow', { host: t.host, error: (err as Error).message }));
    } catch (err) {
      // An activity run without a Temporal client (a test's mock environment) has no workflow to tell.
      warn('throttled host not told to the workflow', { host: t.host, error: (err as Error).message });
    }
  };
}
