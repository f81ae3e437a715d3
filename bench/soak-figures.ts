// The soak's arithmetic and its printed lines: what a report period's samples of
// a process come to, the API's latencies per kind of request, and the
// comparison of the first period (the warm-up) with the last one.
import { percentile } from './percentile.ts';

/** What one look at a process finds. `connections`: its PostgreSQL client backends (for PostgreSQL itself: all of them). */
export interface ProcessSample {
  /** Bytes: the process's RSS; PostgreSQL's is the PSS of the postmaster and its backends without their shared memory (sharedMemory). */
  rss: number;
  /** PostgreSQL's shared memory as its processes have touched it (the PSS of its buffers): it fills up to shared_buffers. */
  sharedMemory?: number;
  fds: number;
  connections?: number;
  /** The process and its descendants (a worker's or a host's Chromiums): how many, and their RSS (not for PostgreSQL: its rss is the tree's). */
  procs: number;
  treeRss?: number;
}

export interface Spread {
  median: number;
  max: number;
}

export type ProcessFigures = Record<keyof ProcessSample, Spread | undefined>;

export interface Latency {
  count: number;
  p50: number;
  p95: number;
}

export interface JobCounts {
  ok: number;
  incorrect: number;
  /** Answered 429 CONCURRENCY_LIMIT (a session while its team is at its limit): neither correct nor incorrect. */
  refused: number;
}

export interface Period {
  index: number;
  startMinute: number;
  endMinute: number;
  processes: Record<string, ProcessFigures>;
  latency: Record<string, Latency>;
  jobs: Record<string, JobCounts>;
  /** Why each incorrect job of the period was wrong. */
  incorrect: string[];
  /** Warning and error lines each process logged in the period. */
  logged: Record<string, { warn: number; error: number }>;
}

/** How much a figure may move between the warm-up and the last period and still count as flat (issue 39's goal). */
export const FLAT_WITHIN = 0.1;

const MB = 1024 * 1024;
const mb = (bytes: number) => (bytes / MB).toFixed(0);

const ID_SEGMENT = /^(?=.*\d)[0-9a-z-]{16,}$/i;

/** A request's kind: its method and path, ids replaced by `:id` and the query left out; an answer other than 2xx is a kind of its own. */
export function requestKind(method: string, path: string, status: number): string {
  const segments = path.split('?')[0]!.split('/');
  return `${method} ${segments.map((s) => (ID_SEGMENT.test(s) ? ':id' : s)).join('/')}${status >= 200 && status < 300 ? '' : ` ${status}`}`;
}

export function spread(values: number[]): Spread | undefined {
  return values.length === 0 ? undefined : { median: percentile(values, 50), max: Math.max(...values) };
}

export function processFigures(samples: ProcessSample[]): ProcessFigures {
  const of = (key: keyof ProcessSample) => spread(samples.flatMap((s) => (s[key] === undefined ? [] : [s[key]])));
  return { rss: of('rss'), sharedMemory: of('sharedMemory'), fds: of('fds'), connections: of('connections'), procs: of('procs'), treeRss: of('treeRss') };
}

export function latencies(byKind: Map<string, number[]>): Record<string, Latency> {
  const out: Record<string, Latency> = {};
  for (const [kind, ms] of [...byKind].sort(([a], [b]) => a.localeCompare(b)))
    out[kind] = { count: ms.length, p50: percentile(ms, 50), p95: percentile(ms, 95) };
  return out;
}

export interface Comparison {
  what: string;
  first: number;
  last: number;
  ratio: number;
  flat: boolean;
  /** Why the goal's verdict leaves this figure out, if it does. */
  notJudged?: string;
}

/** A p95 of fewer answers is their maximum or next to it: shown, not judged. */
export const MIN_ANSWERS_JUDGED = 20;

export function compare(what: string, first: number, last: number): Comparison {
  const ratio = first === 0 ? (last === 0 ? 1 : Infinity) : last / first;
  // The epsilon keeps exactly 10 % (1.1000000000000001 in floating point) flat.
  return { what, first, last, ratio, flat: Math.abs(ratio - 1) <= FLAT_WITHIN + 1e-9 };
}

/**
 * Each process's RSS, descriptors and connections, and each request kind's p95, in the first
 * period against the last (medians of the periods' samples). The goal judges the processes' own
 * RSS and descriptors and the p95s; a tree's RSS follows how many Chromiums were alive at the
 * samples, the connections the pools' sizes.
 */
