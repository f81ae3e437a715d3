// What a feature (crawl, webhooks, retention; later sessions, search, usage)
// gives the platform. Entry points pass the list in src/features/index.ts to the
// HTTP app and the worker registry; the platform never imports a feature itself.
import type { Client } from '@temporalio/client';
import type { Router } from 'express';
import type { GatewayDeps } from './http/app.ts';
import type { ActivityDeps } from './temporal/activity-deps.ts';
import type { WebSocketRoute } from './http/websockets.ts';
import type { InProcessApi } from './http/in-process-api.ts';
import type { RouteDoc } from './http/route-doc.ts';
import type { Tool, ToolDeps, ToolRegistry } from './tools/tool.ts';

// never[]: any activity signature is assignable, whatever its parameters.
type ActivityFunctions = Record<string, (...args: never[]) => Promise<unknown>>;

/**
 * Activities by resource class, each class on its own task queue:
 * - control: database work that never waits for a browser (plan, finish, purge, settings); also
 *   where the workflows run, and the only class local activities may be in;
 * - browser: work that holds a Chromium (scrape batches), limited per worker to WORKER_BROWSER_SLOTS;
 *   its activities also serve the scrape queue (single scrapes' batches, WORKER_SCRAPE_SLOTS);
 * - io: long network waits (webhook deliveries), many at once.
 */
export interface FeatureActivities {
  control?: ActivityFunctions;
  browser?: ActivityFunctions;
  io?: ActivityFunctions;
}

/** What activity factories receive in a worker: the activity deps and every feature's tools. */
export interface FeatureActivityDeps<C = unknown> extends ActivityDeps<C> {
  tools: ToolRegistry;
  /** For activities that talk to their own workflow (a running batch's progress reports). */
  temporal?: Client;
}

export interface WorkerServiceDeps<C = unknown> extends ActivityDeps<C> {
  temporal: Client;
}

/** Something a worker process runs beside its Temporal workers (a reconciler loop). */
export interface WorkerService {
  stop(): Promise<void>;
}

/**
 * `C`: the sections of the settings the feature reads (its own and those of the code it calls), as
 * its deps carry them; the entry points hand every feature the whole composed settings (src/config.ts).
 */
export interface Feature<C = unknown> {
  name: string;
  /** Routes under /v2, behind authentication and the activity log. */
  routes?: (deps: GatewayDeps<C>) => Router;
  /**
   * Routes under /v1, behind the same checks as /v2: the older API, answered by translating each
   * request into its /v2 form and running it through the /v2 routes in-process (`v2`).
   */
  v1Routes?: (deps: GatewayDeps<C>, v2: InProcessApi) => Router;
  /** Routes that authenticate by a rule of their own (a session's live-view token), mounted before the API key check. */
  publicRoutes?: (deps: GatewayDeps<C>) => Router;
  /** The API contract of every HTTP route of routes and publicRoutes (see http/route-doc.ts), declared beside them. */
  routeDocs?: RouteDoc[];
  /** WebSocket endpoints; each authenticates by its own rule (see platform/http/websockets.ts). */
  websockets?: (deps: GatewayDeps<C>) => WebSocketRoute[];
  /**
   * May load its modules by `import()` (a promise): the gateway imports every feature for its routes,
   * and a factory that imports Chromium's and the converters' libraries at the top costs every
   * gateway process a second of CPU at its start for code it never runs.
   */
  activities?: (deps: FeatureActivityDeps<C>) => FeatureActivities | Promise<FeatureActivities>;
  /** Capabilities other features' activities may call (see tools/tool.ts); run inside the caller's activity. */
  tools?: (deps: ToolDeps<C>) => Tool[];
  /** Run once when a worker starts (e.g. create or update a Temporal schedule). */
  onWorkerStart?: (deps: WorkerServiceDeps<C>) => Promise<void>;
  workerServices?: (deps: WorkerServiceDeps<C>) => WorkerService[];
}

/** A background loop that runs `tick` every `intervalMs` until stopped; a failing tick is logged, not fatal. */
export function everyInterval(name: string, intervalMs: number, deps: { log: ActivityDeps['log'] }, tick: () => Promise<unknown>): WorkerService {
  let running: Promise<unknown> | undefined;
  const timer = setInterval(() => {
    if (running) return;
    running = tick()
      .catch((err: unknown) => deps.log.warn(`${name} failed`, { error: (err as Error).message }))
      .finally(() => (running = undefined));
  }, intervalMs);
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
