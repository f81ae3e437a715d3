// x-idempotency-key on every job-creating POST (the requests the activity log records: crawl,
// batch scrape, scrape, map, search, browser session create). The first request with a key of
// a team claims it by inserting the row whose primary key is (team, key): of concurrent
// requests exactly one gets it, so exactly one job is made. Its answer is stored, and every
// repeat of the same request within IDEMPOTENCY_KEY_WINDOW_HOURS gets that answer (same job
// id); a repeat that arrives while the first runs waits for it. The same key with another
// request is a 409. Only a 2xx answer is kept: an error frees the key for a retry. The claim
// carries the request's own id, so a request frees only its own claim, and a claim whose
// answer was lost with its connection (the database ran it, the request saw an error) is freed
// too instead of keeping every repeat waiting for a request that has already failed.
import { createHash, randomUUID } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import { Prisma } from '../../generated/prisma/client.ts';
import type { Db } from '../db/prisma.ts';
import { storableJson } from '../db/storable.ts';
import { writeCanonicalJson } from '../canonical-json.ts';
import type { Logger } from '../log.ts';
import { retryInBackground } from '../retry-in-background.ts';
import { createsJob, fullPath, noteActivityJob } from './activity-log.ts';
import { authOf } from './auth.ts';
import { HttpError } from './http-error.ts';
import { answeredAtDeadline } from './request-deadline.ts';

export const IDEMPOTENCY_HEADER = 'x-idempotency-key';
export const MAX_IDEMPOTENCY_KEY_LENGTH = 256;

/**
 * A claimed key whose request has not answered for this long is taken as lost (its gateway
 * died): longer than any request runs (a search may wait 10 minutes), so a live one is never
 * taken over.
 */
const PENDING_LEASE_MS = 15 * 60_000;
/** How often a repeat that arrived while the first request runs looks for its answer. */
const WAIT_POLL_MS = 200;

/** Routes whose answer is the scraped content: with zeroDataRetention it may not be stored. */
const CONTENT_ANSWERS = new Set(['/v2/scrape', '/v2/search', '/v1/scrape', '/v1/search']);

export interface IdempotencySettings {
  windowHours: number;
}

function fingerprintOf(req: Request): string {
  const hash = createHash('sha256').update(`${req.method} ${fullPath(req)}\n`);
  writeCanonicalJson(req.body ?? null, (text) => hash.update(text));
  return hash.digest('hex');
}

function keyOf(req: Request): string | undefined {
  const key = req.get(IDEMPOTENCY_HEADER);
  if (key === undefined) return undefined;
  if (key.length === 0 || key.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
    throw new HttpError(400, `x-idempotency-key must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters, got ${key.length}`, 'IDEMPOTENCY_KEY_INVALID');
  }
  const body = req.body as { zeroDataRetention?: unknown } | undefined;
  if (body?.zeroDataRetention === true && CONTENT_ANSWERS.has(fullPath(req))) {
    throw new HttpError(
      400,
      `x-idempotency-key cannot be used with zeroDataRetention on ${fullPath(req)}: repeating the answer would mean storing the page content`,
      'IDEMPOTENCY_KEY_INVALID',
    );
  }
  return key;
}

/** A request's hold on its key: the row of (team, key) while its claim_id is this request's. */
interface Claim {
  teamId: string;
  key: string;
  claimId: string;
}

/**
 * Claims the key for this request: a new row, or one whose window has passed or whose request
 * was lost. One statement, so of concurrent claims the database lets exactly one succeed.
 */
async function claim(db: Db, { teamId, key, claimId }: Claim, fingerprint: string, windowHours: number): Promise<boolean> {
  const rows = await db.$queryRaw<unknown[]>`
    INSERT INTO idempotency_key AS k (team_id, key, fingerprint, claim_id, created_at)
    VALUES (${teamId}::uuid, ${key}, ${fingerprint}, ${claimId}::uuid, now())
    ON CONFLICT (team_id, key) DO UPDATE
    SET fingerprint = EXCLUDED.fingerprint, claim_id = EXCLUDED.claim_id, status_code = NULL, answer = NULL, job_id = NULL, created_at = now()
    WHERE k.created_at < now() - make_interval(hours => ${windowHours}::int)
       OR (k.status_code IS NULL AND k.created_at < now() - make_interval(secs => ${PENDING_LEASE_MS / 1000}::float8))
    RETURNING 1`;
  return rows.length === 1;
}

/** How often a key whose freeing failed (the database away) is tried again. */
const FREE_RETRY_MS = 1000;

/**
 * Frees a claimed key, trying again until the database takes it: a key left claimed would keep
 * every repeat of the request waiting for an answer that never comes (until PENDING_LEASE_MS).
 * Rejects after a first failure (the retries going on) so a caller can log it.
 */
function freeKey(db: Db, { teamId, key, claimId }: Claim): Promise<unknown> {
  return retryInBackground(() => db.idempotencyKey.deleteMany({ where: { teamId, key, claimId, statusCode: null } }), {
    everyMs: FREE_RETRY_MS,
    forMs: PENDING_LEASE_MS,
  });
}

/**
 * A route whose job began but whose answer failed (a dependency away) makes the job findable by the
 * request sent again before that retry may run: the key is freed only once `settling` ends.
 */
