// The agent's read routes after authentication: the run list (pages of 20, newest
// first, `before` a unix-ms time), a run's trace and its answer's snapshot, and a
// thread with its runs. Expired runs are gone from all of them, as from GET.
import type { Db } from '../../platform/db/prisma.ts';
import { HttpError } from '../../platform/http/http-error.ts';
import { notFound } from '../../platform/http/errors.ts';
import { browserLiveViewUrl, publicBase } from '../../platform/http/public-url.ts';
import type { AgentJob } from '../../generated/prisma/client.ts';
import { jobIdParam } from '../../jobs/job-routes.ts';
import { agentListItem, threadAnswer, type StoredAgentOptions } from './agent-answers.ts';
import { answerSnapshotId, traceEvents } from './agent-trace.ts';
import { THREAD_NOT_FOUND } from './start-agent.ts';
import { toolCallId } from './tool-call-id.ts';
import type { AgentFeatureSettings } from './config.ts';

/** Runs per page of GET /v2/agent, as upstream's (the SDKs say pages are fixed at 20). */
export const AGENT_LIST_PAGE = 20;
/** The window the browser sessions of a run show in: Chromium's default. */
const SESSION_VIEWPORT = { width: 1280, height: 720 };

const unexpired = () => ({ OR: [{ expiresAt: null }, { expiresAt: { gt: new Date() } }] });

/** `before` of GET /v2/agent: a unix-ms time, as the SDKs send it. */
export function beforeParam(raw: unknown): Date | undefined {
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string' || !/^\d{1,15}$/.test(raw)) throw new HttpError(400, 'before must be a unix time in milliseconds (an integer).', 'BAD_REQUEST');
  return new Date(Number(raw));
}

/**
 * GET /v2/agent: a page of the team's runs, newest first. Runs are paged by their start time, so a
 * page never ends between two runs of the same millisecond (it takes the rest of them): `next`'s
 * `before` then skips none.
 */
export async function listAgents(db: Db, config: AgentFeatureSettings, teamId: string, before: Date | undefined): Promise<Record<string, unknown>> {
  const where = { teamId, ...unexpired(), ...(before && { createdAt: { lt: before } }) };
  const rows = await db.agentJob.findMany({ where, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: AGENT_LIST_PAGE + 1 });
  let page = rows;
  let next: Date | undefined;
  if (rows.length > AGENT_LIST_PAGE) {
    const boundary = rows[AGENT_LIST_PAGE - 1]!.createdAt;
    page = rows.slice(0, AGENT_LIST_PAGE).filter((r) => r.createdAt.getTime() !== boundary.getTime());
    const sameMoment = await db.agentJob.findMany({ where: { ...where, createdAt: boundary }, orderBy: { id: 'desc' } });
    page = [...page, ...sameMoment];
    next = boundary;
  }
  return {
    success: true,
    agents: page.map((job) => agentListItem(job, config)),
    ...(next && { next: `${publicBase(config)}/v2/agent?before=${next.getTime()}` }),
  };
}

/** GET /v2/agent/{id}/trace: the run's events; with liveView its browser sessions that are live now. */
export async function agentTrace(db: Db, config: AgentFeatureSettings, job: AgentJob, liveView: boolean): Promise<Record<string, unknown>> {
  const steps = await db.agentStep.findMany({ where: { agentId: job.id }, orderBy: { step: 'asc' } });
  const callIds = steps.filter((s) => s.tool === 'browser_execute').map((s) => toolCallId(job.id, s.step));
  const sessions = callIds.length > 0 ? await db.browserSession.findMany({ where: { id: { in: callIds }, teamId: job.teamId } }) : [];
  const zeroDataRetention = (job.options as StoredAgentOptions).zeroDataRetention === true;
  const live = sessions.filter((s) => s.status === 'starting' || s.status === 'active');
  return {
    success: true,
    id: job.id,
    events: traceEvents(job, steps, sessions, { zeroDataRetention }),
    creditsUsed: job.credits,
    ...(zeroDataRetention && { zeroDataRetention }),
    ...(liveView && {
      activeBrowserSessions: live.map((s) => ({
        id: s.id,
        liveViewUrl: s.streamWebView ? browserLiveViewUrl(publicBase(config), s.id, s.viewToken) : '',
        viewport: SESSION_VIEWPORT,
      })),
    }),
  };
}

/** GET /v2/agent/{id}/snapshots/{snapshotId}: the answer's artifact (the one snapshot a run has), once it answered. */
export function agentSnapshot(job: AgentJob, snapshotId: string): Record<string, unknown> {
  if (job.status !== 'completed' || snapshotId.toLowerCase() !== answerSnapshotId(job.id)) throw notFound('Agent snapshot not found');
  const snapshot = job.mode === 'chat' ? (job.message ?? '') : JSON.stringify(job.data ?? null);
  return { success: true, id: job.id, snapshotId: answerSnapshotId(job.id), snapshot };
}

/** GET /v2/agent/threads/{threadId}: the same 404 for unknown, foreign and wholly expired threads. */
export async function agentThread(db: Db, rawId: string, teamId: string, includeData: boolean): Promise<Record<string, unknown>> {
  const id = jobIdParam(rawId);
  const thread = await db.agentThread.findFirst({ where: { id, teamId } });
  const runs = thread ? await db.agentJob.findMany({ where: { threadId: id, ...unexpired() }, orderBy: { turn: 'asc' } }) : [];
  if (!thread || runs.length === 0) throw notFound(THREAD_NOT_FOUND);
  return threadAnswer(thread, runs, includeData);
}
