// Each page request's turn at its host, from the host budget every job, team and
// worker shares (host_acquire in PostgreSQL decides; host-leases.ts), and its end,
// which tells the budget what the answer said (host-rate.ts). A request that may
// not start yet waits here: until its host's pause or interval has passed, or
// (busy, or another team's turn) until a request of that host ends in this
// process or a short poll. It asks again at least every second, so its waiting
// row stays fresh for the fairness between teams and lapses soon after it stops.
// A turn whose request ended well is parked for a moment and ended by the next
// ask of its host in this process (one statement a page instead of two), or on
// its own once the moment passes. While a host is wide open (host_acquire says
// so: nothing in its budget could refuse a request), a parked turn is handed on
// to the next request of the same host and team in this process with no
// statement at all, for HAND_ON_MS after the database granted it: the lease row
// stays, so the host's count in flight is exact; the database hears of the
// host again at the latest when that moment ends. A throttled or slow answer in
// this process ends that for every turn granted before it: the next request of
// the host asks the database, which has heard of the answer.
import { randomUUID } from 'node:crypto';
import { retryInBackground } from '../../platform/retry-in-background.ts';
import type { HostBudgetSettings } from './config.ts';
import { budgetKey, hostOutcome, type HostAnswer } from './host-answer.ts';
import { askTurn, endTurn, type BudgetDb, type WaitReason } from './host-leases.ts';
import { countHostAnswer, countHostTurn, countHostWait } from './host-metrics.ts';
import { backoffJitter, type HostOutcome } from './host-rate.ts';

/** A turn lapses this long after its request's own timeout, should its worker die holding it. */
const LEASE_MARGIN_MS = 30_000;
/** A waiter asks again at least this often; its waiting row lapses after WAITER_MS without an ask. */
const REFRESH_MS = 1_000;
const WAITER_MS = 3_000;
/** Polls while the host is busy or another team goes first (a turn ending in this process wakes them sooner). */
const POLL = { first: 10, max: 250 };
const RELEASE_RETRY_MS = 1_000;
/** How long a turn that ended well waits for the next ask of its host to end it; the host counts it in flight meanwhile. */
const PARK_MS = 25;
/**
 * How long after its grant a wide-open turn may be handed on in this process. The most a change at
 * the host (another team starting to wait there) goes unseen by this process's requests.
 */
const HAND_ON_MS = 500;

/**
 * How long a turn that ended well stays parked: a wide-open one until its hand-on moment ends (its
 * worker's next request of the host takes it, however slowly pages come), any other PARK_MS.
 */
function parkMs(handOn: HandOn | undefined): number {
  return handOn ? Math.max(PARK_MS, handOn.until - performance.now()) : PARK_MS;
}

/** A granted turn that may be handed on: its team, when it was asked for and until when (performance.now()), and when its lease lapses at the soonest. */
interface HandOn {
  teamId: string;
  askedAt: number;
  until: number;
  lapsesAt: number;
}

interface Parked {
  holder: string;
  timer: NodeJS.Timeout;
  handOn?: HandOn;
}

export interface TurnRequest {
  url: string;
  teamId: string;
  /** The request's attempt (a batch attempt, a map): holders are `<prefix>:<process>:<n>`. */
  holderPrefix: string;
  /** robots.txt's Crawl-delay for the URL when the request honours it. */
  crawlDelayMs?: number;
  /** The request's own time limit; its turn lapses some time after it. */
  timeoutMs: number;
  signal?: AbortSignal;
  /** The host is paused (it throttled): told while the request waits for it and when an answer pauses it. */
  onThrottled?(host: string, until: number): void;
}

export interface HostTurn {
  readonly host: string;
  /** How long the request waited for its turn. */
  readonly waitedMs: number;
  /** Ends the turn with the host's answer (none for a request that got no answer) and says what the answer meant. */
  end(answer: HostAnswer | undefined): Promise<HostOutcome>;
}

export interface HostGateDeps {
  db: BudgetDb;
  settings: HostBudgetSettings;
  /** Where a release that failed is reported; it is retried until the turn would lapse anyway. */
  warn(message: string, fields: Record<string, unknown>): void;
  random?: () => number;
}

