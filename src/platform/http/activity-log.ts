// Records every authenticated request in the activity log that
// GET /v2/team/activity reads: endpoint, api version, target.
import type { Request, RequestHandler, Response } from 'express';
import { v7 as uuidv7 } from 'uuid';
import type { Db } from '../db/prisma.ts';
import { authOf } from './auth.ts';

/** The activity endpoint names of the spec, by the first path segment after /v2. */
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

function fullPath(req: Request): string {
  return req.baseUrl + req.path;
}

function target(req: Request): string | null {
  const body = req.body as Record<string, unknown> | undefined;
  for (const field of ['url', 'query']) {
    if (typeof body?.[field] === 'string') return (body[field] as string).slice(0, 2048);
  }
  return fullPath(req).split('/').filter(Boolean)[2] ?? null;
}

/**
 * Names the job a request created (crawl id, search id, session id, ...), so the
 * activity record's id fetches its result from the matching endpoint.
 */
export function noteActivityJob(res: Response, jobId: string): void {
  res.locals.activityJobId = jobId;
}

export function recordActivity(db: Db): RequestHandler {
  return async (req, res, next) => {
    const { team, apiKeyId } = authOf(res);
    await db.activityLog.create({
      data: {
        id: uuidv7(),
        teamId: team.id,
        apiKeyId,
        endpoint: activityEndpoint(fullPath(req)),
        apiVersion: 'v2',
        method: req.method,
        path: fullPath(req),
        target: target(req),
      },
    });
    next();
  };
}
