// A single scrape whose page is in the team's page cache, answered by the gateway itself: nothing
// is loaded, so nothing waits on a workflow, a worker or a queue. The cached copy goes through the
// same page handler a batch runs (conversion, charge, index entry: page-handler.ts), and the job,
// its frontier row, its page, its charge and its end are written in one transaction with whatever
// the caller adds (the request's activity log row): the scrape exists completely or not at all.
// Its row says so (answered_from_cache_at); it has no `scrape-<id>` workflow in Temporal.
// A scrape this cannot answer (no copy, a copy that fails its conversion, a model format, ...)
// goes on as before, through its workflow.
import type { Client } from '@temporalio/client';
import { v7 as uuidv7 } from 'uuid';
import type { Team } from '../generated/prisma/client.ts';
import type { Db } from '../platform/db/prisma.ts';
import type { SqlTx } from '../platform/db/sql-transactions.ts';
import { storableJson } from '../platform/db/storable.ts';
import type { Logger } from '../platform/log.ts';
import { convertInline } from '../page/conversion/html-conversion.ts';
import { formatModule } from '../page/formats/registry.ts';
import { changeTrackingOf } from '../page/formats/change-tracking/change-tracking-format.ts';
import { modelFormatsOf } from '../page/model-formats/run-model-formats.ts';
import type { PageLoad } from '../page/page-load.ts';
import type { JobSettings } from './config.ts';
import type { CrawlRequest } from './crawl-request.ts';
import { insufficientCredits } from '../platform/usage/credits.ts';
import type { JobToCommit } from './commit-job.ts';
import { FrontierState } from './frontier/frontier-state.ts';
import { jobContext } from './job-context.ts';
import { jobModel } from './job-model.ts';
import { countJobEnded, countJobStarted } from './job-metrics.ts';
import { createPageHandler } from './batch/page-handler.ts';
import { BatchTally } from './batch/batch-tally.ts';
import { cacheKey, lookupCache } from './pages/page-cache.ts';
import { countStoredPages, type LoadPath } from './pages/page-metrics.ts';
import { inTransaction, writeScrapedPages, type PageStoreDb, type PageWrite } from './pages/page-store.ts';
import { crawlWebhook, writeCrawlEvent } from './webhooks/crawl-events.ts';
import { newJobWorkflowId } from './definitions.ts';
import type { PreparedScrape } from './scrape-job.ts';

type Deps = { db: Db; temporal: Client; config: JobSettings; log: Logger };

/**
 * Pages the gateway converts itself, on its event loop (a worker converts on threads of its own):
 * a bigger cached page goes through the workflow, so one answer never holds the others up long.
 */
const GATEWAY_CONVERSION_MAX_BYTES = 512 * 1024;

/**
 * Whether a cached copy could answer the request in the gateway: not under zero data retention
 * (which never reads the cache), and nothing that sends the page to a model (model formats, a
 * format's model mode, redactPII) or compares it with a snapshot (change tracking).
 */
function answerableFromCache(options: CrawlRequest): boolean {
  const so = options.scrapeOptions;
  if (options.zeroDataRetention || changeTrackingOf(so) !== undefined) return false;
  if (so.redactPII !== undefined && so.redactPII !== false) return false;
  return modelFormatsOf(so.formats).length === 0 && so.formats.every((f) => formatModule(f.type).needsModel?.(f) === undefined);
}

/** The team's cached copy of the scrape's page that the batch would serve it from (lookupCache's rules), if the gateway may answer with it. */
export async function cachedLoadOf(db: Db, teamId: string, scrape: PreparedScrape): Promise<PageLoad | undefined> {
  if (!answerableFromCache(scrape.options)) return undefined;
  const so = scrape.options.scrapeOptions;
  const key = cacheKey(scrape.seed.url, so);
  const load = (await lookupCache(db, teamId, [key], so, false)).get(key);
  if (load?.rawHtml !== undefined && Buffer.byteLength(load.rawHtml) > GATEWAY_CONVERSION_MAX_BYTES) return undefined;
  return load;
}

export interface CachedAnswerOptions {
  resume?: JobToCommit['resume'];
  /** Written in the scrape's transaction, once its job row exists (the activity log's row). */
  alsoWrite?: (tx: SqlTx, jobId: string) => Promise<void>;
  step?: (name: string) => void;
}

/** The job row the scrape will have, as its page handler reads it. */
function jobRow(deps: Deps, team: Team, apiKeyId: string, scrape: PreparedScrape, id: string, now: Date) {
  return {
    id,
    teamId: team.id,
    apiKeyId,
    url: scrape.url,
    options: scrape.options,
    status: 'completed',
    error: null,
    createdAt: now,
    completedAt: now,
    expiresAt: new Date(now.getTime() + deps.config.crawl.retentionHours * 3_600_000),
    robotsTxt: null,
    warning: null,
    workflowStartedAt: null,
    workflowId: newJobWorkflowId('scrape', id),
    taskQueue: deps.config.temporal.taskQueue,
    kind: 'scrape',
    resumeKey: null,
    resumableUntil: null,
    pausedAt: null,
    pausedBy: null,
    answeredFromCacheAt: now,
    team,
  };
}

