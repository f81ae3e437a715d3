// Team and API key administration, used by the admin CLI and by `npm start`'s
// first-run setup.
import { randomBytes } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import type { Db } from '../db/prisma.ts';
import { generateApiKey, hashApiKey, keyPrefix } from './api-keys.ts';

export interface TeamFlags {
  ignoreRobotsTxt?: boolean;
  robotsUserAgent?: boolean;
  zeroDataRetention?: boolean;
  searchAnon?: boolean;
  searchZdr?: boolean;
}

const FLAG_COLUMNS = {
  ignoreRobotsTxt: 'flagIgnoreRobotsTxt',
  robotsUserAgent: 'flagRobotsUserAgent',
  zeroDataRetention: 'flagZeroDataRetention',
  searchAnon: 'flagSearchAnon',
  searchZdr: 'flagSearchZdr',
} as const;

export const FLAG_NAMES = Object.keys(FLAG_COLUMNS) as (keyof TeamFlags)[];

/** A team's flags by their API names. */
export function teamFlags(team: Record<(typeof FLAG_COLUMNS)[keyof TeamFlags], boolean>): Required<TeamFlags> {
  return Object.fromEntries(FLAG_NAMES.map((f) => [f, team[FLAG_COLUMNS[f]]])) as Required<TeamFlags>;
}

export class NotFoundError extends Error {}

export function newSigningSecret(): string {
  return `whsec_${randomBytes(24).toString('hex')}`;
}

export async function createTeam(db: Db, input: { name: string; concurrencyLimit?: number; credits?: number; flags?: TeamFlags }) {
  return db.team.create({
    data: {
      id: uuidv7(),
      name: input.name,
      concurrencyLimit: input.concurrencyLimit,
      creditBalance: input.credits,
      webhookSigningSecret: newSigningSecret(),
      ...flagColumns(input.flags ?? {}),
    },
  });
}

function flagColumns(flags: TeamFlags) {
  return Object.fromEntries(
    Object.entries(flags)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [FLAG_COLUMNS[k as keyof TeamFlags], v]),
  );
}

export async function findTeam(db: Db, idOrName: string) {
  const isUuid = /^[0-9a-f-]{36}$/i.test(idOrName);
  const team = await db.team.findFirst({ where: isUuid ? { id: idOrName } : { name: idOrName } });
  if (!team) throw new NotFoundError(`no team "${idOrName}"`);
  return team;
}

/** Returns the plaintext key: the only time it exists outside the caller's hands. */
export async function issueApiKey(db: Db, teamId: string, name = 'default') {
  const key = generateApiKey();
  const row = await db.apiKey.create({ data: { id: uuidv7(), teamId, name, keyHash: hashApiKey(key), keyPrefix: keyPrefix(key) } });
  return { key, id: row.id, prefix: row.keyPrefix };
}

export async function revokeApiKey(db: Db, idOrPrefix: string) {
  const isUuid = /^[0-9a-f-]{36}$/i.test(idOrPrefix);
  const { count } = await db.apiKey.updateMany({
    where: { ...(isUuid ? { id: idOrPrefix } : { keyPrefix: idOrPrefix }), revokedAt: null },
    data: { revokedAt: new Date() },
  });
  if (count === 0) throw new NotFoundError(`no active API key "${idOrPrefix}"`);
  return count;
}

export async function setTeamFlags(db: Db, teamId: string, flags: TeamFlags) {
  return db.team.update({ where: { id: teamId }, data: flagColumns(flags) });
}

export async function grantCredits(db: Db, teamId: string, amount: number) {
  return db.team.update({ where: { id: teamId }, data: { creditBalance: { increment: amount } } });
}

/** First start: a default team with one key, so the printed key works at once. */
export async function ensureDefaultTeam(
  db: Db,
  defaults: { credits: number; concurrency: number },
): Promise<{ created: boolean; key?: string; teamId: string }> {
  const existing = await db.team.findFirst({ orderBy: { createdAt: 'asc' } });
  if (existing) return { created: false, teamId: existing.id };
  const team = await createTeam(db, { name: 'default', credits: defaults.credits, concurrencyLimit: defaults.concurrency });
  const { key } = await issueApiKey(db, team.id, 'default');
  return { created: true, key, teamId: team.id };
}
