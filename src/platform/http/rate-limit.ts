// The per-API-key rate limit: a token bucket of `burst` tokens refilled at
// `perMinute` a minute, one token per request. The bucket is a row taken from by
// one atomic INSERT … ON CONFLICT DO UPDATE … RETURNING on the database's clock,
// so every gateway replica draws from the same bucket without a lock held
// across statements, and replicas' clocks do not matter. The same statement's
// answer gives the RateLimit-* headers of every keyed response.
import type { RequestHandler, Response } from 'express';
import { Prisma } from '../../generated/prisma/client.ts';
import type { Db } from '../db/prisma.ts';
import { authOf } from './auth.ts';
import { HttpError } from './http-error.ts';

export interface RateLimitSettings {
  /** Tokens added a minute; 0 turns the limit off. */
  perMinute: number;
  /** Most tokens a bucket holds: the requests a key may make at once after being idle. */
  burst: number;
}

export interface TokenTaken {
  allowed: boolean;
  /** Whole tokens left after this request: the requests the key may make right now. */
  remaining: number;
  /** Whole seconds until a token is there again; 0 when allowed. */
  retryAfterSeconds: number;
  /** Whole seconds until the bucket is full again (0 when it is). */
  fullInSeconds: number;
}

export async function takeToken(db: Db, apiKeyId: string, { perMinute, burst }: RateLimitSettings): Promise<TokenTaken> {
  const perSecond = perMinute / 60;
  // The existing row's tokens topped up for the time since it was last touched (the SET clauses all see the old row).
  const refilled = Prisma.sql`LEAST(${burst}::float8, r.tokens + GREATEST(0, EXTRACT(EPOCH FROM now() - r.updated_at)::float8) * ${perSecond}::float8)`;
  const rows = await db.$queryRaw<{ tokens: number; allowed: boolean }[]>`
    INSERT INTO api_key_rate AS r (api_key_id, tokens, allowed, updated_at)
    VALUES (${apiKeyId}::uuid, ${burst - 1}::float8, true, now())
    ON CONFLICT (api_key_id) DO UPDATE SET
      tokens = CASE WHEN ${refilled} >= 1 THEN ${refilled} - 1 ELSE ${refilled} END,
      allowed = ${refilled} >= 1,
      updated_at = now()
    RETURNING r.tokens, r.allowed`;
  const { tokens, allowed } = rows[0];
  const secondsFor = (missing: number) => Math.ceil((missing * 60) / perMinute);
  return {
    allowed,
    remaining: Math.max(0, Math.floor(tokens)),
    retryAfterSeconds: allowed ? 0 : Math.max(1, secondsFor(1 - tokens)),
    fullInSeconds: Math.max(0, secondsFor(burst - tokens)),
  };
}

/**
 * The IETF draft's fields (draft-ietf-httpapi-ratelimit-headers): the limit is the burst (the
 * requests a key may make at once), remaining the whole tokens left, reset the seconds until
 * the bucket is full again.
 */
function setRateLimitHeaders(res: Response, burst: number, taken: TokenTaken): void {
  res.setHeader('RateLimit-Limit', String(burst));
  res.setHeader('RateLimit-Remaining', String(taken.remaining));
  res.setHeader('RateLimit-Reset', String(taken.fullInSeconds));
}

/** After authentication: sets the RateLimit-* headers, and answers 429 with Retry-After once the key's bucket is empty. */
export function rateLimit(db: Db, settings: RateLimitSettings): RequestHandler {
  return async (_req, res, next) => {
    if (settings.perMinute === 0) return next();
    const taken = await takeToken(db, authOf(res).apiKeyId, settings);
    setRateLimitHeaders(res, settings.burst, taken);
    if (taken.allowed) return next();
    res.setHeader('Retry-After', String(taken.retryAfterSeconds));
    next(
      new HttpError(
        429,
        `Rate limit exceeded: an API key may make ${settings.perMinute} requests a minute, ${settings.burst} at once ` +
          `(API_KEY_RATE_LIMIT_PER_MINUTE, API_KEY_RATE_LIMIT_BURST). Retry after ${taken.retryAfterSeconds} s.`,
        'RATE_LIMITED',
      ),
    );
  };
}