/** The page write a batch would make of the cached copy, or undefined when the copy does not make a page. */
async function pageWriteOf(deps: Deps, crawl: ReturnType<typeof jobRow>, scrape: PreparedScrape, load: PageLoad): Promise<PageWrite | undefined> {
  const { config } = deps;
  const unused = async (): Promise<never> => {
    throw new Error('a scrape answered from the cache fetches nothing');
  };
  // A single scrape neither follows links nor reads robots.txt, so its robots are never asked.
  const job = jobContext(deps, { crawl, options: scrape.options, robotsAgent: '', robotsFetch: unused });
  let write: PageWrite | undefined;
  const handler = createPageHandler({
    job,
    limits: config.crawl,
    indexing: config.search.indexPages,
    llm: jobModel(config.llm, false),
    redactMaxChunks: config.llm.redactMaxChunks,
    convert: convertInline,
    probeImages: unused,
    writer: { page: async (w) => void (write = w), failure: async () => undefined },
    tally: new BatchTally(),
    depthOf: () => scrape.seed.depth,
    log: deps.log,
    signal: new AbortController().signal,
  });
  await handler.store({ url: scrape.seed.url, key: scrape.seed.urlKey }, load, { path: 'cache' });
  return write;
}

/** Thrown in the scrape's transaction to roll it back: another scrape took the request's key meanwhile. */
class KeyTaken extends Error {}

/**
 * The job's row, already completed, and its frontier row, already done, in one statement; the key
 * taken over from the scrape that held it. Nothing is inserted when another scrape holds the key.
 */
async function writeJobRow(tx: SqlTx, crawl: ReturnType<typeof jobRow>, seed: PreparedScrape['seed'], resume: JobToCommit['resume']): Promise<void> {
  // The old holder's row lock orders two takeovers: the second finds the key gone and inserts nothing.
  if (resume?.replaces) await tx.$executeRaw`UPDATE job SET resume_key = NULL WHERE id = ${resume.replaces}::uuid AND resume_key = ${resume.key}`;
  const { id, teamId, apiKeyId, url, options, status, taskQueue, kind, workflowId, createdAt, completedAt, expiresAt, answeredFromCacheAt } = crawl;
  const inserted = await tx.$queryRaw<unknown[]>`
    WITH j AS (
      INSERT INTO job (id, team_id, api_key_id, url, options, status, task_queue, kind, workflow_id, resume_key, created_at, completed_at, expires_at, answered_from_cache_at)
      VALUES (${id}::uuid, ${teamId}::uuid, ${apiKeyId}::uuid, ${url}, ${storableJson(options).json}::jsonb, ${status}, ${taskQueue}, ${kind}, ${workflowId},
              ${resume?.key ?? null}, ${createdAt}, ${completedAt}, ${expiresAt}, ${answeredFromCacheAt})
      ON CONFLICT DO NOTHING
      RETURNING id
    )
    INSERT INTO job_url (job_id, url_key, url, depth, state)
    SELECT j.id, ${seed.urlKey}, ${seed.url}, ${seed.depth}, ${FrontierState.done} FROM j
    RETURNING 1`;
  if (inserted.length === 0) throw new KeyTaken();
}

/**
 * Answers the scrape from the cached copy `load`: its job, page, charge and end (and `alsoWrite`)
 * in one transaction on `store`, and the answer GET /v2/scrape/{id} gives. Undefined, with nothing
 * written, when the copy does not make a page (the workflow tells why) or another scrape took the
 * request's key meanwhile (the caller attaches to it).
 */
export async function answerFromCache(
  deps: Deps,
  store: PageStoreDb,
  team: Team,
  apiKeyId: string,
  scrape: PreparedScrape,
  load: PageLoad,
  opts: CachedAnswerOptions = {},
): Promise<Record<string, unknown> | undefined> {
  if (team.creditBalance < 1) throw insufficientCredits(team.creditBalance, 'a scrape');
  const id = uuidv7();
  const crawl = jobRow(deps, team, apiKeyId, scrape, id, new Date());
  const write = await pageWriteOf(deps, crawl, scrape, load);
  opts.step?.('convert');
  if (!write) return undefined;
  const webhook = crawlWebhook(scrape.options, 'scrape');
  let inserted: LoadPath[];
  try {
    inserted = await inTransaction(store, async (tx) => {
      await writeJobRow(tx, crawl, scrape.seed, opts.resume);
      await writeCrawlEvent(tx, id, webhook, { type: 'crawl.started', success: true, data: [] });
      const written = await writeScrapedPages(tx, [write]);
      await writeCrawlEvent(tx, id, webhook, { type: 'crawl.completed', success: true, data: [{ status: crawl.status, completed: 1 }] });
      await opts.alsoWrite?.(tx, id);
      return written.inserted;
    });
  } catch (err) {
    if (err instanceof KeyTaken) return undefined;
    throw err;
  }
  opts.step?.('commit');
  countJobStarted('scrape');
  countStoredPages('scrape', inserted);
  countJobEnded('scrape', 'completed');
  // What scrapeAnswer gives once the page is read back: its stored JSON, with the scrape's id.
  const document = JSON.parse(write.page.document.json) as { metadata?: Record<string, unknown> };
  return { ...document, metadata: { ...document.metadata, scrapeId: id } };
}
