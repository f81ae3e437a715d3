// Where an execute's round trip goes, for bench:browser: the caller's and the
// gateway's times of each execute beside the session workflow's history, whose
// events carry the Temporal server's times (all processes share one clock here).
import type { WorkflowClientInterceptor } from '@temporalio/client';
import protos, { type temporal } from '@temporalio/proto';

type HistoryEvent = temporal.api.history.v1.IHistoryEvent;
const EventType = protos.temporal.api.enums.v1.EventType;

/** One execute as the bench and the gateway saw it: wall-clock ms (Date.now()). */
export interface ExecuteTimes {
  sent: number;
  updateSent?: number;
  updateAnswered?: number;
  answered: number;
}

/** The gateway's Update calls, in order: record() starts a list, the interceptor fills it. */
export function updateTimer() {
  let current: ExecuteTimes | undefined;
  const interceptor: WorkflowClientInterceptor = {
    async startUpdate(input, next) {
      const times = current;
      if (times) times.updateSent = Date.now();
      try {
        return await next(input);
      } finally {
        if (times) times.updateAnswered = Date.now();
      }
    },
  };
  return {
    interceptor,
    /** Times one execute request: run is the whole HTTP call. */
    async record(run: () => Promise<unknown>): Promise<ExecuteTimes> {
      const times: ExecuteTimes = { sent: Date.now(), answered: 0 };
      current = times;
      try {
        await run();
      } finally {
        current = undefined;
        times.answered = Date.now();
      }
      return times;
    },
  };
}

interface TaskTimes {
  scheduled: number;
  started: number;
  completed: number;
}

/** The server's times of one execute Update: the workflow task that accepted it, its activity, the task that completed it. */
interface UpdateTimes {
  accept: TaskTimes;
  activity: TaskTimes;
  complete: TaskTimes;
}

const ms = (event: HistoryEvent) => Number(event.eventTime?.seconds ?? 0) * 1000 + (event.eventTime?.nanos ?? 0) / 1e6;

/** The execute Updates of a session's history, in order. */
export function executeUpdatesOf(events: HistoryEvent[]): UpdateTimes[] {
  const updates: UpdateTimes[] = [];
  let task: Partial<TaskTimes> = {};
  let open: { accept: TaskTimes; activity: Partial<TaskTimes>; activityId?: string; complete?: Partial<TaskTimes> } | undefined;
  for (const event of events) {
    switch (event.eventType) {
      case EventType.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED:
        task = { scheduled: ms(event) };
        break;
      case EventType.EVENT_TYPE_WORKFLOW_TASK_STARTED:
        task.started = ms(event);
        break;
      case EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED:
        task.completed = ms(event);
        if (open?.activity.completed !== undefined && !open.complete) open.complete = { ...task };
        break;
      case EventType.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED:
        if (event.workflowExecutionUpdateAcceptedEventAttributes?.acceptedRequest?.input?.name === 'execute')
          open = { accept: task as TaskTimes, activity: {} };
        break;
      case EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED:
        if (open && event.activityTaskScheduledEventAttributes?.activityType?.name === 'executeInBrowserSession') {
          open.activity.scheduled = ms(event);
          open.activityId = String(event.eventId);
        }
        break;
      case EventType.EVENT_TYPE_ACTIVITY_TASK_STARTED:
        if (open && String(event.activityTaskStartedEventAttributes?.scheduledEventId) === open.activityId) open.activity.started = ms(event);
        break;
      case EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED:
        if (open && String(event.activityTaskCompletedEventAttributes?.scheduledEventId) === open.activityId) open.activity.completed = ms(event);
        break;
      case EventType.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_COMPLETED:
        if (open?.complete) updates.push({ accept: open.accept, activity: open.activity as TaskTimes, complete: open.complete as TaskTimes });
        open = undefined;
        break;
    }
  }
  return updates;
}

/** The phases of each execute, named, in ms: the caller's times matched in order with the history's Updates. */
export function executePhases(calls: ExecuteTimes[], updates: UpdateTimes[], sandboxMs: number[]): Record<string, number[]> {
  const phases: Record<string, number[]> = {
    'HTTP and gateway, before the Update': [],
    'Update sent -> workflow task started': [],
    'workflow task (accept, schedule)': [],
    'activity dispatch to the host': [],
    'host activity, besides the sandbox': [],
    'activity done -> workflow task started': [],
    'workflow task (complete the Update)': [],
    'Update result back to the gateway': [],
    'gateway and HTTP, after the Update': [],
  };
  const n = Math.min(calls.length, updates.length, sandboxMs.length);
  const offset = updates.length - n;
  for (let i = 0; i < n; i++) {
    const c = calls[calls.length - n + i];
    const u = updates[offset + i];
    const values = [
      c.updateSent! - c.sent,
      u.accept.started - c.updateSent!,
      u.accept.completed - u.accept.started,
      u.activity.started - u.accept.completed,
      u.activity.completed - u.activity.started - sandboxMs[sandboxMs.length - n + i],
      u.complete.started - u.activity.completed,
      u.complete.completed - u.complete.started,
      c.updateAnswered! - u.complete.completed,
      c.answered - c.updateAnswered!,
    ];
    Object.values(phases).forEach((list, k) => list.push(values[k]));
  }
  return phases;
}
