// The activity log that GET /v2/team/activity reads: one row per job-creating
// request (not per status poll) with its job id, endpoint, target, status, duration
// and the caller's auditMetadata username.
import type { Request, RequestHandler, Response } from 'express';
import { v7 as uuidv7 } from 'uuid';
import type { Db } from '../db/prisma.ts';
import type { SqlTx } from '../db/sql-transactions.ts';
import { storableText } from '../db/storable.ts';
import type { Logger } from '../log.ts';
import { authOf } from './auth.ts';
import { answeredAtDeadline } from './request-deadline.ts';

/** The endpoints GET /v2/team/activity lists and filters by (the spec's list). */
export const ACTIVITY_ENDPOINTS = [
  'scrape',
  'crawl',
  'batch_scrape',
  'search',
  'extract',
  'llmstxt',
  'deep_research',
  'map',
  'agent',
  'browser',
  'interact',
] as const;
export type ActivityEndpoint = (typeof ACTIVITY_ENDPOINTS)[number];

/** The activity endpoint names of the spec, by the first path segment after the version (/v2, /v1). */
const ENDPOINTS: Record<string, string> = {
  crawl: 'crawl',
  scrape: 'scrape',
  batch: 'batch_scrape',
  search: 'search',
  extract: 'extract',
  llmstxt: 'llmstxt',
  'deep-research': 'deep_research',
  map: 'map',
  agent: 'agent',
  browser: 'browser',
  interact: 'interact',
  team: 'team',
};

export function activityEndpoint(path: string): string {
  const segment = path.split('/').filter(Boolean)[1] ?? '';
  // Own keys only: a path segment such as "valueOf" must not find Object.prototype's function.
  return Object.hasOwn(ENDPOINTS, segment) ? ENDPOINTS[segment] : segment;
}

/** The API version a path is under: its first segment (`v2`, `v1`). */
export function apiVersionOf(path: string): string {
  return path.split('/').filter(Boolean)[0] ?? '';
}

export function fullPath(req: Request): string {
  return req.baseUrl + req.path;
}

/** The URL or query the request names: `url`, `query`, or a batch's first URL. */
function target(req: Request): string | null {
  const body = req.body as Record<string, unknown> | undefined;
  for (const field of ['url', 'query']) {
    if (typeof body?.[field] === 'string') return storable(body[field] as string);
  }
  const urls = body?.urls;
  return Array.isArray(urls) && typeof urls[0] === 'string' ? storable(urls[0]) : null;
}

/**
 * auditMetadata.username of the body, at the top level (map, agent, batch from the Python SDK) or in
 * scrapeOptions (crawl, search, extract): read as sent, so a request later refused records it too.
 */
export function auditUsername(body: unknown): string | null {
  if (typeof body !== 'object' || body === null) return null;
  const record = body as Record<string, unknown>;
  const scrapeOptions = record.scrapeOptions as Record<string, unknown> | undefined;
  for (const holder of [record.auditMetadata, typeof scrapeOptions === 'object' ? scrapeOptions?.auditMetadata : undefined]) {
    const username = typeof holder === 'object' && holder !== null ? (holder as Record<string, unknown>).username : undefined;
    if (typeof username === 'string' && username !== '') return storableText(username.slice(0, AUDIT_USERNAME_CHARS));
  }
  return null;
}

/** Longest username kept (the Python SDK's own limit). */
const AUDIT_USERNAME_CHARS = 1024;

/** A JSON body can hold U+0000 or a lone surrogate, which PostgreSQL would refuse, leaving the request unlisted. */
function storable(text: string): string {
  return storableText(text.slice(0, 2048));
}

/**
 * Names the job a request created (crawl id, search id, session id, ...), so the
 * activity record's id fetches its result from the matching endpoint.
 */
export function noteActivityJob(res: Response, jobId: string): void {
  res.locals.activityJobId = jobId;
}

/** Job-creating requests: a POST to an endpoint's collection (`/v2/crawl`, `/v1/batch/scrape`), not a status poll or an action on a job. */
export function createsJob(req: Request): boolean {
  return isJobCreating(req.method, fullPath(req));
}

