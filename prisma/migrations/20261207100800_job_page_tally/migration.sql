-- job_page_tally: how many pages of a job are stored and how many failed, which GET /v2/crawl/{id}
-- and every batch's progress read instead of counting the job's pages (issue 43: that count took
-- 45 ms at 50,000 pages and grew with the crawl).
-- CreateTable
CREATE TABLE "job_page_tally" (
    "job_id" UUID NOT NULL,
    "succeeded" BIGINT NOT NULL DEFAULT 0,
    "failed" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "job_page_tally_pkey" PRIMARY KEY ("job_id")
);

-- AddForeignKey
ALTER TABLE "job_page_tally" ADD CONSTRAINT "job_page_tally_job_id_fkey" FOREIGN KEY ("job_id") REFERENCES "job"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The tally moves with every page inserted and every page whose success changes (a failed page
-- stored again by a retry). Deferred to the commit of the writing transaction: the eight batches of
-- a crawl store their pages at once, and an immediate trigger would hold the job's tally row from
-- each batch's first insert to its commit (serializing them, and waiting on it while holding the
-- frontier's advisory lock could deadlock with a batch waiting on that lock). At the commit the row
-- is held for the commit alone. Deletes are not followed: pages are deleted only with their job,
-- whose tally row goes with it, and a purge of a million pages would queue a million events.
CREATE FUNCTION job_page_tally_move() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  succeeded bigint := NEW.success::int;
  failed bigint := (NOT NEW.success)::int;
BEGIN
  IF TG_OP = 'UPDATE' THEN
    succeeded := succeeded - OLD.success::int;
    failed := failed - (NOT OLD.success)::int;
    IF succeeded = 0 AND failed = 0 THEN RETURN NULL; END IF;
  END IF;
  INSERT INTO job_page_tally AS t (job_id, succeeded, failed) VALUES (NEW.job_id, succeeded, failed)
  ON CONFLICT (job_id) DO UPDATE SET succeeded = t.succeeded + EXCLUDED.succeeded, failed = t.failed + EXCLUDED.failed;
  RETURN NULL;
END $$;

CREATE CONSTRAINT TRIGGER job_page_tally_move AFTER INSERT OR UPDATE OF success ON job_page
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION job_page_tally_move();

-- Backfill, in the migration's transaction: creating the trigger locked job_page against writes
-- until the commit, so no page is written between the count and the trigger (a rolling deploy's
-- old workers wait for it; the count reads every page once).
INSERT INTO "job_page_tally" ("job_id", "succeeded", "failed")
SELECT "job_id", count(*) FILTER (WHERE "success"), count(*) FILTER (WHERE NOT "success")
FROM "job_page"
GROUP BY "job_id";
