// Operator controls of a running crawl or batch scrape: pause, resume, adjust.
// Each is a signal or an update of the job's workflow, as the Temporal UI and
// `temporal workflow signal|update` send them (docs/operations.md); the CLI adds
// who sent it, which a workflow cannot otherwise learn.
import { userInfo, hostname } from 'node:os';
import { WorkflowNotFoundError, WorkflowUpdateFailedError, WorkflowUpdateRPCTimeoutOrCancelledError } from '@temporalio/client';
import type { Job } from '../../generated/prisma/client.ts';
import { adjustUpdate, jobWorkflowId, pauseSignal, resumeSignal, type JobAdjustment, type PauseSignalInput } from '../../jobs/definitions.ts';
import { DomainError } from '../../platform/domain-error.ts';
import { NotFoundError } from '../../platform/teams/teams.ts';
import { nonNegativeInt, positiveInt, UsageError, uuidArg, type CliContext, type Command } from './command.ts';

/** An update waits for the workflow's worker to apply it; with none running it would wait for one. */
const UPDATE_TIMEOUT_MS = 30_000;

/** Who runs the CLI, as the workflow's details and the job's status name them. */
function operator(given: unknown): string {
  if (typeof given === 'string' && given.trim() !== '') return given.trim();
  return `${userInfo().username}@${hostname()} (cli)`;
}

async function runningJob(ctx: CliContext, id: string): Promise<Job> {
  const job = await ctx.db.job.findUnique({ where: { id: uuidArg(id, 'job') } });
  if (!job) throw new NotFoundError(`no crawl or batch scrape ${id}`);
  if (job.kind === 'scrape') throw new DomainError('conflict', `Job ${job.id} is a single scrape: only crawls and batch scrapes are paused or adjusted`);
  if (job.status !== 'scraping') throw new DomainError('conflict', `Job ${job.id} is ${job.status}: only a running job is paused, resumed or adjusted`);
  return job;
}

async function signalJob(ctx: CliContext, job: Job, signal: typeof pauseSignal, input: PauseSignalInput): Promise<void> {
  try {
    await (await ctx.temporal()).workflow.getHandle(jobWorkflowId(job)).signal(signal, input);
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) throw new DomainError('conflict', `Job ${job.id} has no running workflow`);
    throw err;
  }
}

const pauseOrResume = (what: 'pause' | 'resume', signal: typeof pauseSignal): Command => ({
  summary:
    what === 'pause'
      ? 'Pause a running crawl or batch scrape: its batches finish the pages in flight, then it holds no slot or browser until resumed.'
      : 'Resume a paused crawl or batch scrape where it stopped.',
  usage: `jobs ${what} <job-id> [--by <who>] [--json]`,
  options: { by: { type: 'string' } },
  positionals: 1,
  async run(ctx, v, [id]) {
    const job = await runningJob(ctx, id);
    const by = operator(v.by);
    await signalJob(ctx, job, signal, { by });
    const done = what === 'pause' ? 'paused' : 'resumed';
    return { data: { id: job.id, signal: what, by }, text: [`job ${job.id} (${job.kind}) ${done} by ${by}`] };
  },
});

const jobsAdjust: Command = {
  summary: "Change a running crawl's or batch scrape's limit, maxConcurrency, delay (seconds, 0: none) or maxDiscoveryDepth.",
  usage: 'jobs adjust <job-id> [--limit <n>] [--max-concurrency <n>] [--delay <seconds>] [--max-discovery-depth <n>] [--json]',
  options: { limit: { type: 'string' }, 'max-concurrency': { type: 'string' }, delay: { type: 'string' }, 'max-discovery-depth': { type: 'string' } },
  positionals: 1,
  async run(ctx, v, [id]) {
    const delay = v.delay === undefined ? undefined : Number(v.delay);
    if (delay !== undefined && !(delay >= 0 && delay <= 60)) throw new UsageError('--delay must be a number of seconds from 0 (no delay) to 60');
    const adjustment: JobAdjustment = Object.fromEntries(
      Object.entries({
        limit: positiveInt(v.limit, 'limit'),
        maxConcurrency: positiveInt(v['max-concurrency'], 'max-concurrency'),
        delay,
        maxDiscoveryDepth: nonNegativeInt(v['max-discovery-depth'], 'max-discovery-depth'),
      }).filter(([, value]) => value !== undefined),
    );
    if (Object.keys(adjustment).length === 0) throw new UsageError(`nothing to adjust: usage: npm run cli -- ${jobsAdjust.usage}`);
    const job = await runningJob(ctx, id);
    const temporal = await ctx.temporal();
    let inForce;
    try {
      inForce = await temporal.connection.withDeadline(Date.now() + UPDATE_TIMEOUT_MS, () =>
        temporal.workflow.getHandle(jobWorkflowId(job)).executeUpdate(adjustUpdate, { args: [adjustment] }),
      );
    } catch (err) {
      throw refusal(job, err);
    }
    const shown = Object.entries(inForce).map(([k, value]) => `${k}=${value}`);
    return { data: { id: job.id, inForce }, text: [`job ${job.id} (${job.kind}) now runs with ${shown.join(', ')}`] };
  },
};

/** The workflow's refusal (its validator's rejection, or the database's check failing the update) as the operator's error. */
function refusal(job: Job, err: unknown): Error {
  if (err instanceof WorkflowNotFoundError) return new DomainError('conflict', `Job ${job.id} has no running workflow`);
  if (err instanceof WorkflowUpdateRPCTimeoutOrCancelledError)
    return new DomainError('unavailable', `Job ${job.id}'s workflow did not answer in time (is a worker running?)`);
  if (err instanceof WorkflowUpdateFailedError) {
    const cause = err.cause as { message?: string } | undefined;
    return new DomainError('conflict', `Adjustment refused: ${cause?.message ?? err.message}`);
  }
  return err as Error;
}

export const JOB_CONTROL_COMMANDS: Record<string, Command> = {
  'jobs pause': pauseOrResume('pause', pauseSignal),
  'jobs resume': pauseOrResume('resume', resumeSignal),
  'jobs adjust': jobsAdjust,
};
