import { defaultPayloadConverter } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import { describe, expect, it } from 'vitest';
import { describeActivities } from '../../support/activity-history.ts';

const at = (s: number) => ({ seconds: s, nanos: 250_000_000 });
const payloads = (v: unknown) => ({ payloads: [defaultPayloadConverter.toPayload(v)] });

describe('describeActivities', () => {
  it('tells each activity by its input, with its last attempt and how it ended', () => {
    const events: Record<string, unknown>[] = [
      { eventId: 5, eventTime: at(0), activityTaskScheduledEventAttributes: { activityType: { name: 'scrapeBatch' }, input: payloads({ batchKey: 'run:0' }) } },
      { eventId: 6, eventTime: at(1), activityTaskScheduledEventAttributes: { activityType: { name: 'scrapeBatch' }, input: payloads({ batchKey: 'run:1' }) } },
      { eventId: 7, eventTime: at(2), activityTaskStartedEventAttributes: { scheduledEventId: 5, attempt: 2 } },
      { eventId: 8, eventTime: at(3), activityTaskCompletedEventAttributes: { scheduledEventId: 5, result: payloads({ yielded: true }) } },
      { eventId: 9, eventTime: at(4), activityTaskTimedOutEventAttributes: { scheduledEventId: 6, failure: { message: 'activity Heartbeat timeout' } } },
    ];
    const lines = describeActivities(events.map((e) => temporal.api.history.v1.HistoryEvent.fromObject(e)));
    expect(lines).toEqual([
      'scrapeBatch {"batchKey":"run:0"}: scheduled 00:00:00.250; attempt 2 started 00:00:02.250; completed 00:00:03.250 {"yielded":true}',
      'scrapeBatch {"batchKey":"run:1"}: scheduled 00:00:01.250; timed out 00:00:04.250: activity Heartbeat timeout',
    ]);
  });
});
