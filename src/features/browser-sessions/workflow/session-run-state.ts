// What one run of a browser session's workflow knows and decides: its status and host, the
// executes it counts and the leases that hold its idle clock, what the `state` query and the
// `ready` Update answer, whether an execute is admitted, and when the session ends (failure,
// DELETE, ttl, idle) or continues as new. Pure: the workflow wires these transitions to its
// commands, and they are tested without Temporal. Workflow code imports this file, so it
// imports nothing with side effects.
import type { DestroyOptions, SessionInput, SessionReady, SessionState, SessionStatus, SessionSummary } from '../protocol/definitions.ts';
import { sessionEnding } from './session-ending.ts';

/** Runs beyond this many history events continue as new (a session's history stays small), unless the input sets another number. */
export const CONTINUE_AS_NEW_EVENTS = 5000;

/** The size of the run's history, as workflowInfo() tells it. */
export interface RunHistory {
  historyLength: number;
  continueAsNewSuggested: boolean;
}

export interface SessionHost {
  hostId: string;
  taskQueue: string;
}

/** An execute's cancellation scope: the session's end cancels it. */
export interface Cancellable {
  cancel(): void;
}

/** What the main loop does next. */
export type SessionStep = { kind: 'end'; reason: string } | { kind: 'continue-as-new' } | { kind: 'wait'; timeoutMs: number };

/** How the session ends, decided once its reason is known. */
export interface SessionEnd {
  /** `error`: its browser failed or its start went unanswered. */
  failed: boolean;
  /** The caller never had the session: nothing is billed. */
  unbilled: boolean;
  /** A start that failed is answered before the host's close (`failed-start-answers-first`). */
  answersFailedStartFirst: boolean;
  /** The profile keeps what the session changed. */
  saveProfile: boolean;
  final: SessionSummary['status'];
}

export class SessionRunState {
  readonly ttlDeadline: number;
  readonly idleMs: number;
  status: SessionStatus;
  lastActivity: number;
  /** Executes run so far (all runs of the workflow). */
  executes: number;
  /** Executes running as activities (the execute Update). */
  executing = 0;
  /** Admitted executes the gateway runs through the relay, by id: when each stops holding the idle clock if its end never comes. */
  readonly leases = new Map<string, number>();
  /** The main loop sleeps until a lease's deadline: the end of the last admitted execute wakes it to arm the idle clock. */
  private sleepingOnLease = false;
  destroyRequested = false;
  /** Why the gateway could not answer the start (then the session ends as an error, unbilled). */
  startUnanswered: string | undefined;
  endReason: string | null = null;
  failure: string | undefined;
  openingWarning: string | undefined;
  host: SessionHost | undefined;
  /** The scopes of the executes running now: the session's end cancels them. */
  readonly runningExecutes = new Set<Cancellable>();

  constructor(
    private readonly input: SessionInput,
    private readonly history: () => RunHistory,
  ) {
    this.ttlDeadline = input.createdAtMs + input.ttlSeconds * 1000;
    this.idleMs = input.activityTtlSeconds * 1000;
    this.status = input.running ? 'active' : 'starting';
    this.lastActivity = input.running?.lastActivityMs ?? input.createdAtMs;
    this.executes = input.running?.executes ?? 0;
    this.host = input.running ? { hostId: input.running.hostId, taskQueue: input.running.taskQueue } : undefined;
  }

  /** Executes holding the idle clock: running as activities, or admitted and not ended. */
  running(): number {
    return this.executing + this.leases.size;
  }

  /** The `state` query's answer. */
  state(): SessionState {
    return {
      status: this.status,
      hostId: this.host?.hostId ?? null,
      lastActivityMs: this.lastActivity,
      expiresAtMs: this.ttlDeadline,
      executes: this.executes,
      executing: this.running(),
      endReason: this.endReason,
    };
  }

  /** The gateway saw the session used (CDP traffic). */
  touched(now: number): void {
    this.lastActivity = Math.max(this.lastActivity, now);
  }

  destroy(options: DestroyOptions | undefined): void {
    this.destroyRequested = true;
    this.startUnanswered ??= options?.startUnanswered;
  }

  /** Updates that need the browser wait until its start is decided. */
  started(): boolean {
    return this.status !== 'starting';
  }

  /** The `ready` Update's answer. */
  ready(): SessionReady {
    return { status: this.status, reason: this.endReason, ...(this.openingWarning && { openingWarning: this.openingWarning }) };
  }

