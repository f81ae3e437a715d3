-- usage_job: the ledger summed per job, which a job's creditsUsed (GET /v2/crawl/{id} and the
-- workflow's progress) reads instead of summing its charges (issue 43: 40 ms a read at 150,000
-- pages, growing with the crawl).
-- CreateTable
CREATE TABLE "usage_job" (
    "job_id" TEXT NOT NULL,
    "team_id" UUID NOT NULL,
    "credits" BIGINT NOT NULL DEFAULT 0,
    "tokens" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "usage_job_pkey" PRIMARY KEY ("job_id")
);

-- AddForeignKey
ALTER TABLE "usage_job" ADD CONSTRAINT "usage_job_team_id_fkey" FOREIGN KEY ("team_id") REFERENCES "team"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The sum moves with every ledger row (append-only: never updated, deleted only with its team),
-- when the charging transaction commits: a crawl's batches charge their pages at once, and an
-- immediate trigger would hold the job's row from each batch's charge to its commit (as
-- job_page_tally_move says).
CREATE FUNCTION usage_job_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO usage_job AS j (job_id, team_id, credits, tokens) VALUES (NEW.job_id, NEW.team_id, NEW.credits, NEW.tokens)
  ON CONFLICT (job_id) DO UPDATE SET credits = j.credits + EXCLUDED.credits, tokens = j.tokens + EXCLUDED.tokens;
  RETURN NULL;
END $$;

CREATE CONSTRAINT TRIGGER usage_entry_job AFTER INSERT ON usage_entry
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION usage_job_add();

-- Backfill, in the migration's transaction (creating the trigger locked the ledger against
-- inserts until the commit). A job's charges are all its team's.
INSERT INTO "usage_job" ("job_id", "team_id", "credits", "tokens")
SELECT "job_id", (min("team_id"::text))::uuid, sum("credits"), sum("tokens")
FROM "usage_entry"
GROUP BY "job_id";
