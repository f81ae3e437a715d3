// Browser sessions of every team: list, inspect, end. Ending goes through the
// feature's endSession, as DELETE /v2/browser/{id} does.
import type { BrowserSession } from '../../generated/prisma/client.ts';
import { sessionWorkflowId, type SessionStatus } from '../../features/browser-sessions/protocol/definitions.ts';
import { endSession, sessionEnded } from '../../features/browser-sessions/gateway/end-session.ts';
import { DomainError } from '../../platform/domain-error.ts';
import type { Db } from '../../platform/db/prisma.ts';
import { findTeam, NotFoundError } from '../../platform/teams/teams.ts';
import { oneOf, positiveInt, uuidArg, type Command } from './command.ts';
import { describeWorkflow } from './temporal-access.ts';
import { age, table } from './table.ts';

const STATUSES: readonly SessionStatus[] = ['starting', 'active', 'destroyed', 'error'];
const DEFAULT_LIST_LIMIT = 50;

type SessionRow = BrowserSession & { team: { name: string } };

async function sessionById(db: Db, id: string): Promise<SessionRow> {
  const row = await db.browserSession.findUnique({ where: { id: uuidArg(id, 'session') }, include: { team: { select: { name: true } } } });
  if (!row) throw new NotFoundError(`no browser session ${id}`);
  return row;
}

/** The row without its tokens: they grant control of the browser. */
function sessionRecord(row: SessionRow) {
  return {
    id: row.id,
    teamId: row.teamId,
    team: row.team.name,
    status: row.status,
    hostId: row.hostId,
    profileName: row.profileName,
    createdAt: row.createdAt.toISOString(),
    lastActivityAt: row.lastActivityAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    endedAt: row.endedAt?.toISOString() ?? null,
    endReason: row.endReason,
    durationMs: row.durationMs,
    creditsBilled: row.creditsBilled,
  };
}

const sessionsLs: Command = {
  summary: 'List browser sessions of every team or one, newest first (--status active includes starting).',
  usage: `sessions ls [--team <team-id-or-name>] [--status ${STATUSES.join('|')}] [--limit <n>] [--json]`,
  options: { team: { type: 'string' }, status: { type: 'string' }, limit: { type: 'string' } },
  async run({ db }, v) {
    const status = oneOf(v.status, 'status', STATUSES);
    const limit = positiveInt(v.limit, 'limit') ?? DEFAULT_LIST_LIMIT;
    const team = v.team === undefined ? undefined : await findTeam(db, String(v.team));
    const rows = await db.browserSession.findMany({
      // As GET /v2/browser?status=active: a session still starting is live too.
      where: { ...(team && { teamId: team.id }), ...(status && { status: status === 'active' ? { in: ['starting', 'active'] } : status }) },
      orderBy: { createdAt: 'desc' },
      take: limit,
      include: { team: { select: { name: true } } },
    });
    const sessions = rows.map(sessionRecord);
    if (sessions.length === 0) return { data: { sessions }, text: ['no sessions'] };
    const now = new Date();
    return {
      data: { sessions },
      text: table(
        ['ID', 'TEAM', 'STATUS', 'HOST', 'CREDITS', 'CREATED', 'AGE', 'EXPIRES'],
        rows.map((r) => [
          r.id,
          r.team.name,
          r.status,
          r.hostId ?? '-',
          r.creditsBilled ?? '-',
          r.createdAt.toISOString(),
          age(r.createdAt, now),
          r.expiresAt.toISOString(),
        ]),
        ['CREDITS'],
      ),
    };
  },
};

const sessionsShow: Command = {
  summary: "Show one browser session: its row (no tokens) and its Temporal workflow's status.",
  usage: 'sessions show <session-id> [--json]',
  options: {},
  positionals: 1,
  async run(ctx, _v, [id]) {
    const row = await sessionById(ctx.db, id);
    const workflowId = sessionWorkflowId(row.id);
    const workflow = { id: workflowId, ...(await describeWorkflow(ctx, workflowId)) };
    const data = { ...sessionRecord(row), workflow };
    const line = (label: string, value: unknown) => `${`${label}:`.padEnd(14)}${value}`;
    return {
      data,
      text: [
        line('session', row.id),
        line('team', `${row.team.name} (${row.teamId})`),
        line('status', row.status + (row.endReason ? ` (${row.endReason})` : '')),
        line('host', row.hostId ?? '-'),
        line('profile', row.profileName ?? '-'),
        line('created', `${data.createdAt} (${age(row.createdAt)} ago)`),
        line('last active', data.lastActivityAt),
        line('expires', data.expiresAt),
        line('ended', data.endedAt ?? '-'),
        line('billed', row.creditsBilled === null ? '-' : `${row.creditsBilled} credits for ${row.durationMs} ms`),
        line('workflow', `${workflowId}: ${workflow.status ?? `unknown (${workflow.note})`}`),
      ],
    };
  },
};

const sessionsEnd: Command = {
  summary: 'End a live browser session as DELETE /v2/browser/{id} does (needs Temporal); an ended session is an error.',
  usage: 'sessions end <session-id> [--json]',
  options: {},
  positionals: 1,
  async run(ctx, _v, [id]) {
    const row = await sessionById(ctx.db, id);
    if (sessionEnded(row)) throw new DomainError('conflict', `Session ${row.id} has already ended (${row.status})`);
    const ended = await endSession(ctx.db, await ctx.temporal(), row);
    const { status } = await ctx.db.browserSession.findUniqueOrThrow({ where: { id: row.id } });
    return {
      data: { id: row.id, status, ...ended },
      text: [`session ${row.id} of ${row.team.name} ended (${status}): ${ended.sessionDurationMs} ms, ${ended.creditsBilled} credits billed`],
    };
  },
};

export const SESSION_COMMANDS: Record<string, Command> = { 'sessions ls': sessionsLs, 'sessions show': sessionsShow, 'sessions end': sessionsEnd };
