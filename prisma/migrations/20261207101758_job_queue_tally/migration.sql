-- job_queue_tally: how many frontier rows of a job are queued, which a batch's progress report
-- and its end read instead of counting the queue (issue 43: 120-180 ms a count with 900,000 URLs
-- queued in a crawl of a million, read about twice a second).
-- CreateTable
CREATE TABLE "job_queue_tally" (
    "job_id" UUID NOT NULL,
    "queued" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "job_queue_tally_pkey" PRIMARY KEY ("job_id")
);

-- AddForeignKey
ALTER TABLE "job_queue_tally" ADD CONSTRAINT "job_queue_tally_job_id_fkey" FOREIGN KEY ("job_id") REFERENCES "job"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The count moves with every row inserted queued and every row whose state enters or leaves
-- queued (a claim, a release, a redirect alias), when the writing transaction commits (deferred,
-- as job_page_tally_move says why: a crawl's batches claim and admit at once). Deletes are not
-- followed: rows are deleted with their job (whose count goes with it; a purge of a million rows
-- would queue a million events) or by an adjustment of the limit, which takes them off itself.
CREATE FUNCTION job_queue_tally_move() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  moved bigint := (NEW.state = 'queued')::int;
BEGIN
  IF TG_OP = 'UPDATE' THEN moved := moved - (OLD.state = 'queued')::int; END IF;
  IF moved = 0 THEN RETURN NULL; END IF;
  INSERT INTO job_queue_tally AS t (job_id, queued) VALUES (NEW.job_id, moved)
  ON CONFLICT (job_id) DO UPDATE SET queued = t.queued + EXCLUDED.queued;
  RETURN NULL;
END $$;

CREATE CONSTRAINT TRIGGER job_queue_tally_move AFTER INSERT OR UPDATE OF state ON job_url
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION job_queue_tally_move();

-- Backfill, in the migration's transaction (creating the trigger locked job_url against writes
-- until the commit).
INSERT INTO "job_queue_tally" ("job_id", "queued")
SELECT "job_id", count(*) FROM "job_url" WHERE "state" = 'queued' GROUP BY "job_id";
