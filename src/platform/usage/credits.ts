// Credit math and the usage ledger. A page costs one credit; zero data
// retention adds one (as upstream bills it), a parsed PDF adds one per page
// beyond the first, and each model format the model answered (json, question,
// highlights, query; change tracking's json mode counts as one; product and menu when
// their structured data needed a model) adds four (a json page costs 5, as upstream), and so does
// redactPII, four more per parsed PDF page beyond the first (as upstream). A row's tokens are
// its credits × 15 plus the prompt and completion tokens of the model calls
// made for it, so token history shows what the models used. Charges are rows keyed by (endpoint, job, item), so a
// retried activity never bills twice; the team balance moves in the same
// transaction as the ledger row, and so does the team's monthly summary (usage_month,
// kept by a trigger on the ledger, so every row that enters it is counted).
import { Prisma } from '../../generated/prisma/client.ts';
import type { Db, Tx } from '../db/prisma.ts';
import type { SqlTx } from '../db/sql-transactions.ts';
import { DomainError } from '../domain-error.ts';

export const TOKENS_PER_CREDIT = 15;

/** Added to a page's cost by each model format the model answered (product and menu: when they asked it). */
export const MODEL_FORMAT_CREDITS = 4;

/** usage_month's key for charges made without an API key (see the usage_month trigger). */
export const NO_API_KEY = '00000000-0000-0000-0000-000000000000';

export interface PageCostInput {
  zeroDataRetention: boolean;
  /** Pages of a parsed PDF; undefined for HTML pages. */
  pdfPages?: number;
  /** Credits the page's formats add (each model format the model answered: MODEL_FORMAT_CREDITS). */
  formatCredits?: number;
  /** The page was redacted (redactPII). */
  redacted?: boolean;
}

/** Added to a page's cost by redactPII, and again for each parsed PDF page beyond the first. */
export const REDACT_PII_CREDITS = 4;

export function pageCredits({ zeroDataRetention, pdfPages, formatCredits = 0, redacted = false }: PageCostInput): number {
  const extraPages = Math.max(0, (pdfPages ?? 1) - 1);
  const redaction = redacted ? REDACT_PII_CREDITS * (1 + extraPages) : 0;
  return 1 + (zeroDataRetention ? 1 : 0) + extraPages + formatCredits + redaction;
}

/** A search's charge: 2 credits per 10 results (started), 10 per 10 with zero data retention. */
export function searchCredits(results: number, zeroDataRetention: boolean): number {
  return Math.ceil(results / 10) * (zeroDataRetention ? 10 : 2);
}

export interface Charge {
  teamId: string;
  apiKeyId: string | null;
  /** The activity endpoint name of the spec that the charge belongs to. */
  endpoint: 'crawl' | 'batch_scrape' | 'scrape' | 'map' | 'search' | 'browser' | 'parse' | 'extract' | 'agent';
  jobId: string;
  itemKey: string;
  credits: number;
  /** Prompt and completion tokens of the model calls made for the item, on top of credits × 15. */
  modelTokens?: number;
}

/** Records a charge once and lowers the team's balance by it; returns false when this item was already billed. */
export async function chargeOnce(tx: Tx, charge: Charge): Promise<boolean> {
  return chargeItemsOnce(tx, charge, [charge]);
}

/**
 * chargeOnce for several items of one job in one statement (a group of a crawl's pages);
 * returns whether any of them was not billed before.
 */
export async function chargeItemsOnce(
  tx: SqlTx,
  job: Omit<Charge, 'itemKey' | 'credits' | 'modelTokens'>,
  items: Pick<Charge, 'itemKey' | 'credits' | 'modelTokens'>[],
): Promise<boolean> {
  if (items.length === 0) return false;
  const source = Prisma.sql`SELECT * FROM unnest(${items.map((i) => i.itemKey)}::text[], ${items.map((i) => i.credits)}::int[], ${items.map((i) => i.modelTokens ?? 0)}::int[])`;
  const [{ charged }] = await tx.$queryRaw<{ charged: boolean }[]>`WITH ${chargeSteps(job, source)} SELECT EXISTS (SELECT 1 FROM charged) AS charged`;
  return charged;
}

/**
 * Whose job a charge is for. The team and key may be SQL that reads them from the statement's own
 * expressions (a row the same statement updates), so the charge needs no read before it.
 */
export interface ChargedJob extends Pick<Charge, 'endpoint' | 'jobId'> {
  teamId: string | Prisma.Sql;
  apiKeyId: string | null | Prisma.Sql;
}

/**
 * The two steps of a charge as common table expressions: `entry`, the ledger rows of `source`'s
 * items not billed before, and `charged`, the team's balance lowered by them (a row when it was).
 * For a statement that bills what its own earlier expressions chose; `source` yields
 * (item_key, credits, model_tokens) rows.
 */
export function chargeSteps(job: ChargedJob, source: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`entry AS (
      INSERT INTO usage_entry (team_id, api_key_id, endpoint, job_id, item_key, credits, tokens)
      SELECT ${job.teamId}::uuid, ${job.apiKeyId}::uuid, ${job.endpoint}, ${job.jobId}, i.item_key, i.credits, i.credits * ${TOKENS_PER_CREDIT} + i.model_tokens
      FROM (${source}) AS i(item_key, credits, model_tokens)
      ON CONFLICT (endpoint, job_id, item_key) DO NOTHING
      RETURNING credits
    ),
    charged AS (
      UPDATE team SET credit_balance = team.credit_balance - (SELECT sum(credits) FROM entry)
      WHERE team.id = ${job.teamId}::uuid AND EXISTS (SELECT 1 FROM entry)
      RETURNING 1
    )`;
}

/**
 * Model tokens a job spent outside its pages (a crawl's prompt): a ledger row of 0 credits and
 * those tokens, once per item like every charge.
 */
export async function recordModelTokens(db: Db, item: Omit<Charge, 'credits' | 'modelTokens'>, tokens: number): Promise<void> {
  if (tokens <= 0) return;
  await db.$transaction((tx) => chargeOnce(tx, { ...item, credits: 0, modelTokens: tokens }));
}

/**
 * A job's charges on the ledger, as its trigger keeps their sum in usage_job (one row; summing the
 * ledger's rows took 40 ms at 150,000 pages). Committed charges only: the sum moves as the charging
 * transaction commits, so a transaction does not see its own charges here.
 */
export async function creditsUsedByJob(db: Db, jobId: string): Promise<number> {
  const row = await db.usageJob.findUnique({ where: { jobId }, select: { credits: true } });
  return Number(row?.credits ?? 0);
}

/** The 402 of a job the team cannot pay for; `what` names the job ("a crawl", "a map"). */
export function insufficientCredits(balance: number, what = 'a crawl', needed = 1): DomainError {
  const unit = what === 'a map' ? 'for the call' : 'for its first page';
  return new DomainError(
    'payment-required',
    `Insufficient credits to perform this request: ${what} needs at least ${needed} credit${needed === 1 ? '' : 's'} ${unit} and the team has ${Math.max(0, balance)}. Add credits (npm run cli -- team credits --help).`,
    'PAYMENT_REQUIRED',
  );
}
