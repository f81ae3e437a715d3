// browser_session rows as the gateway sees them: created with the admission
// checks (the team's concurrency, credits for the whole ttl, the profile's one
// writer) under one lock per team, read for the routes, and turned into the API's
// session objects.
import { randomBytes } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import { z } from 'zod';
import type { Db } from '../../../platform/db/prisma.ts';
import { DomainError } from '../../../platform/domain-error.ts';
import type { BrowserSession, Team } from '../../../generated/prisma/client.ts';
import type { CreateSessionRequest } from './session-request.ts';
import { sessionCredits } from '../shared/session-credits.ts';
import { claimWriter } from '../shared/profile-store.ts';
import { browserLiveViewUrl } from '../../../platform/http/public-url.ts';

const token = () => randomBytes(24).toString('base64url');

/** Sessions that hold a browser (or are about to). */
export const LIVE_STATUSES = ['starting', 'active'];

/** A scrape's interaction already has its live session: a call racing its opening uses that one. */
export class ScrapeSessionExists extends Error {
  constructor(readonly scrapeId: string) {
    super(`the scrape ${scrapeId} already has a live session`);
  }
}

export async function createSessionRow(
  db: Db,
  team: Team,
  apiKeyId: string | null,
  req: Pick<CreateSessionRequest, 'ttl' | 'activityTtl' | 'streamWebView' | 'profile'>,
  now: Date,
  { scrapeId, id = uuidv7() }: { scrapeId?: string; id?: string } = {},
): Promise<BrowserSession> {
  return db.$transaction(async (tx) => {
    // One admission at a time per team, so two creations cannot both see the last free place.
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`browser-admit:${team.id}`}, 0))`;
    // Before the team's limits, which the existing session itself counts against: racing calls
    // on one scrape share its session instead of being refused for it.
    if (scrapeId && (await tx.browserSession.count({ where: { scrapeId, status: { in: LIVE_STATUSES } } })) > 0) throw new ScrapeSessionExists(scrapeId);
    const fresh = await tx.team.findUniqueOrThrow({ where: { id: team.id } });
    const [sessions, jobs] = await Promise.all([
      tx.browserSession.count({ where: { teamId: team.id, status: { in: LIVE_STATUSES } } }),
      tx.job.count({ where: { teamId: team.id, status: 'scraping' } }),
    ]);
    if (sessions + jobs >= fresh.concurrencyLimit) {
      throw new DomainError(
        'limit-reached',
        `You have reached the maximum number of concurrent jobs (${fresh.concurrencyLimit}). Please wait for existing jobs to complete or destroy browser sessions before creating new ones.`,
        'CONCURRENCY_LIMIT',
      );
    }
    const estimate = sessionCredits(req.ttl * 1000);
    if (fresh.creditBalance < estimate) {
      throw new DomainError(
        'payment-required',
        `Insufficient credits for a ${req.ttl}s browser session (requires ~${estimate} credits; the team has ${Math.max(0, fresh.creditBalance)}). Add credits (npm run cli -- team credits --help) or ask for a shorter ttl.`,
        'PAYMENT_REQUIRED',
      );
    }
    if (req.profile?.saveChanges) await claimWriter(tx, team.id, req.profile.name, id);
    return tx.browserSession.create({
      data: {
        id,
        teamId: team.id,
        apiKeyId,
        ttlSeconds: req.ttl,
        activityTtlSeconds: req.activityTtl,
        streamWebView: req.streamWebView,
        profileName: req.profile?.name ?? null,
        profileSave: req.profile?.saveChanges ?? false,
        cdpToken: token(),
        viewToken: token(),
        interactiveToken: token(),
        createdAt: now,
        lastActivityAt: now,
        expiresAt: new Date(now.getTime() + req.ttl * 1000),
        scrapeId: scrapeId ?? null,
      },
    });
  });
}

/** The team's session, or the same 404 for an unknown and a foreign id. */
export async function sessionOfTeam(db: Db, teamId: string, id: string): Promise<BrowserSession> {
  const row = /^[0-9a-f-]{36}$/i.test(id) ? await db.browserSession.findUnique({ where: { id } }) : null;
  if (!row || row.teamId !== teamId) throw new DomainError('not-found', 'Browser session not found.', 'NOT_FOUND');
  return row;
}

export const sessionUrlsSchema = z.object({
  cdpUrl: z.string().describe('The WebSocket URL of the browser’s DevTools protocol (token included).'),
  // Empty when streamWebView is false: the Python SDK's session model requires a string.
  liveViewUrl: z.string().describe('A page to watch the browser; empty without streamWebView.'),
  interactiveLiveViewUrl: z.string().describe('A page to watch and drive the browser; empty without streamWebView.'),
});
export type SessionUrls = z.infer<typeof sessionUrlsSchema>;

export const sessionViewSchema = sessionUrlsSchema.extend({
  id: z.string(),
  status: z.enum(['active', 'destroyed', 'error']),
  streamWebView: z.boolean(),
  createdAt: z.string(),
  lastActivity: z.string(),
  expiresAt: z.string(),
  endedAt: z.string().optional(),
  endReason: z.string().optional().describe('deleted, ttl, idle, or the error that ended it.'),
  sessionDurationMs: z.number().int().optional(),
  creditsBilled: z.number().optional(),
  profile: z.object({ name: z.string(), saveChanges: z.boolean() }).optional(),
});
type SessionView = z.infer<typeof sessionViewSchema>;

export function sessionUrls(row: BrowserSession, base: string): SessionUrls {
  const wsBase = base.replace(/^http/, 'ws');
  const path = `/v2/browser/${row.id}`;
  return {
    cdpUrl: `${wsBase}${path}/cdp?token=${row.cdpToken}`,
    liveViewUrl: row.streamWebView ? browserLiveViewUrl(base, row.id, row.viewToken) : '',
    interactiveLiveViewUrl: row.streamWebView ? browserLiveViewUrl(base, row.id, row.interactiveToken) : '',
  };
}

/** A session as GET /v2/browser lists it: starting counts as active, the API knows active, destroyed and error. */
export function sessionView(row: BrowserSession, base: string): SessionView {
  return {
    id: row.id,
    status: row.status === 'starting' ? 'active' : (row.status as SessionView['status']),
    ...sessionUrls(row, base),
    streamWebView: row.streamWebView,
    createdAt: row.createdAt.toISOString(),
    lastActivity: row.lastActivityAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    ...(row.endedAt && { endedAt: row.endedAt.toISOString() }),
    ...(row.endReason && { endReason: row.endReason }),
    ...(row.durationMs !== null && { sessionDurationMs: row.durationMs }),
    ...(row.creditsBilled !== null && { creditsBilled: row.creditsBilled }),
    ...(row.profileName && { profile: { name: row.profileName, saveChanges: row.profileSave } }),
  };
}
