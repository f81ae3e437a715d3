// In protocol/, not beside the workflow: the gateway, the worker, the browser host and workflow code all send or read these.
// Names and messages of the browser session workflow, shared by the gateway, the
// worker, the browser host and workflow code (which imports this file, so it
// imports nothing with side effects).
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { ExecuteLanguage } from './execute-limits.ts';
import type { ExecuteResponse } from './execute-response.ts';
import type { ScrapeAction, ScrapeLocation, ScrapeOptions } from '../../../page/scrape-options.ts';

/** A request's proxy mode (the proxy pools' tier). */
export type ProxyMode = ScrapeOptions['proxy'];

export function sessionWorkflowId(sessionId: string): string {
  return `browser-${sessionId}`;
}

/** The task queue a browser host polls: one per host process, so a session's work reaches the host that runs its Chromium. */
export function hostTaskQueue(prefix: string, hostId: string): string {
  return `${prefix}-host-${hostId}`;
}

export type SessionStatus = 'starting' | 'active' | 'destroyed' | 'error';

export interface SessionProfile {
  name: string;
  saveChanges: boolean;
}

/** The page of a finished scrape, opened again in the session's first tab before it is ready (POST /v2/scrape/{id}/interact). */
export interface PageOpening {
  url: string;
  headers?: Record<string, string>;
  waitForMs: number;
  /** The scrape's actions that change the page (clicks, typing, scrolls, waits, scripts), replayed in order. */
  actions: ScrapeAction[];
  /** Navigation, waitFor and actions together. */
  timeoutMs: number;
}

const CAPTURING_ACTIONS: ReadonlySet<ScrapeAction['type']> = new Set(['screenshot', 'scrape', 'pdf']);

/** The actions worth replaying: those that change what the page shows. */
export function replayedActions(actions: ScrapeAction[]): ScrapeAction[] {
  return actions.filter((a) => !CAPTURING_ACTIONS.has(a.type));
}

export interface SessionInput {
  sessionId: string;
  teamId: string;
  apiKeyId: string | null;
  ttlSeconds: number;
  activityTtlSeconds: number;
  /** When the gateway created the session; expiresAt = createdAt + ttl. */
  createdAtMs: number;
  profile?: SessionProfile;
  opening?: PageOpening;
  /** The browser's requests to ad and tracker hosts are refused. Absent in runs started before it existed: not refused, as then. */
  blockAds?: boolean;
  /** The country (and languages) the browser's language and time zone are those of. */
  location?: ScrapeLocation;
  /** The proxy tier the browser goes through (proxy pools). Absent in runs started before it existed: basic. */
  proxy?: ProxyMode;
  /** History events after which the run continues as new (BROWSER_SESSION_HISTORY_EVENTS). Absent in runs started before it existed: 5000, as then. */
  historyEvents?: number;
  /** Set by continue-as-new: the session is already running on this host. */
  running?: { hostId: string; taskQueue: string; lastActivityMs: number; executes: number };
}

export interface SessionState {
  status: SessionStatus;
  hostId: string | null;
  lastActivityMs: number;
  expiresAtMs: number;
  /** Executes run so far (all runs of the workflow). */
  executes: number;
  /** Executes running now. */
  executing: number;
  endReason: string | null;
}

/** How the session ended: deleted, ttl, idle, or an error (launch failed, host lost, browser exited). */
export interface SessionSummary {
  status: 'destroyed' | 'error';
  reason: string;
  sessionDurationMs: number;
  creditsBilled: number;
}

export interface SessionReady {
  status: SessionStatus;
  reason: string | null;
  /** Why the page of an opening did not open as the scrape saw it (the session runs all the same). */
  openingWarning?: string;
}

/** The older execute Update's argument: its timeout stays in seconds, as gateways of the build before send it (past the API, ExecuteCall's timeoutMs). */
export interface ExecuteInput {
  language: ExecuteLanguage;
  code: string;
  timeoutSeconds: number;
}

/** Use of the session (CDP traffic, live-view input), debounced by the gateway: re-arms the idle timer. */
export const touchedSignal = defineSignal('touched');
/** Why a session is ended other than by DELETE: its start could not be answered, so it is closed as an error and not billed. */
export interface DestroyOptions {
  startUnanswered?: string;
}
/** DELETE /v2/browser/{id} (no argument), or a start that failed after its workflow began: end the session now. */
export const destroySignal = defineSignal<[DestroyOptions?]>('destroy');
export const stateQuery = defineQuery<SessionState>('state');
/** Completes once the browser is up (or the session failed to start). */
export const readyUpdate = defineUpdate<SessionReady>('ready');
/**
 * Runs the code as an activity on the host's queue: kept for gateways of the build before
 * admitExecute, which send it during a rolling deploy (docs/patches.md).
 */
export const executeUpdate = defineUpdate<ExecuteResponse, [ExecuteInput]>('execute');

export interface ExecuteAdmissionInput {
  /** The gateway's id of the execute, also the Update's id (a repeated call is admitted once). */
  executeId: string;
  /** How long the execute holds the idle clock if its end is never signalled (a gateway that died): the gateway's own deadline for its answer. */
  leaseMs: number;
}

/** The host that runs the session: the gateway sends the code to its relay. */
export interface ExecuteAdmission {
  hostId: string;
}

/**
 * An execute the gateway is about to run on the session's host: counted, the idle clock held
 * until executeEnded (or until its lease runs out, if that never comes). Refused with
 * SESSION_ENDED once the session ends.
 */
export const admitExecuteUpdate = defineUpdate<ExecuteAdmission, [ExecuteAdmissionInput]>('admitExecute');
/** The admitted execute has been answered (or failed): the idle clock starts again. */
export const executeEndedSignal = defineSignal<[{ executeId: string }]>('executeEnded');

/** The failure type an execute on an ended session gets (the gateway answers 410). */
export const SESSION_ENDED = 'SessionEnded';
