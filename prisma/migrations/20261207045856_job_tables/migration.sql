-- The engine's tables are named for what they hold: every job kind (crawl, batch_scrape, scrape),
-- not only crawls. crawl -> job, crawl_url -> job_url (the frontier), crawl_page -> job_page (the
-- stored pages), their crawl_id columns -> job_id, and the index and constraint names Prisma
-- derives from them. A rename keeps the rows, the sequences and every foreign key pointing at the
-- table (webhook_event.crawl_id and crawl_robots_blocked.crawl_id now reference job).
ALTER TABLE "crawl" RENAME TO "job";
ALTER TABLE "crawl_url" RENAME TO "job_url";
ALTER TABLE "crawl_page" RENAME TO "job_page";
ALTER TABLE "job_url" RENAME COLUMN "crawl_id" TO "job_id";
ALTER TABLE "job_page" RENAME COLUMN "crawl_id" TO "job_id";

ALTER TABLE "job" RENAME CONSTRAINT "crawl_pkey" TO "job_pkey";
ALTER TABLE "job" RENAME CONSTRAINT "crawl_team_id_fkey" TO "job_team_id_fkey";
ALTER INDEX "crawl_team_id_status_idx" RENAME TO "job_team_id_status_idx";
ALTER INDEX "crawl_status_workflow_started_at_idx" RENAME TO "job_status_workflow_started_at_idx";
ALTER INDEX "crawl_team_resume_key" RENAME TO "job_team_resume_key";

ALTER TABLE "job_url" RENAME CONSTRAINT "crawl_url_pkey" TO "job_url_pkey";
ALTER TABLE "job_url" RENAME CONSTRAINT "crawl_url_crawl_id_fkey" TO "job_url_job_id_fkey";
ALTER INDEX "crawl_url_crawl_id_state_id_idx" RENAME TO "job_url_job_id_state_id_idx";
ALTER INDEX "crawl_url_crawl_id_claimed_by_idx" RENAME TO "job_url_job_id_claimed_by_idx";
ALTER INDEX "crawl_url_crawl_id_url_key_key" RENAME TO "job_url_job_id_url_key_key";
ALTER SEQUENCE "crawl_url_id_seq" RENAME TO "job_url_id_seq";

ALTER TABLE "job_page" RENAME CONSTRAINT "crawl_page_pkey" TO "job_page_pkey";
ALTER TABLE "job_page" RENAME CONSTRAINT "crawl_page_crawl_id_fkey" TO "job_page_job_id_fkey";
ALTER INDEX "crawl_page_crawl_id_success_id_idx" RENAME TO "job_page_job_id_success_id_idx";
ALTER INDEX "crawl_page_crawl_id_url_key_key" RENAME TO "job_page_job_id_url_key_key";
ALTER SEQUENCE "crawl_page_id_seq" RENAME TO "job_page_id_seq";

-- No downtime for running jobs: during a rolling deploy, gateways and workers of the previous
-- release keep running against this database until they are replaced. They read and write the old
-- names, so the old names stay as views with the old column names. Each is a simple view of one
-- table (no join, no aggregate, every column plain), so PostgreSQL updates it automatically:
-- INSERT (with ON CONFLICT on the old column names, and RETURNING), UPDATE, DELETE and SELECT ...
-- FOR UPDATE reach the table, and an INSERT that leaves a column out gets the table's default.
-- test/integration/job-tables-views.test.ts runs the previous release's statements through them.
-- The next release drops the three views (docs/operations.md, "Upgrading to the job names"): by
-- then no process of this release's predecessor is left.
CREATE VIEW "crawl" AS
  SELECT "id", "team_id", "api_key_id", "url", "options", "status", "error", "created_at", "completed_at", "expires_at",
         "robots_txt", "warning", "workflow_started_at", "task_queue", "kind", "resume_key", "resumable_until", "workflow_id"
  FROM "job";
CREATE VIEW "crawl_url" AS
  SELECT "id", "job_id" AS "crawl_id", "url_key", "url", "depth", "state", "claimed_by", "claimed_at", "created_at"
  FROM "job_url";
-- The previous release stores pages with INSERT ... ON CONFLICT DO UPDATE ... RETURNING (xmax = 0),
-- which tells an inserted row from an updated one; a view has no system columns, so crawl_page
-- carries the table's xmax as a read-only column of that name.
CREATE VIEW "crawl_page" AS
  SELECT "id", "job_id" AS "crawl_id", "url_key", "url", "success", "status_code", "error", "document", "size_bytes", "purged_at", "created_at",
         "xmax"
  FROM "job_page";
