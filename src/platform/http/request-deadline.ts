// Every API request has a deadline counted from its arrival: REQUEST_DEADLINE_MS,
// or a scrape's own `timeout` once its route has read it. A request still open
// at its deadline while PostgreSQL or Temporal does not answer is answered 503
// SERVICE_UNAVAILABLE naming that dependency, whatever it is waiting on (the
// authentication's lookup, a transaction, a workflow start): a stalled server
// holds a query until the server comes back, and no timeout inside the request
// fires sooner than a client gives up. A request open at its deadline with both
// dependencies answering is doing slow work of its own (a scrape of a slow page,
// a long execute) and goes on; it is checked again every second while it is
// open, so a dependency lost later is answered just as soon.
import type { RequestHandler, Response } from 'express';
import type { Readiness } from '../process/readiness.ts';
import { READINESS_TIMEOUT_MS } from '../process/readiness.ts';
import { sendDependencyFailure } from './errors.ts';
import type { Dependency } from '../dependency-failure.ts';

export interface RequestDeadlineSettings {
  /** How long a request may wait on a dependency that does not answer, from its arrival. */
  deadlineMs: number;
}

/** Whether the deadline has answered the request (its handler may still be running: it still settles its idempotency key). */
export function answeredAtDeadline(res: Response): boolean {
  return res.locals.answeredAtDeadline === true;
}

/** res.locals.deadline of every API request. */
export interface RequestDeadline {
  /** Date.now() when the request arrived: the start of every clock the request has (a scrape's timeout). */
  readonly arrivedAt: number;
  /** Moves the deadline to `ms` after the arrival. */
  setTimeout(ms: number): void;
}

/** How often a request past its deadline is checked again while both dependencies answer. */
const RECHECK_MS = 1000;

const DEPENDENCY_OF_CHECK: Record<string, Dependency> = { postgres: 'PostgreSQL', temporal: 'Temporal' };

export function deadlineOf(res: Response): RequestDeadline {
  return res.locals.deadline as RequestDeadline;
}

/** The first dependency `readiness` found not answering, and what it found. */
function unreadyDependency(answer: Readiness): { dependency: Dependency; reason: string } | undefined {
  for (const [name, probe] of Object.entries(answer.checks)) {
    const dependency = DEPENDENCY_OF_CHECK[name];
    if (dependency && !probe.ok) return { dependency, reason: probe.error ?? 'no answer' };
  }
  return undefined;
}

export function requestDeadline(readiness: () => Promise<Readiness>, settings: RequestDeadlineSettings): RequestHandler {
  return (_req, res, next) => {
    const arrivedAt = Date.now();
    let timer: NodeJS.Timeout | undefined;
    const open = () => !res.headersSent && !res.writableEnded && !res.destroyed;
    const check = async () => {
      if (!open()) return;
      const down = unreadyDependency(await readiness());
      if (!open()) return;
      if (down) {
        res.locals.answeredAtDeadline = true;
        sendDependencyFailure(res, down);
      } else timer = setTimeout(() => void check(), RECHECK_MS);
    };
    // The check starts a probe's timeout early, so a dependency that does not answer at all is known by the deadline.
    const schedule = (at: number) => {
      clearTimeout(timer);
      timer = setTimeout(() => void check(), Math.max(0, at - READINESS_TIMEOUT_MS - Date.now()));
    };
    res.on('close', () => clearTimeout(timer));
    res.locals.deadline = { arrivedAt, setTimeout: (ms: number) => schedule(arrivedAt + ms) } satisfies RequestDeadline;
    schedule(arrivedAt + settings.deadlineMs);
    next();
  };
}
