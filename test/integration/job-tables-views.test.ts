// A rolling deploy over migration 20261207045856_job_tables: the previous release's gateways and
// workers keep running against the migrated database, through the views that keep its names
// (crawl, crawl_url, crawl_page, with crawl_id). Each statement below is one that release runs,
// as it wrote it (src/jobs/frontier/frontier.ts, page-store.ts, finish-crawl.ts, start-batch.ts,
// scrape-resume.ts and Prisma's own shapes before the rename), sent to the real PostgreSQL of the
// suite; what it wrote is then read under the new names, as this release reads it.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchDatabase, type ScratchDatabase } from '../support/scratch-database.ts';

let scratch: ScratchDatabase;
let client: pg.Client;
const teamId = randomUUID();
const crawlId = randomUUID();

beforeAll(async () => {
  scratch = await createScratchDatabase('job_views');
  client = new pg.Client({ connectionString: scratch.url });
  await client.connect();
  await client.query('INSERT INTO team (id, name, credit_balance) VALUES ($1, $2, 100)', [teamId, 'views']);
});

afterAll(async () => {
  await client?.end();
  await scratch?.drop();
});

const rows = async <T extends pg.QueryResultRow>(sql: string, params: unknown[] = []) => (await client.query<T>(sql, params)).rows;

