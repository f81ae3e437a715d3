// Every API request has a deadline counted from its arrival: REQUEST_DEADLINE_MS,
// or a scrape's own `timeout` once its route has read it. A request still open
// at its deadline while PostgreSQL or Temporal does not answer is answered 503
// SERVICE_UNAVAILABLE naming that dependency, whatever it is waiting on (the
// authentication's lookup, a transaction, a workflow start): a stalled server
// holds a query until the server comes back, and no timeout inside the request
// fires sooner than a client gives up. A request open at its deadline with both
// dependencies answering is doing slow work of its own (a scrape of a slow page,
// a long execute) and goes on; it is checked again four times a second while it
// is open, so a dependency lost later is answered just as soon.
//
// The checks are a readiness of their own, quicker than /health/ready's: a probe
// gets 1 s and an answer serves for 0.25 s, and a request's checks begin that long
// before its deadline, so a dependency that stops answering at any moment is
// known, and the request answered, within 1.5 s (a probe, its cache, a recheck):
// an answer is promised within 2 s of the deadline, and a loaded machine's late
// timers need the rest.
import type { RequestHandler, Response } from 'express';
import { cachedReadiness, type Check, type Readiness } from '../process/readiness.ts';
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

const PROBE_TIMEOUT_MS = 1000;
const PROBE_CACHE_MS = 250;
/** How often an open request is checked again while both dependencies answer. */
const RECHECK_MS = 250;
/** How long before its deadline a request's checks begin: a probe's timeout, its cache and a recheck. */
export const CHECKS_LEAD_MS = PROBE_TIMEOUT_MS + PROBE_CACHE_MS + RECHECK_MS;

const DEPENDENCY_OF_CHECK: Record<string, Dependency> = { postgres: 'PostgreSQL', temporal: 'Temporal' };

export function deadlineOf(res: Response): RequestDeadline {
  return res.locals.deadline as RequestDeadline;
}

/**
 * Whether the request still waits for its handler's answer: not once it was answered at its deadline
 * (a 503 tells the client to send it again) or its client went away. Work that must not happen twice
 * (code run in a browser) does not begin for a request no longer waiting.
 */
export function stillWaiting(res: Response): boolean {
  return !answeredAtDeadline(res) && !res.headersSent && !res.destroyed;
}

/** The first dependency `readiness` found not answering, and what it found. */
function unreadyDependency(answer: Readiness): { dependency: Dependency; reason: string } | undefined {
  for (const [name, probe] of Object.entries(answer.checks)) {
    const dependency = DEPENDENCY_OF_CHECK[name];
    if (dependency && !probe.ok) return { dependency, reason: probe.error ?? 'no answer' };
  }
  return undefined;
}

/** `checks`: PostgreSQL's and Temporal's (readiness.ts serviceChecks). */
export function requestDeadline(checks: Record<string, Check>, settings: RequestDeadlineSettings): RequestHandler {
  const readiness = cachedReadiness(checks, { timeoutMs: PROBE_TIMEOUT_MS, cacheMs: PROBE_CACHE_MS });
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
    const schedule = (at: number) => {
      clearTimeout(timer);
      timer = setTimeout(() => void check(), Math.max(0, at - CHECKS_LEAD_MS - Date.now()));
    };
    res.on('close', () => clearTimeout(timer));
    res.locals.deadline = { arrivedAt, setTimeout: (ms: number) => schedule(arrivedAt + ms) } satisfies RequestDeadline;
    schedule(arrivedAt + settings.deadlineMs);
    next();
  };
}
