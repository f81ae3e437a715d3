// Where one scrape's round trip went, step by step, from clocks that saw each step rather than
// from guesses: the gateway's Server-Timing marks (src/platform/http/server-timing.ts), the
// workflow's history (event times written by the Temporal server), and the worker's "page
// timings" line (fetch, conversion, storage, and when the page was committed). All are clocks of
// this machine in epoch ms, so they line up; each step runs from the previous step's end to its
// own, and the steps add up to the round trip.
import protos from '@temporalio/proto';

/** One entry of a Server-Timing header: `name;dur=ms` or `name;desc=value`. */
export interface TimingEntry {
  name: string;
  dur?: number;
  desc?: string;
}

export function parseServerTiming(header: string | null): TimingEntry[] {
  if (!header) return [];
  return header.split(',').map((part) => {
    const [name, ...params] = part.trim().split(';');
    const entry: TimingEntry = { name };
    for (const p of params) {
      const [k, v] = p.split('=');
      if (k === 'dur') entry.dur = Number(v);
      if (k === 'desc') entry.desc = v.replace(/^"|"$/g, '');
    }
    return entry;
  });
}

/** The worker's "page timings" line of the scrape's page. */
export interface PageTimings {
  loadMs?: number;
  convertMs?: number;
  storeMs?: number;
  storedAt?: number;
  browserMs?: number;
  /** The first workflow task's local activity (openSingleScrape), from the worker's "open timings" line. */
  openMs?: number;
}

/** A timed scrape as the bench saw it: when it was sent and answered (epoch ms), and the answer's Server-Timing. */
export interface TimedScrape {
  id: string;
  sentAt: number;
  answeredAt: number;
  timing: TimingEntry[];
}

/** The gateway's marks as times (epoch ms): each step's end, by name, from the arrival's time and the durations. */
export function gatewayMarks(timing: TimingEntry[]): { arrived: number; ends: Map<string, number> } | undefined {
  const arrived = Number(timing.find((t) => t.name === 'arrived')?.desc);
  if (!Number.isFinite(arrived)) return undefined;
  const ends = new Map<string, number>();
  let at = arrived;
  for (const t of timing) {
    if (t.dur === undefined) continue;
    at += t.dur;
    ends.set(t.name, at);
  }
  return { arrived, ends };
}

type HistoryEvent = { type: number; at: number; activity?: string | null };

const Type = protos.temporal.api.enums.v1.EventType;

/** The steps of a scrape answered through its workflow, in order. */
export const WORKFLOW_STEPS = [
  'HTTP in, authentication and rate limit',
  'body, activity log hook, idempotency claim',
  'request checks (address lookup, options)',
  'page cache and resume key lookup',
  'job row, frontier row, started event (1 tx)',
  'workflow start (call -> WorkflowExecutionStarted)',
  'first workflow task: scheduled -> picked up',
  'first workflow task: openSingleScrape local activity',
  'first workflow task: the rest (activation, commands, completion)',
  'page activity: scheduled -> picked up by a worker',
  'batch setup (attempt record, claim, slot; Chromium: context)',
  'page load (HTTP fetch or Chromium)',
  'conversion (HTML -> document, links)',
  'storage (page, charge, cache: 1 tx)',
  'page committed -> gateway knows (notification)',
  'answer read (job row and page)',
  'answer out (activity log row, HTTP)',
] as const;

/**
 * The scrape's steps (ms, WORKFLOW_STEPS' order), from its Server-Timing, its history and its page
 * line; undefined when one of them lacks a mark (the scrape was not answered by its workflow).
 */
export function workflowSplit(run: TimedScrape, history: protos.temporal.api.history.v1.IHistory, page: PageTimings): number[] | undefined {
  const gw = gatewayMarks(run.timing);
  const events: HistoryEvent[] = (history.events ?? []).map((e) => ({
    type: e.eventType!,
    at: Number(e.eventTime!.seconds) * 1000 + e.eventTime!.nanos! / 1e6,
    activity: e.activityTaskScheduledEventAttributes?.activityType?.name,
  }));
  const find = (type: number, from = 0) => events.find((e, i) => i >= from && e.type === type);
  const batch = events.findIndex((e) => e.activity === 'scrapeBatch');
  const batchStarted = batch >= 0 ? find(Type.EVENT_TYPE_ACTIVITY_TASK_STARTED, batch) : undefined;
  const started = find(Type.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED);
  const wftStarted = find(Type.EVENT_TYPE_WORKFLOW_TASK_STARTED);
  const wftCompleted = find(Type.EVENT_TYPE_WORKFLOW_TASK_COMPLETED);
  const { loadMs = 0, convertMs = 0, storeMs = 0, storedAt } = page;
  const end = (name: string) => gw?.ends.get(name);
  const marks = [
    run.sentAt,
    end('auth'),
    end('claim'),
    end('checks'),
    end('lookup'),
    end('job'),
    started?.at,
    wftStarted?.at,
    wftStarted === undefined || page.openMs === undefined ? undefined : wftStarted.at + page.openMs,
    wftCompleted?.at,
    batchStarted?.at,
    storedAt === undefined ? undefined : storedAt - storeMs - convertMs - loadMs,
    storedAt === undefined ? undefined : storedAt - storeMs - convertMs,
    storedAt === undefined ? undefined : storedAt - storeMs,
    storedAt,
    end('page'),
    end('answer'),
    run.answeredAt,
  ];
  if (marks.some((m) => m === undefined)) return undefined;
  const at = marks as number[];
  return at.slice(1).map((t, i) => t - at[i]);
}

/** The steps of a scrape the gateway answered from the page cache, without a workflow. */
export const CACHED_STEPS = [
  'HTTP in, authentication and rate limit',
  'body, activity log hook, idempotency claim',
  'request checks (address lookup, options)',
  'page cache and resume key lookup',
  'document from the cached load',
  'job, page, charge, end, activity log (1 tx)',
  'answer out (HTTP)',
] as const;

/** The steps of a scrape answered from the cache in the gateway (CACHED_STEPS' order), or undefined. */
export function cachedSplit(run: TimedScrape): number[] | undefined {
  const gw = gatewayMarks(run.timing);
  const marks = [run.sentAt, ...['auth', 'claim', 'checks', 'lookup', 'convert', 'commit'].map((n) => gw?.ends.get(n)), run.answeredAt];
  if (marks.some((m) => m === undefined)) return undefined;
  const at = marks as number[];
  return at.slice(1).map((t, i) => t - at[i]);
}