/** One per worker process and database: its waiters are woken by the turns its requests end. */
export class HostGate {
  readonly #deps: HostGateDeps;
  readonly #process = randomUUID().slice(0, 8);
  #seq = 0;
  readonly #waiting = new Map<string, Set<() => void>>();
  /** Turns that ended well, by host, not yet ended in the database. */
  readonly #parked = new Map<string, Parked[]>();
  /** When a request of the host last had a throttled, slow or no answer here (performance.now()): no turn granted before it is handed on. */
  readonly #troubled = new Map<string, number>();

  constructor(deps: HostGateDeps) {
    this.#deps = deps;
  }

  async take(req: TurnRequest): Promise<HostTurn> {
    const s = this.#deps.settings;
    const host = budgetKey(req.url);
    const holder = `${req.holderPrefix}:${this.#process}:${++this.#seq}`;
    const crawlDelay = Math.min(req.crawlDelayMs ?? 0, s.hostMaxCrawlDelaySeconds * 1000);
    const leaseMs = req.timeoutMs + LEASE_MARGIN_MS;
    const intervalMs = Math.max(s.hostMinIntervalMs, crawlDelay);
    req.signal?.throwIfAborted();
    const handed = intervalMs === 0 ? this.#handOn(host, req) : undefined;
    if (handed) {
      countHostTurn('handed_on');
      return this.#turn(host, handed.holder, 0, req, handed.handOn);
    }
    const started = performance.now();
    let handOn: HandOn | undefined;
    let firstReason: WaitReason | undefined;
    let poll = POLL.first;
    for (;;) {
      req.signal?.throwIfAborted();
      const doneHolder = this.#unpark(host);
      const asked = performance.now();
      const answer = await askTurn(this.#deps.db, {
        host,
        holder,
        teamId: req.teamId,
        maxConcurrency: s.hostMaxConcurrency,
        intervalMs,
        leaseMs,
        waitMs: WAITER_MS,
        doneHolder,
      }).catch((err: unknown) => {
        // The turn may have been granted before the connection dropped: it is given back rather than left to lapse.
        void this.#release(host, holder, { kind: 'none' });
        if (doneHolder) void this.#release(host, doneHolder, { kind: 'ok' });
        throw err;
      });
      if (answer.granted) {
        // `asked` is before the database's clock read the grant, so the lease lapses no sooner than this says.
        if (answer.wideOpen) handOn = { teamId: req.teamId, askedAt: asked, until: asked + HAND_ON_MS, lapsesAt: asked + leaseMs };
        break;
      }
      firstReason ??= answer.reason;
      if (answer.reason === 'paused') req.onThrottled?.(host, Date.now() + answer.waitMs);
      let ms = poll;
      if (answer.waitMs > 0) ms = Math.min(REFRESH_MS, answer.waitMs + Math.floor((this.#deps.random ?? Math.random)() * POLL.first));
      else poll = Math.min(POLL.max, poll * 2);
      try {
        await this.#sleep(host, ms, answer.waitMs === 0, req.signal);
      } catch (err) {
        this.#release(host, holder, { kind: 'none' });
        throw err;
      }
    }
    const waitedMs = performance.now() - started;
    if (firstReason) countHostWait(firstReason, waitedMs);
    countHostTurn('database');
    return this.#turn(host, holder, waitedMs, req, handOn);
  }

  #turn(host: string, holder: string, waitedMs: number, req: TurnRequest, handOn: HandOn | undefined): HostTurn {
    let ended: Promise<HostOutcome> | undefined;
    return {
      host,
      waitedMs,
      end: (answer) => (ended ??= this.#end(host, holder, answer, req, handOn)),
    };
  }

  /** A parked turn of the host this request may take over: wide open, the same team, in time, and with a lease that outlives the request. */
  #handOn(host: string, req: TurnRequest): Parked | undefined {
    const parked = this.#parked.get(host);
    if (!parked) return undefined;
    const now = performance.now();
    const troubledAt = this.#troubled.get(host) ?? -Infinity;
    const at = parked.findIndex(
      ({ handOn: h }) =>
        h !== undefined && h.teamId === req.teamId && h.askedAt > troubledAt && now < h.until && now + req.timeoutMs + LEASE_MARGIN_MS / 2 <= h.lapsesAt,
    );
    if (at < 0) return undefined;
    const [taken] = parked.splice(at, 1);
    clearTimeout(taken.timer);
    if (parked.length === 0) this.#parked.delete(host);
    return taken;
  }

  async #end(host: string, holder: string, answer: HostAnswer | undefined, req: TurnRequest, handOn: HandOn | undefined): Promise<HostOutcome> {
    const s = this.#deps.settings;
    const outcome: HostOutcome = answer
      ? hostOutcome(answer, { retryAfterCapMs: s.hostRetryAfterMaxSeconds * 1000, slowMs: s.hostSlowResponseMs }, Date.now())
      : { kind: 'none' };
    if (outcome.kind === 'throttled') countHostAnswer(outcome.status === 429 ? '429' : '503');
    else if (outcome.kind === 'slow') countHostAnswer('slow');
    if (outcome.kind === 'ok') {
      this.#park(host, holder, handOn);
      return outcome;
    }
    this.#troubledNow(host);
    const paused = await this.#release(host, holder, outcome);
    if (paused && paused.getTime() > Date.now()) req.onThrottled?.(host, paused.getTime());
    return outcome.kind === 'throttled' && paused ? { ...outcome, pausedUntil: paused.getTime() } : outcome;
  }