export function holdKeyUntil(res: Response, settling: Promise<unknown>): void {
  (res.locals.keyHolds ??= []).push(settling);
}

function holdsOf(res: Response): Promise<unknown> {
  return Promise.allSettled((res.locals.keyHolds as Promise<unknown>[] | undefined) ?? []);
}

/** Whether the request's answer, even one its handler gives after the deadline answered, is kept for its key's repeats. */
export function keepsAnswer(res: Response): boolean {
  return res.locals.keepsAnswer === true;
}

/**
 * Stores the first request's answer (2xx) or frees the key (anything else) before the answer leaves.
 * A request answered 503 at its deadline (request-deadline.ts) keeps its claim: its handler may
 * still start the job once the dependency is back, and then its answer is the one kept, so a
 * retry with the key gets that job instead of starting another. The handler's later answer
 * cannot be sent; its `success` says whether it was one to keep.
 */
function keepAnswer(db: Db, log: Logger, res: Response, held: Claim): void {
  res.locals.keepsAnswer = true;
  const { teamId, key, claimId } = held;
  const json = res.json.bind(res);
  let settled = false;
  // Answered already when the claim came through (the deadline passed while the claim waited on the database).
  let deadlineAnswered = answeredAtDeadline(res);
  const free = () => holdsOf(res).then(() => freeKey(db, held));
  res.json = ((body: unknown) => {
    // The deadline marks the request and answers it in one step: the first answer after the mark is the deadline's.
    // Whether its bytes left yet is no guide (the activity log may hold an answer back while it writes the row).
    if (answeredAtDeadline(res) && !deadlineAnswered) {
      deadlineAnswered = true;
      return json(body);
    }
    settled = true;
    const late = deadlineAnswered || res.headersSent;
    const statusCode = late ? ((body as { success?: unknown } | null)?.success === true ? 200 : 500) : res.statusCode;
    const ok = statusCode >= 200 && statusCode < 300;
    const jobId = typeof res.locals.activityJobId === 'string' ? res.locals.activityJobId : null;
    if (!ok) {
      // Nothing to keep: the answer goes out at once, and freeKey frees the key, again and again while the database is away.
      free().catch(() => undefined);
      if (!late) json(body);
      return res;
    }
    db.idempotencyKey
      .updateMany({ where: { teamId, key, claimId }, data: { statusCode, answer: storableJson(body).value as Prisma.InputJsonValue, jobId } })
      .then(({ count }) => {
        if (count === 0) throw new Error('the key was claimed by another request meanwhile');
      })
      .catch((err: unknown) => {
        log.warn('idempotency key answer not stored; the key is freed', { requestId: res.locals.requestId, error: (err as Error).message });
        return free();
      })
      .catch(() => undefined)
      .finally(() => {
        // Answered at the deadline while the answer was being kept: the kept answer is the retry's.
        if (!late && !deadlineAnswered) json(body);
      });
    return res;
  }) as Response['json'];
  // A handler that fails after the deadline answered frees the key through the error handler.
  res.locals.onLateError = () => {
    if (settled) return;
    settled = true;
    free().catch(() => undefined);
  };
  // An answer that was never JSON (the connection went away first): the key is freed for a retry.
  res.once('close', () => {
    if (!settled && !answeredAtDeadline(res)) free().catch(() => undefined);
  });
}

/**
 * A claim that failed may still have been made (the database ran it, its answer was lost with
 * the connection): it is freed in the background, as a request that failed frees its key.
 */
async function claimOrFree(db: Db, attempt: Claim, fingerprint: string, windowHours: number): Promise<boolean> {
  try {
    return await claim(db, attempt, fingerprint, windowHours);
  } catch (err) {
    freeKey(db, attempt).catch(() => undefined);
    throw err;
  }
}

export function idempotency(db: Db, log: Logger, settings: IdempotencySettings): RequestHandler {
  return async (req, res, next) => {
    if (!createsJob(req)) return next();
    const key = keyOf(req);
    if (key === undefined) return next();
    const teamId = authOf(res).team.id;
    const fingerprint = fingerprintOf(req);
    for (;;) {
      const attempt: Claim = { teamId, key, claimId: randomUUID() };
      if (await claimOrFree(db, attempt, fingerprint, settings.windowHours)) {
        keepAnswer(db, log, res, attempt);
        return next();
      }
      const first = await db.idempotencyKey.findUnique({ where: { teamId_key: { teamId, key } } });
      // Freed meanwhile (the first request failed): claim it again.
      if (!first) continue;
      if (first.fingerprint !== fingerprint) {
        throw new HttpError(
          409,
          'x-idempotency-key was already used by this team for a different request (another endpoint or body). ' +
            `Send a new key for a new request; a key is remembered for ${settings.windowHours} h (IDEMPOTENCY_KEY_WINDOW_HOURS).`,
          'IDEMPOTENCY_KEY_REUSED',
        );
      }
      if (first.statusCode !== null) {
        if (first.jobId) noteActivityJob(res, first.jobId);
        res.setHeader('Idempotent-Replayed', 'true');
        return void res.status(first.statusCode).json(first.answer);
      }
      if (req.socket.destroyed) return;
      await new Promise((resolve) => setTimeout(resolve, WAIT_POLL_MS));
    }
  };
}