  /** The host an execute runs on, or undefined when the session takes none (not active, or ending). */
  private liveHost(): SessionHost | undefined {
    return this.status !== 'active' || this.endReason !== null ? undefined : this.host;
  }

  /**
   * Admits an execute the gateway runs through the relay: counted once per id (a repeated Update
   * is the same execute), holding the idle clock until its end or its lease's deadline. Undefined
   * when the session takes no execute.
   */
  admit(executeId: string, leaseMs: number, now: number): SessionHost | undefined {
    const host = this.liveHost();
    if (!host) return undefined;
    if (!this.leases.has(executeId)) {
      this.executes++;
      this.leases.set(executeId, now + Math.max(0, leaseMs));
    }
    this.lastActivity = now;
    return host;
  }

  /** An admitted execute ended: false when it was not holding the clock (unknown, or its lease ran out). */
  executeEnded(executeId: string, now: number): boolean {
    if (!this.leases.delete(executeId)) return false;
    this.lastActivity = Math.max(this.lastActivity, now);
    return true;
  }

  /** An execute run as an activity starts: its host, or undefined when the session takes no execute. */
  executeStarted(now: number): SessionHost | undefined {
    const host = this.liveHost();
    if (!host) return undefined;
    this.executing++;
    this.executes++;
    this.lastActivity = now;
    return host;
  }

  executeFinished(now: number): void {
    this.executing--;
    this.lastActivity = now;
  }

  /** The browser did not start: the session ends `error`, unbilled. */
  launchFailed(why: string): void {
    this.failure = `the browser did not start: ${why}`;
  }

  /** The host's watch ended the session (its browser went away, or the host did): the first reason stays. */
  hostLost(why: string): void {
    this.failure ??= why;
  }

  /** Leases past their deadline let go of the idle clock as if their executes had ended then. */
  private expireLeases(now: number): void {
    for (const [id, deadline] of this.leases) {
      if (deadline > now) continue;
      this.leases.delete(id);
      this.lastActivity = Math.max(this.lastActivity, deadline);
    }
  }

  private historyIsLong(): boolean {
    const info = this.history();
    return info.historyLength > (this.input.historyEvents ?? CONTINUE_AS_NEW_EVENTS) || info.continueAsNewSuggested;
  }

  /** What the main loop does now: end (and why), continue as new, or wait this long for a clock or a wake. */
  nextStep(now: number): SessionStep {
    if (this.failure) return { kind: 'end', reason: this.failure };
    if (this.destroyRequested) {
      return { kind: 'end', reason: this.startUnanswered === undefined ? 'deleted' : `the start could not be answered: ${this.startUnanswered}` };
    }
    this.expireLeases(now);
    if (now >= this.ttlDeadline) return { kind: 'end', reason: 'ttl' };
    if (this.running() === 0 && now >= this.lastActivity + this.idleMs) return { kind: 'end', reason: 'idle' };
    if (this.running() === 0 && this.historyIsLong()) return { kind: 'continue-as-new' };
    const nextLease = this.leases.size > 0 ? Math.min(...this.leases.values()) : this.lastActivity + this.idleMs;
    const wakeAt = this.executing > 0 ? this.ttlDeadline : Math.min(this.ttlDeadline, nextLease);
    this.sleepingOnLease = this.executing === 0 && this.leases.size > 0;
    return { kind: 'wait', timeoutMs: Math.max(1, wakeAt - now) };
  }

  /** What wakes the waiting main loop before its timer: DELETE, a failure, the last lease's end, or a history to cut. */
  wakes(): boolean {
    return (
      this.destroyRequested || this.failure !== undefined || (this.sleepingOnLease && this.leases.size === 0) || (this.running() === 0 && this.historyIsLong())
    );
  }

  /** The next run's input: the session goes on on its host, with its clock and count. */
  continuedInput(): SessionInput {
    return { ...this.input, running: { ...this.host!, lastActivityMs: this.lastActivity, executes: this.executes } };
  }

  /** The session ends for `reason`: how it is recorded and billed. */
  end(reason: string): SessionEnd {
    const { failed, unbilled } = sessionEnding({ failure: this.failure, startUnanswered: this.startUnanswered, status: this.status });
    this.endReason = reason;
    return {
      failed,
      unbilled,
      answersFailedStartFirst: failed && this.status === 'starting',
      saveProfile: !failed && (this.input.profile?.saveChanges ?? false),
      final: failed ? 'error' : 'destroyed',
    };
  }

  /** The duration billed, from the session's creation. */
  durationMs(now: number): number {
    return Math.max(0, now - this.input.createdAtMs);
  }
}
