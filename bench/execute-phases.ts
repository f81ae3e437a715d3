// Where an execute's round trip goes, for bench:browser: the caller's and the
// gateway's times of each execute beside the session workflow's history, whose
// events carry the Temporal server's times (all processes share one clock here):
// the gateway, the admitExecute Update's workflow task, and the relay to the host.
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

const ms = (event: HistoryEvent) => Number(event.eventTime?.seconds ?? 0) * 1000 + (event.eventTime?.nanos ?? 0) / 1e6;

/** The workflow tasks that admitted each execute (its admitExecute Update), in order. */
export function executeAdmissionsOf(events: HistoryEvent[]): TaskTimes[] {
  const admissions: TaskTimes[] = [];
  let task: Partial<TaskTimes> = {};
  let admitted = false;
  for (const event of events) {
    switch (event.eventType) {
      case EventType.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED:
        task = { scheduled: ms(event) };
        admitted = false;
        break;
      case EventType.EVENT_TYPE_WORKFLOW_TASK_STARTED:
        task.started = ms(event);
        break;
      case EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED:
        task.completed = ms(event);
        break;
      case EventType.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED:
        admitted = event.workflowExecutionUpdateAcceptedEventAttributes?.acceptedRequest?.input?.name === 'admitExecute';
        break;
      case EventType.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_COMPLETED:
        if (admitted) admissions.push(task as TaskTimes);
        admitted = false;
        break;
    }
  }
  return admissions;
}

/** The phases of each execute, named, in ms: the caller's times matched in order with the history's admissions. */
export function executePhases(calls: ExecuteTimes[], admissions: TaskTimes[], sandboxMs: number[]): Record<string, number[]> {
  const phases: Record<string, number[]> = {
    'HTTP and gateway, before the Update': [],
    'Update sent -> workflow task started': [],
    'workflow task (admit)': [],
    'Update result back to the gateway': [],
    'relay to the host and back, HTTP, besides the sandbox': [],
  };
  const n = Math.min(calls.length, admissions.length, sandboxMs.length);
  for (let i = 0; i < n; i++) {
    const c = calls[calls.length - n + i];
    const a = admissions[admissions.length - n + i];
    const values = [
      c.updateSent! - c.sent,
      a.started - c.updateSent!,
      a.completed - a.started,
      c.updateAnswered! - a.completed,
      c.answered - c.updateAnswered! - sandboxMs[sandboxMs.length - n + i],
    ];
    Object.values(phases).forEach((list, k) => list.push(values[k]));
  }
  return phases;
}
