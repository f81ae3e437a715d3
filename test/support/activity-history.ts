// A stuck job's activities as its workflow's history tells them, one line per
// activity: which batch it ran (its input's batchKey), each attempt started and
// how it ended. Two attempts of one batch at once, or a batch that ended while
// its rows stayed claimed, show here and nowhere else.
import { defaultPayloadConverter } from '@temporalio/common';
import type { temporal } from '@temporalio/proto';

type HistoryEvent = temporal.api.history.v1.IHistoryEvent;
type Payloads = temporal.api.common.v1.IPayloads | null | undefined;

interface ActivityLine {
  name: string;
  input: string;
  events: string[];
}

const seconds = (e: HistoryEvent) =>
  e.eventTime?.seconds !== undefined && e.eventTime?.seconds !== null
    ? new Date(Number(e.eventTime.seconds) * 1000 + Math.floor((e.eventTime.nanos ?? 0) / 1e6)).toISOString().slice(11, 23)
    : '?';

/** The first payload as JSON, cut short: a batch's key and size, a result's counts. */
function firstPayload(payloads: Payloads): string {
  const payload = payloads?.payloads?.[0];
  if (!payload) return '';
  try {
    return JSON.stringify(defaultPayloadConverter.fromPayload(payload)).slice(0, 200);
  } catch {
    return '(undecodable)';
  }
}

export function describeActivities(events: HistoryEvent[]): string[] {
  const byScheduled = new Map<string, ActivityLine>();
  const of = (scheduledEventId: unknown) => byScheduled.get(String(scheduledEventId));
  for (const e of events) {
    const at = seconds(e);
    const scheduled = e.activityTaskScheduledEventAttributes;
    if (scheduled) {
      byScheduled.set(String(e.eventId), { name: scheduled.activityType?.name ?? '?', input: firstPayload(scheduled.input), events: [`scheduled ${at}`] });
      continue;
    }
    const started = e.activityTaskStartedEventAttributes;
    if (started) of(started.scheduledEventId)?.events.push(`attempt ${started.attempt ?? 1} started ${at}`);
    const completed = e.activityTaskCompletedEventAttributes;
    if (completed) of(completed.scheduledEventId)?.events.push(`completed ${at} ${firstPayload(completed.result)}`);
    const failed = e.activityTaskFailedEventAttributes;
    if (failed) of(failed.scheduledEventId)?.events.push(`failed ${at}: ${failed.failure?.message ?? ''}`);
    const timedOut = e.activityTaskTimedOutEventAttributes;
    if (timedOut) of(timedOut.scheduledEventId)?.events.push(`timed out ${at}: ${timedOut.failure?.message ?? ''}`);
    const cancelled = e.activityTaskCanceledEventAttributes;
    if (cancelled) of(cancelled.scheduledEventId)?.events.push(`cancelled ${at}`);
  }
  return [...byScheduled.values()].map((a) => `${a.name} ${a.input}: ${a.events.join('; ')}`);
}