describe("the previous release's statements through the views", () => {
  it('creates a job as Prisma did (INSERT ... RETURNING on "public"."crawl"), the table filling the columns it leaves out', async () => {
    const [created] = await rows(
      `INSERT INTO "public"."crawl" ("id","team_id","api_key_id","url","options","status","task_queue","kind")
       VALUES ($1,$2,NULL,$3,$4,$5,$6,$7)
       RETURNING "public"."crawl"."id", "public"."crawl"."status", "public"."crawl"."kind", "public"."crawl"."created_at", "public"."crawl"."workflow_id"`,
      [crawlId, teamId, 'http://site.test/', { url: 'http://site.test/', limit: 10 }, 'scraping', 'q', 'crawl'],
    );
    expect(created).toMatchObject({ id: crawlId, status: 'scraping', kind: 'crawl', workflow_id: null });
    expect(created.created_at).toBeInstanceOf(Date);
    // A row without the workflow id: this release reads it as the legacy crawl-<id>.
    expect(await rows('SELECT id, workflow_id FROM job WHERE id = $1', [crawlId])).toEqual([{ id: crawlId, workflow_id: null }]);
  });

  it('adds to the frontier (INSERT ... ON CONFLICT (crawl_id, url_key) DO NOTHING), claims (UPDATE ... FOR UPDATE SKIP LOCKED RETURNING) and marks done', async () => {
    const add = (urls: string[]) =>
      client.query(
        `WITH n AS (
           SELECT count(*) FILTER (WHERE state <> 'redirect') AS admitted,
                  count(*) FILTER (WHERE state IN ('queued', 'claimed')) AS waiting
           FROM crawl_url WHERE crawl_id = $1::uuid
         ), balance AS (
           SELECT GREATEST(t.credit_balance, 0)::bigint AS credits FROM crawl c JOIN team t ON t.id = c.team_id WHERE c.id = $1::uuid
         )
         INSERT INTO crawl_url (crawl_id, url, url_key, depth)
         SELECT $1::uuid, u.url, u.url_key, u.depth
         FROM unnest($2::text[], $3::text[], $4::int[]) WITH ORDINALITY AS u(url, url_key, depth, n)
         WHERE NOT EXISTS (SELECT 1 FROM crawl_url c WHERE c.crawl_id = $1::uuid AND c.url_key = u.url_key)
         ORDER BY u.n
         LIMIT GREATEST(0, LEAST($5::bigint - (SELECT admitted FROM n), $6::bigint * (SELECT credits FROM balance) - (SELECT waiting FROM n)))
         ON CONFLICT (crawl_id, url_key) DO NOTHING`,
        [crawlId, urls.map((u) => `http://${u}`), urls, urls.map(() => 0), 10, 1],
      );
    expect((await add(['site.test/a', 'site.test/b', 'site.test/c'])).rowCount).toBe(3);
    expect((await add(['site.test/a', 'site.test/d'])).rowCount).toBe(1);

    const claimed = await rows<{ url_key: string; state: string }>(
      `UPDATE crawl_url SET state = 'claimed', claimed_by = $2, claimed_at = now()
       WHERE id IN (SELECT id FROM crawl_url WHERE crawl_id = $1::uuid AND state = 'queued' ORDER BY depth, id LIMIT $3::int FOR UPDATE SKIP LOCKED)
       RETURNING id, url, url_key AS "urlKey", depth, state`,
      [crawlId, 'run:0', 2],
    );
    expect(claimed.map((r) => r.state)).toEqual(['claimed', 'claimed']);
    const done = await client.query(`UPDATE crawl_url SET state = 'done' WHERE crawl_id = $1::uuid AND url_key = ANY($2::text[])`, [
      crawlId,
      ['site.test/a', 'site.test/b'],
    ]);
    expect(done.rowCount).toBe(2);
    expect(await rows('SELECT url_key, state, claimed_by FROM job_url WHERE job_id = $1 ORDER BY id', [crawlId])).toEqual([
      { url_key: 'site.test/a', state: 'done', claimed_by: 'run:0' },
      { url_key: 'site.test/b', state: 'done', claimed_by: 'run:0' },
      { url_key: 'site.test/c', state: 'queued', claimed_by: null },
      { url_key: 'site.test/d', state: 'queued', claimed_by: null },
    ]);
    // Prisma's frontier read (findMany on crawlUrl by crawl_id).
    expect(
      await rows('SELECT "id", "crawl_id", "url_key" FROM "public"."crawl_url" WHERE ("crawl_id" = $1 AND "claimed_by" = $2) ORDER BY "id" ASC', [
        crawlId,
        'run:0',
      ]),
    ).toHaveLength(2);
  });

  it('stores pages (INSERT ... ON CONFLICT (crawl_id, url_key) DO UPDATE ... RETURNING (xmax = 0)), telling an insert from a rewrite', async () => {
    const store = () =>
      rows<{ url_key: string; inserted: boolean }>(
        `INSERT INTO crawl_page (crawl_id, url_key, url, success, status_code, error, document, size_bytes)
         SELECT $1::uuid, p.url_key, p.url, true, p.status_code, NULL, p.document::jsonb, p.size_bytes
         FROM unnest($2::text[], $3::text[], $4::int[], $5::text[], $6::int[]) WITH ORDINALITY AS p(url_key, url, status_code, document, size_bytes, n)
         ORDER BY p.n
         ON CONFLICT (crawl_id, url_key) DO UPDATE SET
           url = EXCLUDED.url, success = true, status_code = EXCLUDED.status_code, error = NULL, document = EXCLUDED.document, size_bytes = EXCLUDED.size_bytes
         RETURNING id, url_key, (xmax = 0) AS inserted`,
        [crawlId, ['site.test/a', 'site.test/b'], ['http://site.test/a', 'http://site.test/b'], [200, 200], ['{"markdown":"a"}', '{"markdown":"b"}'], [1, 1]],
      );
    expect((await store()).map((r) => [r.url_key, r.inserted])).toEqual([
      ['site.test/a', true],
      ['site.test/b', true],
    ]);
    expect((await store()).map((r) => r.inserted)).toEqual([false, false]);
    // A failed page as Prisma wrote it (createMany with skipDuplicates).
    const failed = await client.query(
      `INSERT INTO "public"."crawl_page" ("crawl_id","url_key","url","success","status_code","error","document") VALUES ($1,$2,$3,$4,$5,$6,$7) ON CONFLICT DO NOTHING`,
      [crawlId, 'site.test/c', 'http://site.test/c', false, 500, 'HTTP 500', { metadata: {} }],
    );
    expect(failed.rowCount).toBe(1);
    expect(await rows('SELECT count(*)::int AS n, count(*) FILTER (WHERE success)::int AS stored FROM job_page WHERE job_id = $1', [crawlId])).toEqual([
      { n: 3, stored: 2 },
    ]);
    // GET /v2/crawl/{id}'s counts as the previous release reads them.
    expect(
      await rows(
        `SELECT (SELECT count(*) FROM crawl_page WHERE crawl_id = $1::uuid AND success)::int AS completed,
                (SELECT count(*) FROM crawl_url WHERE crawl_id = $1::uuid AND state = 'queued')::int AS queued`,
        [crawlId],
      ),
    ).toEqual([{ completed: 2, queued: 2 }]);
  });

  it('locks and ends the job (SELECT ... FOR UPDATE, UPDATE crawl), and deletes through the view with its pages and frontier', async () => {
    await client.query('BEGIN');
    expect(await rows('SELECT id FROM crawl WHERE id = $1::uuid FOR UPDATE', [crawlId])).toEqual([{ id: crawlId }]);
    const ended = await client.query(`UPDATE "public"."crawl" SET "status" = $2, "completed_at" = now() WHERE ("id" = $1 AND "status" = 'scraping')`, [
      crawlId,
      'completed',
    ]);
    await client.query('COMMIT');
    expect(ended.rowCount).toBe(1);
    const resumed = await client.query(
      `UPDATE crawl SET resumable_until = GREATEST(resumable_until, $2::timestamptz) WHERE id = $1::uuid AND resume_key IS NULL`,
      [crawlId, new Date()],
    );
    expect(resumed.rowCount).toBe(1);
    expect(await rows('SELECT status FROM job WHERE id = $1', [crawlId])).toEqual([{ status: 'completed' }]);

    expect((await client.query('DELETE FROM "public"."crawl" WHERE "id" = $1', [crawlId])).rowCount).toBe(1);
    expect(
      await rows('SELECT (SELECT count(*) FROM job_url WHERE job_id = $1)::int AS urls, (SELECT count(*) FROM job_page WHERE job_id = $1)::int AS pages', [
        crawlId,
      ]),
    ).toEqual([{ urls: 0, pages: 0 }]);
  });
});
