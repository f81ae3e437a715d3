-- AlterTable
ALTER TABLE "team" ADD COLUMN     "plan_credits" INTEGER;

-- AlterTable
ALTER TABLE "activity_log" ADD COLUMN     "duration_ms" INTEGER,
ADD COLUMN     "job_id" TEXT,
ADD COLUMN     "status_code" INTEGER;

-- CreateTable
CREATE TABLE "usage_month" (
    "team_id" UUID NOT NULL,
    "api_key_id" UUID NOT NULL,
    "month" DATE NOT NULL,
    "credits" BIGINT NOT NULL,
    "tokens" BIGINT NOT NULL,

    CONSTRAINT "usage_month_pkey" PRIMARY KEY ("team_id","month","api_key_id")
);

-- CreateIndex
CREATE INDEX "activity_log_team_id_endpoint_created_at_id_idx" ON "activity_log"("team_id", "endpoint", "created_at" DESC, "id" DESC);

-- AddForeignKey
ALTER TABLE "usage_month" ADD CONSTRAINT "usage_month_team_id_fkey" FOREIGN KEY ("team_id") REFERENCES "team"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- The summary moves with every ledger row, in the statement that writes it (the ledger is
-- append-only: rows are never updated, and deleted only with their team).
CREATE FUNCTION usage_month_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO usage_month (team_id, api_key_id, month, credits, tokens)
  VALUES (NEW.team_id, COALESCE(NEW.api_key_id, '00000000-0000-0000-0000-000000000000'::uuid),
          date_trunc('month', NEW.created_at AT TIME ZONE 'UTC')::date, NEW.credits, NEW.tokens)
  ON CONFLICT (team_id, month, api_key_id)
  DO UPDATE SET credits = usage_month.credits + EXCLUDED.credits, tokens = usage_month.tokens + EXCLUDED.tokens;
  RETURN NULL;
END $$;

CREATE TRIGGER usage_entry_month AFTER INSERT ON usage_entry FOR EACH ROW EXECUTE FUNCTION usage_month_add();

-- Backfill: the months of every charge made before this migration.
INSERT INTO "usage_month" ("team_id", "api_key_id", "month", "credits", "tokens")
SELECT "team_id", COALESCE("api_key_id", '00000000-0000-0000-0000-000000000000'::uuid),
       date_trunc('month', "created_at" AT TIME ZONE 'UTC')::date, SUM("credits"), SUM("tokens")
FROM "usage_entry"
GROUP BY 1, 2, 3;
