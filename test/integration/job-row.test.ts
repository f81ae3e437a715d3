// The raw read of a job's row with its team (src/jobs/job-row.ts) gives what Prisma's client gives for the same
// row, field by field and type by type, for a row with every column set and one with every
// optional column null, so a raw read never hands a caller another shape.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { v7 as uuidv7 } from 'uuid';
import { createDb, type Db } from '../../src/platform/db/prisma.ts';
import { createTeam, issueApiKey } from '../../src/platform/teams/teams.ts';
import { readJobWithTeam } from '../../src/jobs/job-row.ts';

let db: Db;

beforeAll(() => {
  db = createDb(inject('databaseUrl'), 4);
});
afterAll(() => db?.$disconnect());

it('reads a job with every column set as the ORM does, its team included', async () => {
  const team = await createTeam(db, { name: `job-row-${randomUUID()}`, credits: 7, concurrencyLimit: 3 });
  await db.team.update({ where: { id: team.id }, data: { planCredits: 500, flagSearchZdr: true, webhookSigningSecret: 'secret' } });
  const { id: apiKeyId } = await issueApiKey(db, team.id);
  const at = (s: number) => new Date(Date.UTC(2026, 11, 7, 12, 0, s, 123));
  const id = uuidv7();
  await db.job.create({
    data: {
      id,
      teamId: team.id,
      apiKeyId,
      url: 'http://site.test/',
      options: { limit: 5, scrapeOptions: { formats: ['markdown'], nested: [1, 'two', null, { deep: true }] } },
      status: 'completed',
      error: 'an error',
      createdAt: at(1),
      completedAt: at(2),
      expiresAt: at(3),
      robotsTxt: 'User-agent: *',
      warning: 'a warning',
      workflowStartedAt: at(4),
      workflowId: `scrape-${id}`,
      taskQueue: 'crawl',
      answeredFromCacheAt: at(5),
      kind: 'scrape',
      resumeKey: `key-${id}`,
      resumableUntil: at(6),
      pausedAt: at(7),
      pausedBy: 'alice',
    },
  });
  const orm = await db.job.findUnique({ where: { id }, include: { team: true } });
  const raw = await readJobWithTeam(db, id);
  expect(raw).toStrictEqual(orm);
  expect(Object.values(orm!).every((v) => v !== null)).toBe(true);
});

it('reads the optional columns as null, and a job that does not exist as null', async () => {
  const team = await createTeam(db, { name: `job-row-${randomUUID()}`, credits: 1 });
  const id = uuidv7();
  await db.job.create({ data: { id, teamId: team.id, url: 'http://site.test/', options: {} } });
  expect(await readJobWithTeam(db, id)).toStrictEqual(await db.job.findUnique({ where: { id }, include: { team: true } }));
  expect(await readJobWithTeam(db, uuidv7())).toBeNull();
});