  /** Turns granted before now are handed on no more; marks older than any turn that could still be handed on are forgotten. */
  #troubledNow(host: string): void {
    const now = performance.now();
    for (const [h, at] of this.#troubled) if (now - at > HAND_ON_MS) this.#troubled.delete(h);
    this.#troubled.set(host, now);
  }

  #park(host: string, holder: string, handOn: HandOn | undefined): void {
    const parked = this.#parked.get(host) ?? [];
    this.#parked.set(host, parked);
    const timer = setTimeout(() => {
      const at = parked.findIndex((p) => p.holder === holder);
      if (at < 0) return;
      parked.splice(at, 1);
      if (parked.length === 0 && this.#parked.get(host) === parked) this.#parked.delete(host);
      void this.#release(host, holder, { kind: 'ok' });
    }, parkMs(handOn));
    parked.push({ holder, timer, handOn });
    // A waiter of the host in this process asks now, and ends the parked turn with its ask.
    for (const wake of this.#waiting.get(host) ?? []) wake();
  }

  #unpark(host: string): string | undefined {
    const parked = this.#parked.get(host);
    const first = parked?.shift();
    if (!first) return undefined;
    clearTimeout(first.timer);
    if (parked!.length === 0) this.#parked.delete(host);
    return first.holder;
  }

  /** Ends the turn; a failed release is made again in the background (the turn would lapse anyway). */
  async #release(host: string, holder: string, outcome: HostOutcome): Promise<Date | undefined> {
    const s = this.#deps.settings;
    const end = {
      host,
      holder,
      outcome,
      maxConcurrency: s.hostMaxConcurrency,
      backoffBaseMs: s.hostBackoffBaseMs,
      backoffMaxMs: s.hostBackoffMaxMs,
      jitter: backoffJitter(this.#deps.random),
    };
    try {
      return await retryInBackground(() => endTurn(this.#deps.db, end), { everyMs: RELEASE_RETRY_MS, forMs: WAITER_MS + LEASE_MARGIN_MS });
    } catch (err) {
      this.#deps.warn('host turn release failed; tried again in the background', { host, error: (err as Error).message });
      return undefined;
    } finally {
      for (const wake of this.#waiting.get(host) ?? []) wake();
    }
  }

  /** `wakeable`: a turn of the host ending in this process ends the sleep early. */
  #sleep(host: string, ms: number, wakeable: boolean, signal: AbortSignal | undefined): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      let set = this.#waiting.get(host);
      if (wakeable && !set) this.#waiting.set(host, (set = new Set()));
      const finish = (error?: unknown) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', aborted);
        set?.delete(wake);
        if (set?.size === 0 && this.#waiting.get(host) === set) this.#waiting.delete(host);
        if (error === undefined) resolve();
        else reject(error);
      };
      const wake = () => finish();
      const aborted = () => finish(signal!.reason);
      const timer = setTimeout(wake, ms);
      if (wakeable) set!.add(wake);
      signal?.addEventListener('abort', aborted, { once: true });
    });
  }
}
