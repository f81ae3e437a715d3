-- job_frontier_size: the count of a job's frontier rows that count against its limit, which
-- admitting links read instead of counting every row (issue 43: that count grew with the crawl).
-- No backfill: the frontier counts a job's rows once, under its lock, when the job has no row here.
-- The second job_url index is the claim's order (depth, id), read off the index instead of sorted.
-- CreateTable
CREATE TABLE "job_frontier_size" (
    "job_id" UUID NOT NULL,
    "admitted" BIGINT NOT NULL,

    CONSTRAINT "job_frontier_size_pkey" PRIMARY KEY ("job_id")
);

-- CreateIndex
CREATE INDEX "job_url_job_id_state_depth_id_idx" ON "job_url"("job_id", "state", "depth", "id");

-- AddForeignKey
ALTER TABLE "job_frontier_size" ADD CONSTRAINT "job_frontier_size_job_id_fkey" FOREIGN KEY ("job_id") REFERENCES "job"("id") ON DELETE CASCADE ON UPDATE CASCADE;