export function comparePeriods(first: Period, last: Period): Comparison[] {
  const out: Comparison[] = [];
  const shown = {
    treeRss: 'Chromiums alive at the samples',
    connections: 'pool sizes',
    sharedMemory: 'buffers filling, bounded by shared_buffers',
  } as Record<string, string | undefined>;
  for (const [name, figures] of Object.entries(last.processes)) {
    for (const [key, label] of [
      ['rss', 'rss MB'],
      ['treeRss', 'tree rss MB'],
      ['sharedMemory', 'shared memory MB'],
      ['fds', 'fds'],
      ['connections', 'db connections'],
    ] as const) {
      const a = first.processes[name]?.[key];
      const b = figures[key];
      // A tree that never had a child is the process itself.
      if (!a || !b || (key === 'treeRss' && Math.max(first.processes[name]!.procs?.max ?? 1, figures.procs?.max ?? 1) === 1)) continue;
      const scale = key === 'rss' || key === 'treeRss' || key === 'sharedMemory' ? 1 / MB : 1;
      out.push({ ...compare(`${name} ${label}`, a.median * scale, b.median * scale), notJudged: shown[key] });
    }
  }
  for (const [kind, b] of Object.entries(last.latency)) {
    const a = first.latency[kind];
    if (!a) continue;
    const few = Math.min(a.count, b.count) < MIN_ANSWERS_JUDGED ? `fewer than ${MIN_ANSWERS_JUDGED} answers` : undefined;
    out.push({ ...compare(`p95 ms ${kind}`, a.p95, b.p95), notJudged: few });
  }
  return out;
}

/** The lines a period prints: jobs, one per process, one per request kind. */
export function periodLines(p: Period): string[] {
  const jobs = Object.entries(p.jobs)
    .map(([kind, c]) => `${kind} ${c.ok} ok${c.incorrect ? ` ${c.incorrect} INCORRECT` : ''}${c.refused ? ` (${c.refused} refused at the team's limit)` : ''}`)
    .join(', ');
  const lines = [`period ${p.index} (minute ${p.startMinute.toFixed(1)}-${p.endMinute.toFixed(1)}): jobs ended: ${jobs || 'none'}`];
  for (const [name, f] of Object.entries(p.processes)) {
    const col = (label: string, s: Spread | undefined, fmt: (n: number) => string, width: number) =>
      s ? `${label} ${fmt(s.median).padStart(width)} (max ${fmt(s.max).padStart(width)})` : `${label} ${'-'.padStart(width)}${' '.repeat(width + 7)}`;
    const treeMb = (s: Spread | undefined, at: keyof Spread) => (s ? ` ${mb(s[at])} MB` : '');
    const tree =
      f.procs && f.procs.max > 1
        ? `   tree ${f.procs.median.toFixed(0)} procs${treeMb(f.treeRss, 'median')} (max ${f.procs.max} procs${treeMb(f.treeRss, 'max')})`
        : '';
    const shared = f.sharedMemory ? `   shared MB ${mb(f.sharedMemory.median)} (max ${mb(f.sharedMemory.max)})` : '';
    const logged = p.logged[name];
    const log = logged && (logged.warn || logged.error) ? `   logged ${logged.warn} warn, ${logged.error} error` : '';
    lines.push(
      `  ${name.padEnd(13)} ${col('rss MB', f.rss, mb, 5)}   ${col('fds', f.fds, String, 4)}   ${col('db conns', f.connections, String, 3)}${shared}${tree}${log}`,
    );
  }
  for (const [kind, l] of Object.entries(p.latency)) {
    lines.push(
      `  ${kind.padEnd(36)} ${String(l.count).padStart(6)} requests   p50 ${l.p50.toFixed(0).padStart(6)} ms   p95 ${l.p95.toFixed(0).padStart(6)} ms`,
    );
  }
  for (const why of p.incorrect) lines.push(`  INCORRECT ${why}`);
  return lines;
}

export function comparisonLines(rows: Comparison[]): string[] {
  const fmt = (n: number) => (Number.isFinite(n) ? (n >= 100 ? n.toFixed(0) : n.toFixed(1)) : 'inf');
  return rows.map(
    (r) =>
      `  ${r.what.padEnd(44)} ${fmt(r.first).padStart(8)} -> ${fmt(r.last).padStart(8)}   x${(Number.isFinite(r.ratio) ? r.ratio.toFixed(2) : 'inf').padStart(5)}   ${r.flat ? 'flat' : r.ratio > 1 ? 'GREW' : 'fell'}${r.notJudged ? ` (not judged: ${r.notJudged})` : ''}`,
  );
}
