-- AlterTable
ALTER TABLE "crawl" ADD COLUMN     "idempotency_key" TEXT,
ADD COLUMN     "kind" TEXT NOT NULL DEFAULT 'crawl';

-- CreateTable
CREATE TABLE "map_job" (
    "id" UUID NOT NULL,
    "team_id" UUID NOT NULL,
    "api_key_id" UUID,
    "url" TEXT NOT NULL,
    "options" JSONB NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'running',
    "links" JSONB,
    "warning" TEXT,
    "error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completed_at" TIMESTAMPTZ(3),

    CONSTRAINT "map_job_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "map_job_created_at_idx" ON "map_job"("created_at");

-- CreateIndex
CREATE UNIQUE INDEX "crawl_team_id_idempotency_key_key" ON "crawl"("team_id", "idempotency_key");

-- AddForeignKey
ALTER TABLE "map_job" ADD CONSTRAINT "map_job_team_id_fkey" FOREIGN KEY ("team_id") REFERENCES "team"("id") ON DELETE CASCADE ON UPDATE CASCADE;

