// Bearer-key authentication against hashed keys.
import type { RequestHandler } from 'express';
import type { Db } from '../db/prisma.ts';
import type { Team } from '../../generated/prisma/client.ts';
import { hashApiKey } from '../teams/api-keys.ts';
import { HttpError } from './http-error.ts';

export interface AuthContext {
  team: Team;
  apiKeyId: string;
}

export function authenticate(db: Db): RequestHandler {
  return async (req, res, next) => {
    const header = req.get('authorization') ?? '';
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match) return next(new HttpError(401, 'Unauthorized: Token missing', 'UNAUTHORIZED'));
    const key = await db.apiKey.findUnique({ where: { keyHash: hashApiKey(match[1]) }, include: { team: true } });
    if (!key || key.revokedAt) return next(new HttpError(401, 'Unauthorized: Invalid token', 'UNAUTHORIZED'));
    res.locals.auth = { team: key.team, apiKeyId: key.id } satisfies AuthContext;
    next();
  };
}

export function authOf(res: { locals: Record<string, unknown> }): AuthContext {
  return res.locals.auth as AuthContext;
}
