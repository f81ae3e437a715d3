-- job_queue_tally: how many frontier rows of a job are queued, which a batch's progress report
-- and its end read instead of counting the queue (issue 43: 120-180 ms a count with 900,000 URLs
-- queued in a crawl of a million, read about twice a second). Its triggers are per statement
-- (below); job_page_tally's and usage_job's are per row, deferred, as their rows come a page group
-- (at most 32) at a time.
-- CreateTable
CREATE TABLE "job_queue_tally" (
    "job_id" UUID NOT NULL,
    "queued" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "job_queue_tally_pkey" PRIMARY KEY ("job_id")
);

-- AddForeignKey
ALTER TABLE "job_queue_tally" ADD CONSTRAINT "job_queue_tally_job_id_fkey" FOREIGN KEY ("job_id") REFERENCES "job"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The count moves by statement: with the rows a statement inserted queued, and with the rows
-- whose state a statement moved into or out of queued (a claim, a release, a redirect alias, the
-- queue skipped at a crawl's end), one upsert per statement whatever its size. Row by row, a
-- statement of many rows would update the one tally row as often within its transaction, each
-- update slower than the last (20,000 rows: 5 s; a cancelled crawl's 900,000 skipped rows would
-- take hours). The tally row is held from the statement to the commit: admissions and alias
-- turns run under the job's advisory lock already, and claims are statements of their own.
-- Deletes are not followed: rows are deleted with their job (whose count goes with it) or by an
-- adjustment of the limit, which takes them off itself.
CREATE FUNCTION job_queue_tally_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO job_queue_tally AS t (job_id, queued)
  SELECT job_id, count(*) FROM added WHERE state = 'queued' GROUP BY job_id
  ON CONFLICT (job_id) DO UPDATE SET queued = t.queued + EXCLUDED.queued;
  RETURN NULL;
END $$;

CREATE TRIGGER job_queue_tally_add AFTER INSERT ON job_url
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION job_queue_tally_add();

CREATE FUNCTION job_queue_tally_move() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO job_queue_tally AS t (job_id, queued)
  SELECT job_id, moved FROM (
    SELECT job_id, sum(n) AS moved FROM (
      SELECT job_id, 1 AS n FROM after_rows WHERE state = 'queued'
      UNION ALL
      SELECT job_id, -1 FROM before_rows WHERE state = 'queued'
    ) AS m GROUP BY job_id
  ) AS d WHERE moved <> 0
  ON CONFLICT (job_id) DO UPDATE SET queued = t.queued + EXCLUDED.queued;
  RETURN NULL;
END $$;

CREATE TRIGGER job_queue_tally_move AFTER UPDATE ON job_url
  REFERENCING OLD TABLE AS before_rows NEW TABLE AS after_rows FOR EACH STATEMENT EXECUTE FUNCTION job_queue_tally_move();

-- Backfill, in the migration's transaction (creating the trigger locked job_url against writes
-- until the commit).
INSERT INTO "job_queue_tally" ("job_id", "queued")
SELECT "job_id", count(*) FROM "job_url" WHERE "state" = 'queued' GROUP BY "job_id";
