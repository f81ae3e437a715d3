// A job's row with its team's in one raw statement, as Prisma's client returns it: every batch
// and every single scrape reads its job this way, and an ORM call costs its query's compilation on
// top (1.6-2.5 ms of CPU for the job with its team, against 0.5 ms raw: docs/benchmarks.md).
// test/integration/job-row.test.ts holds both equal.
import type { Job, Team } from '../generated/prisma/client.ts';
import type { Db } from '../platform/db/prisma.ts';
import { selectColumns } from '../platform/db/select-columns.ts';
import { TEAM_COLUMNS } from '../platform/teams/team-columns.ts';

/** Every column of a job, by its field: a field added to the model does not compile until it is read here. */
const JOB_COLUMNS: Record<keyof Job, string> = {
  id: 'id',
  teamId: 'team_id',
  apiKeyId: 'api_key_id',
  url: 'url',
  options: 'options',
  status: 'status',
  error: 'error',
  createdAt: 'created_at',
  completedAt: 'completed_at',
  expiresAt: 'expires_at',
  robotsTxt: 'robots_txt',
  warning: 'warning',
  workflowStartedAt: 'workflow_started_at',
  workflowId: 'workflow_id',
  taskQueue: 'task_queue',
  answeredFromCacheAt: 'answered_from_cache_at',
  kind: 'kind',
  resumeKey: 'resume_key',
  resumableUntil: 'resumable_until',
  pausedAt: 'paused_at',
  pausedBy: 'paused_by',
};

const JOB_SELECT = selectColumns('j', JOB_COLUMNS);
const TEAM_PREFIX = 'team.';
const TEAM_SELECT = selectColumns('t', TEAM_COLUMNS, TEAM_PREFIX);

export type JobWithTeam = Job & { team: Team };

/** `db.job.findUnique({ where: { id }, include: { team: true } })`, in one statement. */
export async function readJobWithTeam(db: Db, id: string): Promise<JobWithTeam | null> {
  const [row] = await db.$queryRaw<Record<string, unknown>[]>`
    SELECT ${JOB_SELECT}, ${TEAM_SELECT} FROM job j JOIN team t ON t.id = j.team_id WHERE j.id = ${id}::uuid`;
  if (!row) return null;
  const job: Record<string, unknown> = {};
  const team: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(row)) {
    if (name.startsWith(TEAM_PREFIX)) team[name.slice(TEAM_PREFIX.length)] = value;
    else job[name] = value;
  }
  return { ...(job as Job), team: team as Team };
}