/** The same rule by method and path, for the API contract (which documents the idempotency key on these). */
export function isJobCreating(method: string, path: string): boolean {
  if (method.toUpperCase() !== 'POST') return false;
  const segments = path.split('/').filter(Boolean);
  const endpoint = activityEndpoint(path);
  if (!(ACTIVITY_ENDPOINTS as readonly string[]).includes(endpoint)) return false;
  return segments.length === (endpoint === 'batch_scrape' ? 3 : 2);
}

/** The activity log's row of a request answered `statusCode`, with the job it names (noteActivityJob). */
function activityRow(req: Request, res: Response, teamId: string, apiKeyId: string, statusCode: number, jobId: string | null) {
  const started = typeof res.locals.activityStarted === 'number' ? res.locals.activityStarted : performance.now();
  return {
    id: uuidv7(),
    teamId,
    apiKeyId,
    endpoint: activityEndpoint(fullPath(req)),
    apiVersion: apiVersionOf(fullPath(req)),
    method: req.method,
    path: fullPath(req),
    target: target(req),
    auditUsername: auditUsername(req.body),
    jobId,
    statusCode,
    durationMs: Math.round(performance.now() - started),
  };
}

/**
 * Writes the request's row, naming `jobId`, in the caller's transaction (a route that writes its job
 * and its answer at once, answering `statusCode`). Once that transaction committed, the route notes
 * the job and that its row is written (noteActivityRecorded): recordActivity writes no second row.
 */
export async function writeActivityRow(tx: SqlTx, req: Request, res: Response, statusCode: number, jobId: string): Promise<void> {
  const { team, apiKeyId } = authOf(res);
  const r = activityRow(req, res, team.id, apiKeyId, statusCode, jobId);
  await tx.$executeRaw`
    INSERT INTO activity_log (id, team_id, api_key_id, endpoint, api_version, method, path, target, audit_username, job_id, status_code, duration_ms)
    VALUES (${r.id}::uuid, ${r.teamId}::uuid, ${r.apiKeyId}::uuid, ${r.endpoint}, ${r.apiVersion}, ${r.method}, ${r.path}, ${r.target}, ${r.auditUsername},
            ${r.jobId}, ${r.statusCode}, ${r.durationMs})`;
}

export function noteActivityRecorded(res: Response, jobId: string): void {
  noteActivityJob(res, jobId);
  res.locals.activityRecorded = true;
}

/**
 * Records each job-creating request when its answer is ready: the job id (noteActivityJob), status
 * and duration. The row is written before the answer leaves, so a client that got its job id also
 * finds it in GET /v2/team/activity; a row that cannot be written is logged and the answer sent anyway.
 * An answer given at the request's deadline (a dependency away) does not wait for the row: the
 * database may be the one away. One row per request, and one answer: a deadline's answer that
 * comes while the handler's waits for its row goes out at once, and the handler's is dropped.
 */
export function recordActivity(db: Db, log: Logger): RequestHandler {
  return (req, res, next) => {
    if (!createsJob(req)) return next();
    const started = performance.now();
    const { team, apiKeyId } = authOf(res);
    const end = res.end.bind(res) as (...args: unknown[]) => Response;
    let answered = false;
    let recorded = false;
    const answer = (args: unknown[]) => {
      if (answered) return;
      answered = true;
      end(...args);
    };
    res.locals.activityStarted = started;
    res.end = ((...args: unknown[]) => {
      if (answered) return res;
      // Written by the route with its job (writeActivityRow), in the job's transaction.
      if (res.locals.activityRecorded === true) recorded = true;
      if (!recorded) {
        recorded = true;
        const recording = db.activityLog
          .create({
            data: activityRow(req, res, team.id, apiKeyId, res.statusCode, typeof res.locals.activityJobId === 'string' ? res.locals.activityJobId : null),
          })
          .catch((err: unknown) => log.warn('activity log write failed', { requestId: res.locals.requestId, error: (err as Error).message }));
        if (!answeredAtDeadline(res)) {
          void recording.finally(() => answer(args));
          return res;
        }
      }
      answer(args);
      return res;
    }) as Response['end'];
    next();
  };
}
