// GET /v2/team/activity: the team's job-creating requests of the past 24 hours, newest
// first, by keyset over (created_at, id): rows inserted meanwhile are newer than any cursor,
// so a walk neither skips nor repeats a record. A cursor carries a MAC, so a client can
// only hand back cursors this service made.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { Db } from '../../platform/db/prisma.ts';
import { ACTIVITY_ENDPOINTS } from '../../platform/http/activity-log.ts';
import { DomainError } from '../../platform/domain-error.ts';
import { serviceSecret } from '../../platform/db/service-secrets.ts';

export const ACTIVITY_WINDOW_MS = 24 * 3_600_000;
export const DEFAULT_ACTIVITY_LIMIT = 50;
export const MAX_ACTIVITY_LIMIT = 100;

const limitMessage = `limit must be an integer from 1 to ${MAX_ACTIVITY_LIMIT}`;

export const activityQuerySchema = z.object({
  endpoint: z.enum(ACTIVITY_ENDPOINTS, { error: `Invalid endpoint filter. Must be one of: ${ACTIVITY_ENDPOINTS.join(', ')}` }).optional(),
  limit: z.coerce.number({ error: limitMessage }).int(limitMessage).min(1, limitMessage).max(MAX_ACTIVITY_LIMIT, limitMessage).default(DEFAULT_ACTIVITY_LIMIT),
  cursor: z.string().max(200, 'Invalid cursor.').optional(),
});

export type ActivityQuery = z.output<typeof activityQuerySchema>;

interface Position {
  createdAt: Date;
  id: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The MAC key: a secret the database holds (made on first use), so every gateway replica signs
 * and checks alike with nothing to configure, and no configured secret is reused for a second purpose.
 */
const CURSOR_SECRET = 'activity-cursor-mac';
/** 128 bits of HMAC-SHA256: far beyond guessing, and a shorter cursor. */
const MAC_BYTES = 16;

const mac = (payload: string, key: Buffer) => createHmac('sha256', key).update(payload).digest().subarray(0, MAC_BYTES).toString('base64url');

function encodeCursor(p: Position, key: Buffer): string {
  const payload = Buffer.from(`${p.createdAt.toISOString()}|${p.id}`).toString('base64url');
  return `${payload}.${mac(payload, key)}`;
}

/**
 * The position a cursor names; a cursor this service did not make is a 400. The MAC is
 * compared as text, and it signs the payload's text: base64url has spare bits in its last
 * character, and a change there must fail as any other change does.
 */
function decodeCursor(cursor: string, key: Buffer): Position {
  const invalid = () => new DomainError('invalid', 'Invalid cursor.', 'BAD_REQUEST');
  const [payload, given, ...extra] = cursor.split('.');
  if (extra.length > 0 || !payload || !given || !/^[A-Za-z0-9_-]+$/.test(payload)) throw invalid();
  const expected = Buffer.from(mac(payload, key));
  if (Buffer.byteLength(given) !== expected.length || !timingSafeEqual(Buffer.from(given), expected)) throw invalid();
  const [at, id, ...rest] = Buffer.from(payload, 'base64url').toString('utf8').split('|');
  const createdAt = new Date(at ?? '');
  if (rest.length > 0 || !id || !UUID.test(id) || Number.isNaN(createdAt.getTime()) || createdAt.toISOString() !== at) throw invalid();
  return { createdAt, id };
}

export const activityRecordSchema = z.object({
  id: z.string().describe('The job id, where the request made one.'),
  endpoint: z.string(),
  api_version: z.string(),
  created_at: z.string(),
  target: z.string().nullable().describe('The URL or query the request named.'),
  audit_metadata: z
    .object({ username: z.string() })
    .nullable()
    .describe('The auditMetadata the request carried (top level or scrapeOptions); null when it had none.'),
});
export type ActivityRecord = z.infer<typeof activityRecordSchema>;

export const activityListingSchema = z.object({
  data: z.array(activityRecordSchema),
  cursor: z.string().nullable().describe('Pass as cursor for the next page; null at the end.'),
  has_more: z.boolean(),
});

interface Row {
  id: string;
  jobId: string | null;
  endpoint: string;
  apiVersion: string;
  createdAt: Date;
  target: string | null;
  auditUsername: string | null;
}

export async function listActivity(db: Db, teamId: string, q: ActivityQuery, now = new Date()): Promise<z.infer<typeof activityListingSchema>> {
  const key = await serviceSecret(db, CURSOR_SECRET);
  const after = q.cursor ? decodeCursor(q.cursor, key) : undefined;
  const since = new Date(now.getTime() - ACTIVITY_WINDOW_MS);
  const rows = await db.activityLog.findMany({
    where: {
      teamId,
      createdAt: { gt: since },
      ...(q.endpoint && { endpoint: q.endpoint }),
      ...(after && { OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] }),
    },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: q.limit + 1,
    select: { id: true, jobId: true, endpoint: true, apiVersion: true, createdAt: true, target: true, auditUsername: true },
  });
  const page: Row[] = rows.slice(0, q.limit);
  const hasMore = rows.length > q.limit;
  const last = page.at(-1);
  return {
    data: page.map((r) => ({
      id: r.jobId ?? r.id,
      endpoint: r.endpoint,
      api_version: r.apiVersion,
      created_at: r.createdAt.toISOString(),
      target: r.target,
      audit_metadata: r.auditUsername === null ? null : { username: r.auditUsername },
    })),
    cursor: hasMore && last ? encodeCursor(last, key) : null,
    has_more: hasMore,
  };
}
