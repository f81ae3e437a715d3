-- The job's workflow id, naming its kind (crawl-<id>, batch-scrape-<id>, scrape-<id>), written
-- when the row is created. Rows created before stay null: their workflow is crawl-<id> whatever
-- their kind, and the code reads null that way (src/jobs/definitions.ts jobWorkflowId).
ALTER TABLE "crawl" ADD COLUMN "workflow_id" TEXT;
